// The messages between a count and its workers.
import type { Subproblem, SubproblemCount } from '../constellations.js';
import type { JoinUnit } from '../kernels/join-plan.js';

/** The counting method a worker runs: the symmetry search's subproblems, or the half-board join's row splits. */
export type { AlgorithmName as Method } from '../algorithm.js';
import type { AlgorithmName as Method } from '../algorithm.js';

export type ToWorker =
  /** First message: the board size, the method and its compiled kernel (null for the TS kernel). */
  | { type: 'init'; n: number; method: Method; module: WebAssembly.Module | null }
  /** A batch of units (subproblems or join units); they travel themselves, so workers never build the plan. */
  | { type: 'run'; subproblems: Subproblem[] | JoinUnit[] };

export type SubproblemResult = { id: number } & SubproblemCount;

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /** Results so far of the current batch; `batchDone` on the last part of it. */
  | { type: 'results'; results: SubproblemResult[]; batchDone: boolean }
  | { type: 'error'; message: string; name: string; stack?: string | undefined; code?: string | undefined };
