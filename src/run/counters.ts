// Each method's counter for a worker thread, by the task name the pool sends:
// workers receive the compiled module and units, never the plan.
import { completionsCounter } from '../completions/completions-method.js';
import type { CompletionUnit } from '../completions/completion-types.js';
import { joinUnitCounter, type JoinShare } from '../join/join-counter.js';
import type { JoinUnit } from '../join/join-plan.js';
import { searchCounter } from '../search/search-method.js';
import type { Unit } from '../search/search-plan.js';
import type { AnyUnit, Task } from './messages.js';
import type { UnitCounter } from './method.js';

export function counterFor(task: Task, n: number, module: WebAssembly.Module | null, share?: JoinShare): UnitCounter<AnyUnit> {
  if (task === 'join') return joinUnitCounter(n, module, share) as UnitCounter<AnyUnit>;
  if (task === 'completions') return completionsCounter(module) as UnitCounter<AnyUnit>;
  const search: UnitCounter<Unit> = searchCounter(n, module);
  return search as UnitCounter<AnyUnit>;
}

export type { CompletionUnit, JoinUnit, Unit };
