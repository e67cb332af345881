// Runs plan units on a pool of workers. Work is handed out in plan order
// (largest constellations first) to whichever worker is free, in batches that shrink as the
// list runs down (guided self-scheduling: few messages early, an even finish
// late); each worker holds one batch in hand and one queued, so it never
// waits for a message between two. Every worker is terminated before the
// promise settles, whatever happened.
import { abortError } from '../abort.js';
import type { Unit } from '../plan.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';
import type { FromWorker } from './messages.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;

export interface PoolJob {
  n: number;
  /** The units to run, pulled as they are handed out, and how many there are. */
  units: Iterator<Unit>;
  count: number;
  threads: number;
  /** The compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  signal?: AbortSignal;
  onResult(unit: Unit, count: bigint): void;
  /** A unit being counted: the share of it done so far. */
  onPartial(unit: Unit, share: number): void;
}

export function runOnWorkers(job: PoolJob): Promise<void> {
  const { n, signal } = job;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (job.count === 0) return Promise.resolve();
  /** Units handed out and not yet finished. */
  const byId = new Map<number, Unit>();
  const workers: WorkerHandle[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;

  return new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      const stopping = workers.map((w) => w.terminate().catch(() => undefined));
      void Promise.all(stopping).then(() => (error === undefined ? resolve() : reject(error)));
    };
    const onAbort = (): void => settle(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });

    const dispatch = (worker: WorkerHandle): void => {
      const left = job.count - next;
      if (left === 0) return;
      const size = Math.ceil(left / (BATCH_SHARE * job.threads));
      const batch: Unit[] = [];
      for (let i = 0; i < size; i++) {
        const unit = job.units.next();
        if (unit.done) break;
        batch.push(unit.value);
        byId.set(unit.value.id, unit.value);
      }
      worker.post({ type: 'run', units: batch });
      next += size;
    };

    const onMessage = (worker: WorkerHandle, message: FromWorker): void => {
      if (settled) return;
      switch (message.type) {
        case 'online':
          worker.post({ type: 'init', n, module: job.module });
          return;
        case 'ready':
          for (let i = 0; i < IN_FLIGHT; i++) dispatch(worker);
          return;
        case 'results': {
          try {
            for (const r of message.results) {
              const unit = byId.get(r.id);
              if (!unit) throw new Error(`a counting worker returned unit ${r.id}, which it was not given`);
              byId.delete(r.id);
              job.onResult(unit, r.count);
            }
            const inside = message.partial && byId.get(message.partial.id);
            if (inside) job.onPartial(inside, message.partial!.share);
          } catch (error) {
            settle(error);
            return;
          }
          finished += message.results.length;
          if (finished === job.count) settle();
          else if (message.batchDone) dispatch(worker);
          return;
        }
        case 'error': {
          const error = new Error(`counting worker failed: ${message.message}`);
          if (message.stack) error.stack = message.stack;
          settle(error);
        }
      }
    };

    const size = Math.min(job.threads, job.count);
    for (let i = 0; i < size; i++) {
      spawnWorker().then(
        (worker) => {
          if (settled) {
            void worker.terminate();
            return;
          }
          workers.push(worker);
          worker.listen(
            (message) => onMessage(worker, message),
            (error) => settle(error),
          );
        },
        (error) => settle(error),
      );
    }
  });
}
