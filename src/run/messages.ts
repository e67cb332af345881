// The messages between a count and its workers.
import type { MethodName, SharedSlot } from '../contract/method.js';
import type { UnitResults } from './unit-results.js';

/** A unit of any method: it travels as it is, and comes back as its id. */
export type AnyUnit = { readonly id: number };

export type ToWorker =
  /**
   * First message: the board size, the method and its compiled kernel (null for
   * the TS kernel): the search kernel, the join module, or the open-rows
   * module for 'completions'.
   */
  | {
      type: 'init';
      n: number;
      /** Whose units: the method's name, by which the worker builds its counter (src/run/counters.ts). */
      method: MethodName;
      module: WebAssembly.Module | null;
      /** With a shared build (Method.share): the memory every worker's instance shares, and this worker's slot in it. */
      share?: SharedSlot | undefined;
      reportEveryMs?: number | undefined;
      /** Test knobs to set before the counter is built (PoolProbe.workerHooks); unset ones go back to their defaults. */
      workerHooks?: WorkerHooks | undefined;
      /** A unit to count once before 'ready', result unused: builds the worker's tables while the calling thread counts. */
      warm?: AnyUnit | undefined;
    }
  /**
   * A batch of units; they travel themselves, so workers never build the
   * plan: as objects, or packed by the method's UnitCodec (`packed`).
   */
  | { type: 'run'; units: AnyUnit[] }
  /** The first `count` units of `packed`; the worker gives `packed` back with the batch's last results. */
  | { type: 'run'; packed: Float64Array; count: number };

export type FromWorker =
  | { type: 'online' }
  | { type: 'ready' }
  /**
   * Results so far of the current batch (counts: solutions, fixes for a
   * search 'fixes' unit); `batchDone` on the last part of it.
   * `partial`: the unit being counted and the share of it done.
   */
  | {
      type: 'results';
      results: UnitResults;
      batchDone: boolean;
      partial?: { id: number; share: number };
      /** With `batchDone`: the batch's packed units, given back for the next batch. */
      packed?: Float64Array;
    }
  | { type: 'error'; message: string; name: string; stack?: string | undefined; code?: string | undefined };

/** Test knobs of the methods' counters that a worker sets on 'init' (PoolProbe.workerHooks). */
export interface WorkerHooks {
  /** The join's quarter-table budget (default QUARTER_CACHE_BYTES): small, tables are dropped and rebuilt under the workers. */
  readonly joinTableBytes?: number | undefined;
}

/**
 * What a message moves rather than copies: a packed batch, handed to a
 * worker and back, so that no thread allocates a buffer a batch (each waited
 * for a full collection to be freed: 64 MB of them on a worker at depth 4).
 */
export function transferOf(message: ToWorker | FromWorker): ArrayBuffer[] {
  // Own keys only: a message without `packed` must not find one on Object.prototype (Node would try to move it).
  const packed = Object.hasOwn(message, 'packed') ? (message as { packed?: Float64Array }).packed : undefined;
  return packed ? [packed.buffer as ArrayBuffer] : [];
}
