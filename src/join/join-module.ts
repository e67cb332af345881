// The half-board join as units for the run machinery, on either engine, and
// a one-thread count of totals and uniques. The wasm join is its own module
// (assembly/join/join-kernel/join-entry.ts), compiled once and instantiated per thread: each
// instance grows its own tables.
import { resolveModule } from '../engines/engines.js';
import { decodeBase64 } from '../engines/wasm-loader.js';
import { JOIN_WASM_BASE64, JOIN_WASM_SIMD_BASE64 } from '../engines/wasm-bytes.generated.js';
import { joinCounterFrom, type JoinCounter, type JoinEngine } from './join-counter.js';
import { checkJoinSize, planJoin } from './join-plan.js';
import { countSymmetricSolutions, uniqueFromTotal } from './symmetric-solutions.js';

export { planJoin, joinMemoryBytes, checkJoinSize, JOIN_MAX_N, JOIN_MEMORY_LIMIT, type JoinUnit } from './join-plan.js';
export { countSymmetricSolutions, searchSymmetricSolutions, uniqueFromTotal, type SymmetricCounts } from './symmetric-solutions.js';

export type { JoinCounter, JoinEngine } from './join-counter.js';

/** Compiles one build of the join module; throws where WebAssembly cannot. */
export function compileJoinModule(build: 'simd' | 'baseline'): WebAssembly.Module {
  return new WebAssembly.Module(decodeBase64(build === 'simd' ? JOIN_WASM_SIMD_BASE64 : JOIN_WASM_BASE64));
}

let joinModule: WebAssembly.Module | undefined;

/** The join module for this runtime: the SIMD build where it validates, else the baseline. */
export function getJoinModule(): WebAssembly.Module {
  if (!joinModule) {
    const simd = WebAssembly.validate(decodeBase64(JOIN_WASM_SIMD_BASE64));
    joinModule = compileJoinModule(simd ? 'simd' : 'baseline');
  }
  return joinModule;
}

/**
 * The join module for an engine choice, or null for the TypeScript join:
 * 'auto' falls back where WebAssembly is unavailable, 'wasm' throws (as for
 * the search, whose module tells whether wasm compiles here at all).
 */
export function resolveJoinModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  return resolveModule(engine) ? getJoinModule() : null;
}

/** A counter on `engine`; for wasm, from `module` (default: getJoinModule()). */
export function joinCounter(engine: JoinEngine, module?: WebAssembly.Module): JoinCounter {
  return joinCounterFrom(engine, engine === 'js' ? null : (module ?? getJoinModule()));
}

export interface JoinCount {
  readonly n: number;
  readonly total: bigint;
  readonly unique: bigint;
}

/** Totals and uniques by the join, on one thread. Throws a RangeError before allocating when n's tables do not fit. */
export function countJoin(n: number, engine: JoinEngine = 'wasm'): JoinCount {
  checkJoinSize(n);
  if (n === 1) return { n, total: 1n, unique: 1n };
  const counter = joinCounter(engine);
  let total = 0n;
  for (const unit of planJoin(n)) total += BigInt(unit.weight) * counter.countUnit(n, unit);
  return { n, total, unique: uniqueFromTotal(n, total, countSymmetricSolutions(n)) };
}
