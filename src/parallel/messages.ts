// The messages between a count and its workers.
import type { Subproblem, SubproblemCount } from '../constellations.js';

/**
 * What a pool's workers run: constellation subproblems of a count (the
 * default), or completion units of countCompletions().
 */
export type Task = 'constellations' | 'completions';

/** Open rows of a partly filled board (rows[i] may use the columns in allow[i]); its completions are counted. */
export interface CompletionUnit {
  readonly id: number;
  readonly rows: readonly number[];
  readonly allow: readonly number[];
}

export type ToWorker =
  /**
   * First message: the board size and the compiled kernel (absent for the TS
   * kernel): the counting kernel, or the search module for 'completions'.
   */
  | { type: 'init'; n: number; module: WebAssembly.Module | null; task?: Task }
  /** A batch of subproblems (completion units for 'completions'); they travel themselves, so workers never build the plan. */
  | { type: 'run'; subproblems: Subproblem[] | CompletionUnit[] };

export type SubproblemResult = { id: number } & SubproblemCount;

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /** Results so far of the current batch; `batchDone` on the last part of it. */
  | { type: 'results'; results: SubproblemResult[]; batchDone: boolean }
  | { type: 'error'; message: string; name: string; stack?: string };
