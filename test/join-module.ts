// The join's tests' door to it on one thread: its wasm module
// (assembly/join/) or the TypeScript twin, and a whole count of totals and
// uniques without the plan and runner (countSync counts through its Method).
// Test code, so it is not shipped.
import { compileBuild, resolveWasm, wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { joinCounterFrom, type JoinCounter, type JoinEngine } from '../dist/join/join-counter.js';
import { checkJoinSize, compactPlanSteps, joinUnitAt } from '../dist/join/join-plan.js';
import { finish } from '../dist/shared/slices.js';
import { countSymmetricSolutions, uniqueFromTotal } from '../dist/shared/symmetric-solutions.js';

export { joinMemoryBytes, checkJoinSize, JOIN_MAX_N, JOIN_MEMORY_LIMIT, type JoinUnit } from '../dist/join/join-plan.js';
export {
  countSymmetricSolutions,
  searchSymmetricSolutions,
  uniqueFromTotal,
  type SymmetricCounts,
} from '../dist/shared/symmetric-solutions.js';

export type { JoinCounter, JoinEngine } from '../dist/join/join-counter.js';

/** Compiles one build of the join module; throws where WebAssembly cannot. */
export function compileJoinModule(build: 'simd' | 'baseline'): WebAssembly.Module {
  return compileBuild('join', build);
}

/** The join module for this runtime: the SIMD build where it validates, else the baseline. */
function getJoinModule(): WebAssembly.Module {
  return resolveWasm('join', 'wasm')!;
}

/** A counter on `engine`; for wasm, from `module` (default: this runtime's join module). */
export function joinCounter(engine: JoinEngine, module?: WebAssembly.Module): JoinCounter {
  return joinCounterFrom(engine, engine === 'js' ? null : (module ?? wasmModuleOf('join') ?? getJoinModule()));
}

interface JoinCount {
  readonly n: number;
  readonly total: bigint;
  readonly unique: bigint;
}

/** Totals and uniques by the join, on one thread. Throws a RangeError before allocating when n's tables do not fit. */
export function countJoin(n: number, engine: JoinEngine = 'wasm'): JoinCount {
  checkJoinSize(n);
  const counter = joinCounter(engine);
  const plan = finish(compactPlanSteps(n)); // made afresh, its units one at a time: n = 17 has 54,779 (9 MB of objects at once)
  let total = 0n;
  for (let id = 0; id < plan.units; id++) total += BigInt(plan.weight[id]) * counter.countUnit(n, joinUnitAt(plan, id));
  return { n, total, unique: uniqueFromTotal(n, total, countSymmetricSolutions(n)) };
}
