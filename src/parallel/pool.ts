// Runs subproblems on a pool of workers. Work is handed out in list order
// (largest first) to whichever worker is free, in batches that shrink as the
// list runs down (guided self-scheduling: few messages early, an even finish
// late); each worker holds one batch in hand and one queued, so it never
// waits for a message between two. Every worker is terminated before the
// promise settles, whatever happened.
import { abortError, type AbortSignalLike } from '../abort.js';
import type { Subproblem, SubproblemCount } from '../constellations.js';
import { codedError, ERROR_CODES } from '../errors.js';
import { spawnWorker, type WorkerHandle } from './spawn.js';
import type { FromWorker, Task } from './messages.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;

export interface PoolJob<U extends { readonly id: number } = Subproblem> {
  n: number;
  subproblems: readonly U[];
  /** What the units are: 'search' (default, Subproblem), 'join' (JoinUnit) or 'completions' (CompletionUnit). */
  task?: Task;
  threads: number;
  /** The method's compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  signal?: AbortSignalLike | undefined;
  onResult(s: U, count: SubproblemCount): void;
}

export function runOnWorkers<U extends { readonly id: number } = Subproblem>(job: PoolJob<U>): Promise<void> {
  const { n, subproblems, signal } = job;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (subproblems.length === 0) return Promise.resolve();
  const byId = new Map(subproblems.map((s) => [s.id, s]));
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
      const left = subproblems.length - next;
      if (left === 0) return;
      const size = Math.ceil(left / (BATCH_SHARE * job.threads));
      worker.post({ type: 'run', subproblems: subproblems.slice(next, next + size) as unknown as Subproblem[] });
      next += size;
    };

    const onMessage = (worker: WorkerHandle, message: FromWorker): void => {
      if (settled) return;
      switch (message.type) {
        case 'online':
          worker.post({ type: 'init', n, module: job.module, task: job.task ?? 'search' });
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

    const size = Math.min(job.threads, subproblems.length);
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
        (error) => settle(codedError(`counting worker could not start: ${(error as Error)?.message ?? String(error)}`, ERROR_CODES.WORKER_FAILED, error)),
      );
    }
  });
}
