// The messages between a count and its workers.
import type { Unit } from '../plan.js';

export type ToWorker =
  /** First message: the board size and the compiled kernel (absent for the TS kernel). */
  | { type: 'init'; n: number; module: WebAssembly.Module | null }
  /** A batch of plan units; they travel themselves, so workers never build the plan. */
  | { type: 'run'; units: Unit[] };

/** A finished unit's count: solutions for a 'solutions' unit, fixes for a 'fixes' one. */
export type UnitResult = { id: number; count: bigint };

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /**
   * Results so far of the current batch; `batchDone` on the last part of it.
   * `partial`: the unit being counted and the share of it done.
   */
  | { type: 'results'; results: UnitResult[]; batchDone: boolean; partial?: { id: number; share: number } }
  | { type: 'error'; message: string; name: string; stack?: string };
