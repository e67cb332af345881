// Each method's counter for a worker thread, by the name the pool sends:
// workers receive the compiled module and units, never the plan. Every
// method folder says how its units are counted (UnitCounting); this is only
// the list of them, so the worker carries the counters and not the plans.
import { completionsCounting } from '../completions/completions-method.js';
import { joinCounting, setJoinTableBytes } from '../join/join-counter.js';
import { searchCounting } from '../search/search-method.js';
import { codedError, ERROR_CODES } from '../shared/errors.js';
import type { AnyUnit, WorkerHooks } from './messages.js';
import type { MethodName, SharedSlot, UnitCodec, UnitCounter, UnitCounting } from '../contract/method.js';

const COUNTINGS: readonly UnitCounting<AnyUnit>[] = [searchCounting, joinCounting, completionsCounting];

function countingOf(name: MethodName): UnitCounting<AnyUnit> {
  const counting = COUNTINGS.find((c) => c.name === name);
  if (!counting) throw codedError(`no method is named ${String(name)}`, ERROR_CODES.INTERNAL);
  return counting;
}

export function counterFor(name: MethodName, n: number, module: WebAssembly.Module | null, share?: SharedSlot): UnitCounter<AnyUnit> {
  return countingOf(name).counter(n, module, share);
}

/** How the method's units travel packed, if they do. */
export function codecFor(name: MethodName): UnitCodec<AnyUnit> | undefined {
  return countingOf(name).codec;
}

/** Sets the knobs of `hooks`, and the others back to their defaults (a worker passes from count to count). */
export function setWorkerHooks(hooks: WorkerHooks | undefined): void {
  setJoinTableBytes(hooks?.joinTableBytes);
}
