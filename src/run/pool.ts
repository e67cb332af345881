// Runs units on a pool of workers. Work is handed out in plan order
// (largest first) to whichever worker is free, in batches that shrink as the
// list runs down (guided self-scheduling: few messages early, an even finish
// late); each worker holds one batch in hand and one queued, so it never
// waits for a message between two. A job may have a helper: the calling
// thread, counting units while no worker is ready yet (a worker takes tens of
// milliseconds to start).
//
// Workers outlive a count only as idle workers: when a count finishes, its
// workers wait, unref'd (they never keep Node alive), for the next count,
// which takes them instead of starting new ones; IDLE_MS after the last count
// they are terminated. A count that fails or is aborted terminates its
// workers, including any still starting, before its promise settles.
import { abortError, type AbortSignalLike } from '../shared/abort.js';
import { codedError, ERROR_CODES } from '../shared/errors.js';
import { isNode } from '../contract/environment.js';
import { spawnWorker, spawnWorkerNow, type WorkerHandle } from './spawn.js';
import type { AnyUnit, FromWorker, Task } from './messages.js';
import type { WorkerShare } from '../contract/method.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;

export interface PoolJob<U extends AnyUnit = AnyUnit> {
  n: number;
  /** Whose units they are: the method's name, by which workers build its counter (src/run/counters.ts). */
  task: Task;
  /** The units to run, pulled as they are handed out, and how many there are. */
  units: Iterator<U>;
  count: number;
  threads: number;
  /** The task's compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  /** With `module` its shared build: one memory for every worker's instance (Method.share), each in its own slot. */
  share?: WorkerShare | undefined;
  signal?: AbortSignalLike | undefined;
  onResult(unit: U, count: bigint): void;
  /** A unit being counted: the share of it done so far. */
  onPartial?(unit: U, share: number): void;
  /** Test hook: how often workers report within a batch (default: every 50 ms and at its end). */
  reportEveryMs?: number | undefined;
  /** Test hook: sees every message from a worker before the pool handles it. */
  onMessage?(message: FromWorker): void;
  /**
   * Counts units on the calling thread while the workers start. Called once,
   * as they are spawned, with `take`: the next unit (handed out, so no worker
   * gets it) while no worker is ready and the job has not settled, else
   * undefined. Its results go through the helper's own bookkeeping, not
   * onResult; it resolves once every unit it took is counted (or rejects,
   * which fails the job). Ready workers then get the rest.
   */
  helper?: ((take: () => U | undefined) => Promise<void>) | undefined;
  /** A unit each worker counts once, result unused, before it says it is ready: it builds the worker's tables. */
  warm?: U | undefined;
}

/** Idle workers are terminated this long after the last count that used them (milliseconds). */
export const IDLE_MS = 1000;

/** What a worker was last initialised with: a worker initialised alike needs no 'init'. */
interface InitKey {
  n: number;
  task: Task;
  module: WebAssembly.Module | null;
  share: WorkerShare | undefined;
  reportEveryMs: number | undefined;
}

/** A worker between counts, or being handed to one. */
interface Pooled {
  handle: WorkerHandle;
  /** It has said 'online' (it listens). */
  online: boolean;
  /** Its last 'init' (messages are handled in order, so a 'run' after it sees that state). */
  init?: InitKey;
}

const idle: Pooled[] = [];
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** Counts running: idle workers wait for the last of them to end before their IDLE_MS start. */
let running = 0;

/** (Re)starts the idle timeout: IDLE_MS from now, if no count runs and a worker idles. */
function restartIdleTimer(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  if (running > 0 || idle.length === 0) return;
  idleTimer = setTimeout(() => void closeIdleWorkers(), IDLE_MS);
  (idleTimer as { unref?: () => void }).unref?.();
}

function sameInit(a: InitKey | undefined, b: InitKey): boolean {
  return (
    a !== undefined &&
    a.n === b.n &&
    a.task === b.task &&
    a.module === b.module &&
    a.share === b.share &&
    a.reportEveryMs === b.reportEveryMs
  );
}

/** Keeps a worker for the next count, unref'd, until IDLE_MS after the last count. */
function park(worker: Pooled): void {
  // Only in Node, where an idle worker can be unref'd; a page's workers end with its count, as before.
  if (!isNode) {
    void worker.handle.terminate().catch(() => undefined);
    return;
  }
  worker.handle.unref();
  worker.handle.listen(
    (message) => {
      if (message.type === 'online') worker.online = true;
      if (message.type === 'error') drop(worker);
    },
    () => drop(worker),
  );
  idle.push(worker);
  restartIdleTimer();
}

function drop(worker: Pooled): void {
  const i = idle.indexOf(worker);
  if (i >= 0) idle.splice(i, 1);
  void worker.handle.terminate().catch(() => undefined);
}

/** Terminates every idle worker now (tests, and the idle timeout). */
export async function closeIdleWorkers(): Promise<void> {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  await Promise.all(idle.splice(0).map((w) => w.handle.terminate().catch(() => undefined)));
}

/** Idle workers, including those still starting. */
export function idleWorkers(): number {
  return idle.length;
}

