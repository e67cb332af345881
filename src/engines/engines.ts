// The engines behind count() and solutions(): the wasm kernel, the same
// algorithm in TypeScript, and the array-backtracking reference; and the
// search kernels behind solutions() and countCompletions().
import { planSubproblems, type Subproblem, type SubproblemCount } from '../search/constellations.js';
import * as symmetry from '../search/symmetry.js';
import { countOpenRows, searchSolutions } from '../completions/open-rows.js';
import { instantiateKernel, instantiateSearch, searchModule, u64, wasmFailure, wasmModule, type WasmKernel } from './wasm-loader.js';
import { codedError, ERROR_CODES } from '../shared/errors.js';
import type { PlacedRows } from '../search/symmetry.js';

export { ENGINES, type EngineChoice, type EngineName } from './engine-names.js';

/**
 * A kernel that runs the symmetry search's subproblems and enumerates
 * solutions. (The plain bitmask DFS the benchmark compares against is a
 * bench concern: src/baseline/bitmask.ts and the wasm bench build.)
 */
export interface Kernel {
  readonly name: 'wasm' | 'js';
  countSubproblem(n: number, s: Subproblem): SubproblemCount;
  /** The solutions containing the constellation and the queens placed in its first inner rows (a plan unit). */
  countPlaced(n: number, s: Subproblem, placed: PlacedRows): bigint;
  /** A symmetric constellation's fixes alone (Burnside's lemma; the same TypeScript search in every engine). */
  countFixes(n: number, s: Subproblem): bigint;
}

/** The search kernels (wasm module assembly/completions/open-rows.ts, or src/completions/open-rows.ts): enumeration and completions. */
export interface SearchKernel {
  readonly name: 'wasm' | 'js';
  /** Placements in lexicographic order; row r avoids the columns in forbid[r]; only those after `after`, if given. */
  solutions(n: number, forbid: ArrayLike<number>, after?: ArrayLike<number>): Iterator<number[]>;
  /** Completions of the open rows (rows[i] may use the columns in allow[i]). */
  countOpenRows(rows: ArrayLike<number>, allow: ArrayLike<number>): bigint;
}

/**
 * Counts from this n first run the TS kernel over every subproblem of n = 13
 * (about 0.1 s, once per thread). V8 optimises the kernel's functions while
 * the first count runs, and the code it settles on depends on that count:
 * starting cold on n = 17, the kernel took 1.12x the time of the wasm build
 * without SIMD in two benchmark runs; warmed on n = 13 first, 1.00x.
 */
const JS_WARM_UP_FROM = 16;
let jsWarmedUp = false;

function warmUpJs(n: number): void {
  if (!jsWarmedUp && n >= JS_WARM_UP_FROM) {
    jsWarmedUp = true;
    for (const small of planSubproblems(13)) symmetry.countSubproblem(13, small);
  }
}

function countSubproblemJs(n: number, s: Subproblem): SubproblemCount {
  warmUpJs(n);
  return symmetry.countSubproblem(n, s);
}

export const jsKernel: Kernel = {
  name: 'js',
  countSubproblem: countSubproblemJs,
  countPlaced(n, s, placed) {
    warmUpJs(n);
    return symmetry.countPlaced(n, s, placed);
  },
  countFixes: symmetry.countFixesOnly,
};

export const jsSearch: SearchKernel = { name: 'js', solutions: searchSolutions, countOpenRows };

function* wasmSolutions(
  module: WebAssembly.Module,
  n: number,
  forbid: ArrayLike<number>,
  after?: ArrayLike<number>,
): Generator<number[], void, undefined> {
  // Each enumeration keeps its state in its own instance, so several can interleave.
  const s = instantiateSearch(module);
  new Uint32Array(s.memory.buffer, s.forbidPointer(), n).set(Array.from(forbid, (m) => m >>> 0));
  if (after) new Uint8Array(s.memory.buffer, s.afterPointer(), n).set(Array.from(after));
  s.solutionsStart(n, after ? 1 : 0);
  while (s.solutionsNext() === 1) {
    yield Array.from(new Uint8Array(s.memory.buffer, s.placementPointer(), n));
  }
}

