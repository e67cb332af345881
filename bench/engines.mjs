// What `npm run bench` times: every engine and algorithm a user can pick,
// each through the call a user makes (countSync or count), plus the plain
// wasm without SIMD (what a browser without SIMD runs) and the native C
// anchor. The ids of the search rows keep their first names (symmetry-*):
// the n = 17 history (bench/history.mjs) is keyed by them.
import { count, countSync, JOIN_AUTO_MIN_N, JOIN_MAX_N } from '../dist/index.js';
import { countOnThread } from '../dist/contract/method.js';
import { compileKernel } from '../dist/engines/wasm-loader.js';
import { methodForCount } from '../dist/run/methods.js';

/**
 * @typedef {{ id: string, label: string, minN?: number, maxN?: number, native?: boolean, everyCore?: boolean,
 *   workers?: boolean, run?: (n: number) => bigint | Promise<bigint> }} Engine
 * everyCore: it starts workers on every core, so it runs unpinned (bench/pin.mjs).
 * workers: it counts on the pool's workers, which each round finds warm (bench/run.mjs).
 */

/** The engine every other row is compared with, at every n. */
export const BASELINE = 'symmetry-wasm';

/**
 * @param {{ cores: number, referenceMaxN: number }} options
 * @returns {Engine[]}
 */
export function benchEngines({ cores, referenceMaxN }) {
  // countSync's own path (plan, then each unit on one counter), with the module a browser without SIMD gets.
  const withoutSimd = compileKernel('baseline');
  const searchWithoutSimd = (/** @type {number} */ n) => countOnThread(methodForCount(n, 'search', 1), withoutSimd).total;
  const sync = (/** @type {'wasm' | 'js'} */ engine, /** @type {'join' | 'search'} */ algorithm) => (/** @type {number} */ n) =>
    countSync(n, { engine, algorithm }).total;
  const workers = (/** @type {number} */ threads) => async (/** @type {number} */ n) => (await count(n, { threads })).total;
  const auto = `auto: the join from n = ${JOIN_AUTO_MIN_N}`;
  return [
    { id: 'join-wasm', label: 'join, wasm, 1 thread', maxN: JOIN_MAX_N, run: sync('wasm', 'join') },
    { id: 'join-js', label: 'join, TypeScript, 1 thread', maxN: JOIN_MAX_N, run: sync('js', 'join') },
    { id: 'symmetry-wasm', label: 'search, wasm (SIMD), 1 thread', run: sync('wasm', 'search') },
    { id: 'symmetry-wasm-nosimd', label: 'search, wasm without SIMD, 1 thread', run: searchWithoutSimd },
    { id: 'symmetry-js', label: 'search, TypeScript, 1 thread', run: sync('js', 'search') },
    {
      id: 'reference',
      label: 'reference (array backtracking)',
      maxN: referenceMaxN,
      run: (n) => countSync(n, { engine: 'reference' }).total,
    },
    { id: 'threads-1', label: `count(), 1 worker (${auto})`, workers: true, run: workers(1) },
    { id: `threads-${cores}`, label: `count(), ${cores} workers (${auto})`, everyCore: true, workers: true, run: workers(cores) },
    { id: 'native', label: 'native C, plain bitmask (the anchor)', native: true },
  ];
}

/**
 * The WebGPU engine's row where this runtime has a GPU for it, else why not.
 * @returns {Promise<{ engine: Engine } | { reason: string }>}
 */
export async function webgpuEngine() {
  try {
    await count(4, { engine: 'webgpu' });
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
  return { engine: { id: 'webgpu', label: 'search, WebGPU', run: async (n) => (await count(n, { engine: 'webgpu' })).total } };
}