/**
 * Starts workers now, as idle ones, so that a count about to run finds them
 * up (or on their way) instead of starting them once it has planned: up to
 * `threads` idle workers in all. Node only, and nothing where workers cannot
 * be started synchronously (before 20.16); the count starts them then.
 */
export function prestartWorkers(threads: number): void {
  if (!isNode) return; // idle workers are Node's only (park)
  try {
    while (idle.length < threads) {
      const handle = spawnWorkerNow();
      if (!handle) return;
      park({ handle, online: false });
    }
  } catch {
    // The count starts its own workers, and reports why they fail.
  }
}

export function runOnWorkers<U extends AnyUnit = AnyUnit>(job: PoolJob<U>): Promise<void> {
  const { n, signal } = job;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (job.count === 0) return Promise.resolve();
  /** Units handed out and not yet finished. */
  const byId = new Map<number, U>();
  const workers: Pooled[] = [];
  /** One per worker being started; each settles once its worker is listening or terminated. */
  const starting: Promise<void>[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;
  let failed = false;
  /** Units the helper took, whether it has counted them all, and whether any worker is ready. */
  let taken = 0;
  let helperDone = !job.helper;
  let anyReady = false;

  running++;
  restartIdleTimer(); // no idle worker is timed out while a count runs
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      failed = error !== undefined;
      running--;
      signal?.removeEventListener('abort', onAbort);
      restartIdleTimer(); // the other idle workers' time starts when the last count ends
      if (error === undefined) {
        // Every unit is counted, so every worker is idle: keep them for the next count (late ones as they come up, below).
        for (const w of workers) park(w);
        resolve();
        return;
      }
      // Workers still starting terminate themselves as they come up (below): wait for those too.
      void Promise.all(starting)
        .then(() => Promise.all(workers.map((w) => w.handle.terminate().catch(() => undefined))))
        .then(() => reject(error));
    };
    const onAbort = (): void => settle(abortError(signal));
    signal?.addEventListener('abort', onAbort, { once: true });
    const allDone = (): boolean => helperDone && finished + taken === job.count;

    const dispatch = (worker: Pooled): void => {
      const left = job.count - next;
      if (left === 0) return;
      const size = Math.ceil(left / (BATCH_SHARE * job.threads));
      const batch: U[] = [];
      for (let i = 0; i < size; i++) {
        const unit = job.units.next();
        if (unit.done) break;
        batch.push(unit.value);
        byId.set(unit.value.id, unit.value);
      }
      worker.handle.post({ type: 'run', units: batch });
      next += size;
    };

    const key: InitKey = { n, task: job.task, module: job.module, share: job.share, reportEveryMs: job.reportEveryMs };
    let slots = 0; // of the shared memory, one per worker
    const init = (worker: Pooled): void => {
      worker.online = true;
      if (sameInit(worker.init, key)) {
        ready(worker); // already set up for this job: its tables too
        return;
      }
      worker.init = key;
      const { share, ...rest } = key;
      const slot = share && { memory: share.memory, slot: slots++, tableBytes: share.tableBytes };
      worker.handle.post({ type: 'init', ...rest, share: slot, warm: job.warm });
    };
    const ready = (worker: Pooled): void => {
      anyReady = true;
      for (let i = 0; i < IN_FLIGHT; i++) dispatch(worker);
    };

    const onMessage = (worker: Pooled, message: FromWorker): void => {
      if (settled) return;
      job.onMessage?.(message);
      switch (message.type) {
        case 'online':
          init(worker);
          return;
        case 'ready':
          ready(worker);
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
          if (allDone()) settle();
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

    const adopt = (worker: Pooled): void => {
      worker.handle.ref();
      workers.push(worker);
      worker.handle.listen(
        (message) => onMessage(worker, message),
        (error) => settle(error),
      );
      if (worker.online) init(worker);
    };
    const size = Math.min(job.threads, job.count);
    for (let i = 0; i < size; i++) {
      // Idle workers first: those already set up for this job, then the others.
      const at = idle.findIndex((w) => sameInit(w.init, key));
      const reused = at >= 0 ? idle.splice(at, 1)[0] : idle.shift();
      if (reused) {
        adopt(reused);
        continue;
      }
      const started = spawnWorker().then(
        (handle) => {
          const worker: Pooled = { handle, online: false };
          // A worker that comes up after the count settled: kept if it succeeded, else terminated.
          if (settled) return failed ? handle.terminate().catch(() => undefined) : park(worker);
          adopt(worker);
        },
        (error) =>
          settle(
            codedError(`counting worker could not start: ${(error as Error)?.message ?? String(error)}`, ERROR_CODES.WORKER_FAILED, error),
          ),
      );
      starting.push(started);
    }

    if (job.helper) {
      const take = (): U | undefined => {
        if (settled || anyReady || next >= job.count) return undefined;
        const unit = job.units.next();
        if (unit.done) return undefined;
        next++;
        taken++;
        return unit.value;
      };
      // Once every worker is spawned (their constructors run on this thread; they start on their own).
      const helper = job.helper;
      void Promise.all(starting)
        .then(() => helper(take))
        .then(
          () => {
            helperDone = true;
            if (allDone()) settle();
          },
          (error) => settle(error),
        );
    }
  });
}
