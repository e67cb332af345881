// The messages between a count and its workers.
import type { Subproblem, SubproblemCount } from '../constellations.js';
import type { JoinUnit } from '../kernels/join-plan.js';

/**
 * What a pool's workers run: the symmetry search's subproblems of a count
 * (the default), the half-board join's row splits, or completion units of
 * countCompletions().
 */
export type Task = 'search' | 'join' | 'completions';

/** Open rows of a partly filled board (rows[i] may use the columns in allow[i]); its completions are counted. */
export interface CompletionUnit {
  readonly id: number;
  readonly rows: readonly number[];
  readonly allow: readonly number[];
}

export type ToWorker =
  /**
   * First message: the board size, the task and its compiled kernel (null for
   * the TS kernel): the counting kernel, the join module, or the search module
   * for 'completions'.
   */
  | { type: 'init'; n: number; task: Task; module: WebAssembly.Module | null }
  /** A batch of units; they travel themselves, so workers never build the plan. */
  | { type: 'run'; subproblems: Subproblem[] | JoinUnit[] | CompletionUnit[] };

export type SubproblemResult = { id: number } & SubproblemCount;

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /** Results so far of the current batch; `batchDone` on the last part of it. */
  | { type: 'results'; results: SubproblemResult[]; batchDone: boolean }
  | { type: 'error'; message: string; name: string; stack?: string | undefined; code?: string | undefined };
