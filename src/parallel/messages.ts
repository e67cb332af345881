// The messages between a count and its workers.
import type { Subproblem, SubproblemCount } from '../constellations.js';

export type ToWorker =
  /** First message: the board size and the compiled kernel (absent for the TS kernel). */
  | { type: 'init'; n: number; module: WebAssembly.Module | null; reportEveryMs?: number }
  /** A batch of subproblems; they travel themselves, so workers never build the plan. */
  | { type: 'run'; subproblems: Subproblem[] };

export type SubproblemResult = { id: number } & SubproblemCount;

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /** Results so far of the current batch; `batchDone` on the last part of it. */
  | { type: 'results'; results: SubproblemResult[]; batchDone: boolean }
  | { type: 'error'; message: string; name: string; stack?: string };
