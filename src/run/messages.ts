// The messages between a count and its workers.
import type { JoinUnit } from '../join/join-plan.js';
import type { CompletionUnit } from '../completions/completion-types.js';
import type { Unit } from '../search/search-plan.js';

export type { CompletionUnit };

/**
 * What a pool's workers run: the symmetry search's plan units (the
 * default), the half-board join's row splits, or completion units of
 * countCompletions().
 */
export type Task = 'search' | 'join' | 'completions';

/** The unit type of each task. */
export type TaskUnit<T extends Task> = T extends 'join' ? JoinUnit : T extends 'completions' ? CompletionUnit : Unit;

export type ToWorker =
  /**
   * First message: the board size, the task and its compiled kernel (null for
   * the TS kernel): the search kernel, the join module, or the enumeration
   * module for 'completions'.
   */
  | {
      type: 'init';
      n: number;
      task: Task;
      module: WebAssembly.Module | null;
      reportEveryMs?: number | undefined;
      /** A unit to count once before 'ready', result unused: builds the worker's tables while the calling thread counts. */
      warm?: TaskUnit<Task> | undefined;
    }
  /** A batch of units; they travel themselves, so workers never build the plan. */
  | { type: 'run'; units: TaskUnit<Task>[] };

/** A finished unit's count: solutions (fixes for a search 'fixes' unit). */
export type UnitResult = { id: number; count: bigint };

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /**
   * Results so far of the current batch; `batchDone` on the last part of it.
   * `partial`: the unit being counted and the share of it done.
   */
  | { type: 'results'; results: UnitResult[]; batchDone: boolean; partial?: { id: number; share: number } }
  | { type: 'error'; message: string; name: string; stack?: string | undefined; code?: string | undefined };
