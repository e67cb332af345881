// Runs subproblems on a pool of workers. Work is handed out in list order
// (largest first) to whichever worker is free, in batches that shrink as the
// list runs down (guided self-scheduling: few messages early, an even finish
// late); each worker holds one batch in hand and one queued, so it never
// waits for a message between two. Every worker, including one still
// starting, has exited before the promise settles, whatever happened.
import { abortError } from '../abort.js';
import type { Subproblem, SubproblemCount } from '../constellations.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';
import type { FromWorker } from './messages.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;

export interface PoolJob {
  n: number;
  subproblems: readonly Subproblem[];
  threads: number;
  /** The compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  signal?: AbortSignal;
  onResult(s: Subproblem, count: SubproblemCount): void;
  /** Test hook: how often workers report within a batch (default: every 50 ms and at its end). */
  reportEveryMs?: number;
  /** Test hook: sees every message from a worker before the pool handles it. */
  onMessage?(message: FromWorker): void;
}

export function runOnWorkers(job: PoolJob): Promise<void> {
  const { n, subproblems, signal } = job;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (subproblems.length === 0) return Promise.resolve();
  const byId = new Map(subproblems.map((s) => [s.id, s]));
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
      const left = subproblems.length - next;
      if (left === 0) return;
      const size = Math.ceil(left / (BATCH_SHARE * job.threads));
      worker.post({ type: 'run', subproblems: subproblems.slice(next, next + size) });
      next += size;
    };

    const onMessage = (worker: WorkerHandle, message: FromWorker): void => {
      if (settled) return;
      job.onMessage?.(message);
      switch (message.type) {
        case 'online':
          worker.post({ type: 'init', n, module: job.module, reportEveryMs: job.reportEveryMs });
          return;
        case 'ready':
          for (let i = 0; i < IN_FLIGHT; i++) dispatch(worker);
          return;
        case 'results': {
          try {
            for (const r of message.results) job.onResult(byId.get(r.id)!, { solutions: r.solutions, fixes: r.fixes });
          } catch (error) {
            settle(error);
            return;
          }
          finished += message.results.length;
          if (finished === subproblems.length) settle();
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

    const size = Math.min(job.threads, subproblems.length);
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
        (error) => settle(error),
      );
      starting.push(started);
    }
  });
}