/** Wraps the search module: enumerations get an instance each, completions share one. */
export function wasmSearchFrom(module: WebAssembly.Module): SearchKernel {
  const s = instantiateSearch(module);
  return {
    name: 'wasm',
    solutions: (n, forbid, after) => wasmSolutions(module, n, forbid, after),
    countOpenRows(rows, allow) {
      const open = rows.length;
      new Uint32Array(s.memory.buffer, s.rowsPointer(), open).set(Array.from(rows));
      new Uint32Array(s.memory.buffer, s.allowPointer(), open).set(Array.from(allow, (m) => m >>> 0));
      return u64(s.countCompletions(open));
    },
  };
}

let wasmSearch: SearchKernel | undefined;

/** The search kernel for a choice, on this thread: as resolveKernel, for the search module. */
export function resolveSearch(engine: 'auto' | 'wasm' | 'js'): SearchKernel {
  const module = resolveSearchModule(engine);
  if (!module) return jsSearch;
  wasmSearch ??= wasmSearchFrom(module);
  return wasmSearch;
}

/** The compiled search module for a choice, or null for the TypeScript search ('wasm' throws where it is unavailable). */
export function resolveSearchModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  if (!resolveModule(engine)) return null;
  const module = searchModule();
  if (module || engine === 'auto') return module ?? null;
  throw codedError(
    "engine 'wasm' is unavailable here (the search module did not compile); use engine 'auto' to fall back to 'js'",
    ERROR_CODES.WASM_UNAVAILABLE,
  );
}

/**
 * Wraps an instance. Call once per module; warms the hot functions. `setUp`
 * sees the raw instance first (the tests tune the bench build through it).
 */
export function wasmKernelFrom<K extends WasmKernel = WasmKernel>(module: WebAssembly.Module, setUp?: (instance: K) => void): Kernel {
  const k = instantiateKernel<K>(module);
  setUp?.(k);
  const kernel: Kernel = {
    name: 'wasm',
    countSubproblem(n, s) {
      const solutions = u64(k.countConstellation(n, s.a, s.b, s.c, s.d, 0, 0, 0, 0));
      return { solutions, fixes: s.symmetries === 0 ? 0n : u64(k.countConstellationFixes(n, s.a, s.b, s.c, s.d, s.symmetries)) };
    },
    countPlaced: (n, s, p) => u64(k.countConstellation(n, s.a, s.b, s.c, s.d, p.rows, p.cols, p.ld, p.rd)),
    countFixes: (n, s) => (s.symmetries === 0 ? 0n : u64(k.countConstellationFixes(n, s.a, s.b, s.c, s.d, s.symmetries))),
  };
  // V8 runs new wasm in its baseline tier and cannot swap in optimised code
  // while a call is running, so run the hot loops a little before real work:
  // the plain subproblem search, and (n = 14 with 11 rows left) the SIMD one.
  for (let i = 0; i < 20; i++) {
    k.countConstellation(10, 1, 6, 4, 3, 0, 0, 0, 0);
    if (i % 4 === 0) k.countConstellation(14, 12, 13, 11, 13, 0, 0, 0, 0);
  }
  return kernel;
}

let wasmKernel: Kernel | undefined;

/** The shared wasm kernel, or undefined where WebAssembly is unavailable. */
export function getWasmKernel(): Kernel | undefined {
  if (wasmKernel) return wasmKernel;
  const module = wasmModule();
  if (module) wasmKernel = wasmKernelFrom(module);
  return wasmKernel;
}

/**
 * The compiled wasm kernel for a choice, or null for the TypeScript one:
 * 'auto' falls back to TypeScript when wasm is unavailable, 'wasm' throws.
 */
export function resolveModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  if (engine === 'js') return null;
  const module = wasmModule();
  if (module || engine === 'auto') return module ?? null;
  const reason = wasmFailure();
  throw codedError(
    `engine 'wasm' is unavailable here (${reason instanceof Error ? reason.message : String(reason)}); ` +
      `use engine 'auto' to fall back to 'js'`,
    ERROR_CODES.WASM_UNAVAILABLE,
    reason,
  );
}

/** The kernel for a choice, on this thread (see resolveModule). */
export function resolveKernel(engine: 'auto' | 'wasm' | 'js'): Kernel {
  return resolveModule(engine) ? getWasmKernel()! : jsKernel;
}
