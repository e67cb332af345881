// The messages between a count and its workers.
import type { Subproblem, SubproblemCount } from './constellations.js';

export type ToWorker =
  /** First message: the board size and the compiled kernel (absent for the TS kernel). */
  | { type: 'init'; n: number; module: WebAssembly.Module | null }
  /** The subproblem itself travels, so workers never build the plan. */
  | { type: 'run'; subproblem: Subproblem };

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  | ({ type: 'result'; id: number } & SubproblemCount)
  | { type: 'error'; message: string; name: string; stack?: string };
