// Completions of a partly filled board as a Method (src/contract/method.ts): a
// plain list of open-rows units, each counting its own completions, with no
// unique count. They are never sharded or saved, so they have no identity,
// shards or checks of saved counts (MethodFiles).
import { onePiece, type CpuEngine, type Method, type UnitCounter, type UnitCounting } from '../contract/method.js';
import type { CompletionUnit } from './completion-types.js';
import { jsOpenRows, openRowsKernelOf, resolveOpenRowsModule } from './open-rows-kernel.js';

/** A completion unit counted on this thread from `module` (null: the TypeScript open-rows kernel), in one piece. */
function completionsCounter(module: WebAssembly.Module | null): UnitCounter<CompletionUnit> {
  const kernel = module ? openRowsKernelOf(module) : jsOpenRows;
  return (unit) => onePiece(kernel.countOpenRows(unit.rows, unit.allow));
}

/** How a thread counts completion units (they carry their rows: n is not needed). */
export const completionsCounting: UnitCounting<CompletionUnit> = {
  name: 'completions',
  counter: (_n, module) => completionsCounter(module),
};

export function completionsMethod(n: number, units: readonly CompletionUnit[]): Method<CompletionUnit> {
  return Object.freeze({
    name: completionsCounting.name,
    n,
    units: units.length,
    largestUnitShare: units.length > 0 ? 1 / units.length : 0,
    unitsIn: (from: number, to: number) => units.slice(from, to),
    workOf: () => 1,
    workIn: (from: number, to: number) => Math.max(0, to - from),
    contribution: (_id: number, count: bigint) => ({ total: count, unique8: 0n }),
    uniqueOf: () => 0n,
    uniqueWithLastUnit: false,
    module: (engine: CpuEngine) => resolveOpenRowsModule(engine),
    counter: completionsCounter,
    // A unit is counted in one piece and may take minutes (n = 24 with one queen): on this thread it would hold off abort.
    bytesPerThread: 0,
    helps: false,
    warm: () => undefined,
    codec: undefined,
    share: undefined,
  });
}
