// Runs units on a pool of workers. Work is handed out in plan order
// (largest first) to whichever worker is free, in batches that shrink as the
// list runs down (guided self-scheduling: few messages early, an even finish
// late); each worker holds one batch in hand and one queued, so it never
// waits for a message between two. Every worker, including one still
// starting, has exited before the promise settles, whatever happened.
import { abortError, type AbortSignalLike } from '../abort.js';
import { codedError, ERROR_CODES } from '../errors.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';
import type { FromWorker, Task, TaskUnit } from './messages.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;

export interface PoolJob<T extends Task = 'search'> {
  n: number;
  /** What the units are (default 'search': plan units). */
  task?: T;
  /** The units to run, pulled as they are handed out, and how many there are. */
  units: Iterator<TaskUnit<T>>;
  count: number;
  threads: number;
  /** The task's compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  signal?: AbortSignalLike | undefined;
  onResult(unit: TaskUnit<T>, count: bigint): void;
  /** A unit being counted: the share of it done so far. */
  onPartial?(unit: TaskUnit<T>, share: number): void;
  /** Test hook: how often workers report within a batch (default: every 50 ms and at its end). */
  reportEveryMs?: number | undefined;
  /** Test hook: sees every message from a worker before the pool handles it. */
  onMessage?(message: FromWorker): void;
}

export function runOnWorkers<T extends Task = 'search'>(job: PoolJob<T>): Promise<void> {
  const { n, signal } = job;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (job.count === 0) return Promise.resolve();
  /** Units handed out and not yet finished. */
  const byId = new Map<number, TaskUnit<T>>();
  const workers: WorkerHandle[] = [];
  /** One per worker being started; each settles once its worker is listening or terminated. */
  const starting: Promise<void>[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;

  return new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      // Workers still starting terminate themselves as they come up (below): wait for those too.
      void Promise.all(starting)
        .then(() => Promise.all(workers.map((w) => w.terminate().catch(() => undefined))))
        .then(() => (error === undefined ? resolve() : reject(error)));
    };
    const onAbort = (): void => settle(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });

    const dispatch = (worker: WorkerHandle): void => {
      const left = job.count - next;
      if (left === 0) return;
      const size = Math.ceil(left / (BATCH_SHARE * job.threads));
      const batch: TaskUnit<T>[] = [];
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
      job.onMessage?.(message);
      switch (message.type) {
        case 'online':
          worker.post({ type: 'init', n, task: job.task ?? 'search', module: job.module, reportEveryMs: job.reportEveryMs });
          return;
        case 'ready':
          for (let i = 0; i < IN_FLIGHT; i++) dispatch(worker);
          return;
        case 'results': {
          try {
            for (const r of message.results) {
              const unit = byId.get(r.id);
              if (!unit) throw codedError(`a counting worker returned unit ${r.id}, which it was not given`, ERROR_CODES.INTERNAL);
              byId.delete(r.id);
              job.onResult(unit, r.count);
            }
            const inside = message.partial && byId.get(message.partial.id);
            if (inside) job.onPartial?.(inside, message.partial!.share);
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
          // The worker's error, rebuilt on this side as the cause of a WORKER_FAILED.
          const cause = new Error(message.message);
          cause.name = message.name;
          if (message.stack) cause.stack = message.stack;
          if (message.code) Object.defineProperty(cause, 'code', { value: message.code, enumerable: true });
          const error = codedError(`counting worker failed: ${message.message}`, ERROR_CODES.WORKER_FAILED, cause);
          if (message.stack) error.stack = message.stack;
          settle(error);
        }
      }
    };

    const size = Math.min(job.threads, job.count);
    for (let i = 0; i < size; i++) {
      const started = spawnWorker().then(
        (worker) => {
          // A worker that comes up after the count settled (it failed or was aborted meanwhile).
          if (settled) return worker.terminate().catch(() => undefined);
          workers.push(worker);
          worker.listen(
            (message) => onMessage(worker, message),
            (error) => settle(error),
          );
        },
        (error) =>
          settle(
            codedError(`counting worker could not start: ${(error as Error)?.message ?? String(error)}`, ERROR_CODES.WORKER_FAILED, error),
          ),
      );
      starting.push(started);
    }
  });
}
