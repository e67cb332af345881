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
import { abortError, onAbort, type AbortSignalLike } from '../shared/abort.js';
import { unrefTimeout } from '../shared/slices.js';
import { ownKeysOnly } from '../shared/own-keys.js';
import { codedError, ERROR_CODES } from '../shared/errors.js';
import { isNode } from '../shared/node-builtins.js';
import { isRefusal, spawnWorker, spawnWorkerNow, type WorkerHandle } from './spawn.js';
import type { AnyUnit, FromWorker, WorkerHooks } from './messages.js';
import { eachResult } from './unit-results.js';
import type { MethodName, UnitCodec, WorkerShare } from '../contract/method.js';

/** Batches each worker holds: one in hand, one queued. */
const IN_FLIGHT = 2;
/** A batch is at most 1 / (BATCH_SHARE * threads) of what is left to hand out. */
const BATCH_SHARE = 8;
/**
 * And at most this many units: n = 23's first batch on 2 workers was 253,000
 * units, which took 4 s to build, send and receive before either counted
 * (progress froze); a batch of n = 23's units is still minutes of work.
 */
export const MAX_BATCH = 4096;

/** Units in the next batch, with `left` still to hand out to `threads` workers. */
export function batchSize(left: number, threads: number): number {
  return Math.min(MAX_BATCH, Math.ceil(left / (BATCH_SHARE * threads)));
}

interface PoolJob<U extends AnyUnit = AnyUnit> {
  n: number;
  /** Whose units they are: the method's name, by which workers build its counter (src/run/counters.ts). */
  method: MethodName;
  /** The units to run, pulled as they are handed out, and how many there are. */
  units: Iterator<U>;
  count: number;
  threads: number;
  /** The method's compiled kernel, sent to each worker once; null runs the TypeScript kernel. */
  module: WebAssembly.Module | null;
  /** With `module` its shared build: one memory for every worker's instance (Method.share), each in its own slot. */
  share?: WorkerShare | undefined;
  signal?: AbortSignalLike | undefined;
  /** How the units travel packed (Method.codec), or undefined: as objects. */
  codec?: UnitCodec<U> | undefined;
  /** Unit `id` is counted. (Only ids are kept of units handed out: a deep plan has millions.) */
  onResult(id: number, count: bigint): void;
  /** Unit `id` is being counted: the share of it done so far. */
  onPartial?(id: number, share: number): void;
  /**
   * Counts units on the calling thread while the workers start. Called once,
   * as they are spawned, with `take`: the next unit (handed out, so no worker
   * gets it) while no worker is ready and the job has not settled, else
   * undefined. Its results go through the helper's own bookkeeping, not
   * onResult; it resolves once every unit it took is counted (or rejects,
   * which fails the job). Ready workers then get the rest. `stopped` says
   * the job has failed or been aborted: the helper then returns at its next
   * pause, leaving the unit in hand, and the job rejects only once it has
   * (so no unit is recorded after the job settled).
   */
  helper?: ((take: () => U | undefined, stopped: () => boolean) => Promise<void>) | undefined;
  /**
   * Whether the helper counts while the workers start (Method.helps; default
   * true). Either way, where the environment refuses every worker (isRefusal:
   * a page's CSP or Trusted Types), the helper counts every unit left.
   */
  helps?: boolean | undefined;
  /** The helper takes units for the whole job, beside the workers, not only until one is ready. */
  helperStays?: boolean | undefined;
  /** A unit each worker counts once, result unused, before it says it is ready: it builds the worker's tables. */
  warm?: U | undefined;
}

/** What tests watch and tune of a job, apart from the job a count hands the pool. */
export interface PoolProbe {
  /** How often workers report within a batch (default: every 50 ms and at its end). */
  reportEveryMs?: number | undefined;
  /** Test knobs each worker sets before it builds its counter (src/run/counters.ts). */
  workerHooks?: WorkerHooks | undefined;
  /** Sees every message from a worker before the pool handles it. */
  onMessage?(message: FromWorker): void;
}

/**
 * Idle workers are terminated this long after the last count that used them
 * (milliseconds). A worker's start (about 50 ms of CPU in Node) and its join
 * instance's tables (a second count of n = 16 on the same instance takes
 * 15% less) are saved by counts that come within it; a count of n = 16 with
 * a few other programs between (bench/peers/run.mjs's rounds) comes after
 * 1-2 s. An idle worker costs only its memory: it never keeps Node alive.
 */
export const IDLE_MS = 5000;

/** What a worker was last initialised with: a worker initialised alike needs no 'init'. */
interface InitKey {
  n: number;
  method: MethodName;
  module: WebAssembly.Module | null;
  share: WorkerShare | undefined;
  reportEveryMs: number | undefined;
  workerHooks: WorkerHooks | undefined;
}

/** A worker between counts, or being handed to one. */
interface Pooled {
  handle: WorkerHandle;
  /** It has said 'online' (it listens). */
  online: boolean;
  /** Its last 'init' (messages are handled in order, so a 'run' after it sees that state). */
  init?: InitKey;
  /**
   * The inits it was sent and has not answered ('ready' or 'error'), oldest
   * first: a worker parked while it set up for one count answers that count's
   * init to the next count that takes it, which must not read it as its own.
   */
  answering: InitKey[];
  /** With init.share: its instance's slot in that memory, held while it keeps that init, idle or not. */
  slot?: number;
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
  idleTimer = unrefTimeout(() => void closeIdleWorkers(), IDLE_MS);
}

function sameInit(a: InitKey | undefined, b: InitKey): boolean {
  return (
    a !== undefined &&
    a.n === b.n &&
    a.method === b.method &&
    a.module === b.module &&
    a.share === b.share &&
    a.reportEveryMs === b.reportEveryMs &&
    a.workerHooks === b.workerHooks
  );
}

/**
 * The lowest slot of `share` that no other worker holds: a memory serves
 * count after count (src/join/join-share.ts), and idle workers keep their
 * instances in it for the next count, which may take some and start others.
 */
function freeSlot(share: WorkerShare, workers: readonly Pooled[], self: Pooled): number {
  const held = new Set<number | undefined>();
  for (const w of [...idle, ...workers]) if (w !== self && w.init?.share === share) held.add(w.slot);
  let slot = 0;
  while (held.has(slot)) slot++;
  return slot;
}

/** Keeps a worker for the next count, unref'd, until IDLE_MS after the last count. */
function park(worker: Pooled): void {
  // Only in Node, where an idle worker can be unref'd; a page's workers end with its count, as before.
  if (!isNode) {
    void terminate(worker);
    return;
  }
  worker.handle.unref();
  worker.handle.listen(
    (message) => {
      if (message.type === 'online') worker.online = true;
      if (message.type === 'ready') worker.answering.shift();
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
  void terminate(worker);
}

/** Ends a worker, whatever its state (a failure to end it is not the count's). */
function terminate(worker: Pooled): Promise<void> {
  return worker.handle.terminate().catch(() => undefined);
}

/** Terminates every idle worker now (tests, and the idle timeout). */
export async function closeIdleWorkers(): Promise<void> {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  await Promise.all(idle.splice(0).map(terminate));
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
      park({ handle, online: false, answering: [] });
    }
  } catch {
    // The count starts its own workers, and reports why they fail.
  }
}

/**
 * Runs a job's units on a pool of workers; resolves once every unit is
 * counted, with the number of workers it set to work (those the environment
 * refused left out), whether or not each was handed a unit.
 */
export function runOnWorkers<U extends AnyUnit = AnyUnit>(job: PoolJob<U>, probe: PoolProbe = {}): Promise<number> {
  if (job.signal?.aborted) return Promise.reject(abortError(job.signal));
  if (job.count === 0) return Promise.resolve(0);
  // Their own keys alone: a field left out (codec, share, onMessage) must not be found on Object.prototype.
  const [ownJob, ownProbe] = [ownKeysOnly(job), ownKeysOnly(probe)];
  return new Promise<number>((resolve, reject) => new JobRun(ownJob, ownProbe, resolve, reject).start());
}

/** One job on the pool: its workers, the units handed out, and how it settles. */
class JobRun<U extends AnyUnit> {
  /** Per worker, the ids of the units handed to it and not yet finished. */
  readonly #handedOut = new Map<Pooled, HandedOut>();
  /** Packed batches' buffers the workers gave back, for the next batches. */
  readonly #spare: Float64Array[] = [];
  readonly #workers: Pooled[] = [];
  /** One per worker being started; each settles once its worker is listening or terminated. */
  readonly #starting: Promise<void>[] = [];
  readonly #key: InitKey;
  #next = 0;
  #finished = 0;
  #settled = false;
  #failed = false;
  /** Units the helper took, whether it has counted them all (or never started), and whether any worker is ready. */
  #taken = 0;
  #helperDone = true;
  #anyReady = false;
  /** Workers the job starts, and those of them the environment refused (isRefusal). */
  #size = 0;
  #refused = 0;
  /** The helper's run, which never rejects (its failure fails the job); undefined until it starts. */
  #helperRun: Promise<void> | undefined;
  readonly #onAbort = (): void => this.#settle(abortError(this.job.signal));
  #stopListening: (() => void) | undefined;
  /** Workers sent 'init' that have not yet said 'ready'. */
  readonly #settingUp = new Set<Pooled>();

  constructor(
    readonly job: PoolJob<U>,
    readonly probe: PoolProbe,
    readonly resolve: (workers: number) => void,
    readonly reject: (error: unknown) => void,
  ) {
    const { reportEveryMs, workerHooks } = probe;
    this.#key = { n: job.n, method: job.method, module: job.module, share: job.share, reportEveryMs, workerHooks };
  }

  start(): void {
    running++;
    restartIdleTimer(); // no idle worker is timed out while a count runs
    this.#stopListening = this.job.signal && onAbort(this.job.signal, this.#onAbort);
    this.#size = Math.min(this.job.threads, this.job.count);
    for (let i = 0; i < this.#size; i++) {
      // Idle workers first: those already set up for this job, then the others.
      const at = idle.findIndex((w) => sameInit(w.init, this.#key));
      const reused = at >= 0 ? idle.splice(at, 1)[0] : idle.shift();
      if (reused) this.#adopt(reused);
      else this.#starting.push(this.#spawn());
    }
    if (this.job.helper && this.job.helps !== false) this.#startHelper(this.job.helper);
  }

  /**
   * A worker the environment refused (a page's CSP or Trusted Types, no
   * Worker, a worker.js that did not load): it never ran, so it held no
   * unit. The job goes on without it; where every worker was refused, the
   * helper counts what is left on the calling thread (started now where
   * the method does not help), else the job fails with the refusal.
   */
  #refuse(error: unknown, worker?: Pooled): void {
    if (worker) {
      this.#workers.splice(this.#workers.indexOf(worker), 1);
      this.#settingUp.delete(worker);
      void terminate(worker);
    }
    if (this.#settled || ++this.#refused < this.#size) return;
    if (!this.job.helper) this.#settle(error);
    else if (!this.#helperRun) this.#startHelper(this.job.helper);
  }

  #settle(error?: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#failed = error !== undefined;
    running--;
    this.#stopListening?.();
    restartIdleTimer(); // the other idle workers' time starts when the last count ends
    if (error === undefined) {
      // Every unit is counted, so every worker is idle, or still setting up (init, warm) for units the helper took:
      // keep them for the next count (late ones as they come up, in #spawn). Its shared memory serves the next count
      // only if none is setting up, under its lock, where a terminated one (a page's, at once: park) would leave it held.
      if (this.#settingUp.size === 0) this.job.share?.release();
      for (const w of this.#workers) park(w);
      this.resolve(this.#size - this.#refused);
      return;
    }
    // Workers still starting terminate themselves as they come up (#spawn): wait for those too, and for the helper
    // to leave the unit it was counting (before, it went on and recorded it after the job had rejected).
    void Promise.all(this.#starting)
      .then(() => Promise.all([this.#helperRun, ...this.#workers.map(terminate)]))
      .then(() => this.reject(error));
  }

  #allDone(): boolean {
    return this.#helperDone && this.#finished + this.#taken === this.job.count;
  }

  /** Hands `worker` its next batch (batchSize). */
  #dispatch(worker: Pooled): void {
    const left = this.job.count - this.#next;
    if (left === 0) return;
    const size = batchSize(left, this.job.threads);
    const { codec } = this.job;
    let handedOut = this.#handedOut.get(worker);
    if (!handedOut) this.#handedOut.set(worker, (handedOut = new HandedOut()));
    const units: U[] = [];
    const packed = codec && this.#packedBatch(size * codec.stride);
    let taken = 0;
    for (; taken < size; taken++) {
      const unit = this.job.units.next();
      if (unit.done) break;
      handedOut.add(unit.value.id);
      if (packed) codec.write(unit.value, packed, taken * codec.stride);
      else units.push(unit.value);
    }
    worker.handle.post(packed ? { type: 'run', packed, count: taken } : { type: 'run', units });
    this.#next += size;
  }

  /** A buffer for a packed batch of `length` numbers: one a worker gave back, else a new one. */
  #packedBatch(length: number): Float64Array {
    const spare = this.#spare.pop();
    return spare && spare.length >= length ? spare : new Float64Array(length);
  }

  #init(worker: Pooled): void {
    worker.online = true;
    if (sameInit(worker.init, this.#key)) {
      // Already set up for this job, its tables too; or setting up alike for an earlier count: that answer is this job's.
      if (worker.answering.length === 0) this.#ready(worker);
      else this.#settingUp.add(worker);
      return;
    }
    const { share, ...rest } = this.#key;
    const slot = share && { memory: share.memory, slot: freeSlot(share, this.#workers, worker) };
    worker.slot = slot?.slot;
    worker.init = this.#key;
    worker.answering.push(this.#key);
    this.#settingUp.add(worker);
    worker.handle.post({ type: 'init', ...rest, share: slot, warm: this.job.warm });
  }

  #ready(worker: Pooled): void {
    this.#anyReady = true;
    for (let i = 0; i < IN_FLIGHT; i++) this.#dispatch(worker);
  }

  #message(worker: Pooled, message: FromWorker): void {
    if (this.#settled) return;
    this.probe.onMessage?.(message);
    if (message.type === 'ready' || message.type === 'error') {
      // Where it answers an init, the oldest. Only the last the worker was sent (this job's, or the alike one it was
      // taken in) is this job's: an earlier one answers another count's (a worker parked while it set up), by
      // identity, not by settings. (Before, such an 'error' failed this job: a TypeScript count with a wasm failure.)
      const answered = worker.answering.shift();
      if (answered !== undefined && worker.answering.length > 0) return;
    }
    if (message.type === 'online') this.#init(worker);
    else if (message.type === 'ready') {
      this.#settingUp.delete(worker);
      this.#ready(worker);
    } else if (message.type === 'results') this.#results(worker, message);
    else this.#settle(workerFailure(message));
  }

  #results(worker: Pooled, message: Extract<FromWorker, { type: 'results' }>): void {
    try {
      const handedOut = this.#handedOut.get(worker);
      eachResult(message.results, (id, count) => {
        const next = handedOut?.current;
        if (id !== next)
          throw codedError(`a counting worker returned unit ${id}; the next unit it was given is ${next ?? 'none'}`, ERROR_CODES.INTERNAL);
        handedOut!.finish();
        this.job.onResult(id, count);
      });
      if (message.packed) this.#spare.push(message.packed);
      const { partial } = message;
      if (partial && partial.id === handedOut?.current) this.job.onPartial?.(partial.id, partial.share);
    } catch (error) {
      this.#settle(error);
      return;
    }
    this.#finished += message.results.ids.length;
    if (this.#allDone()) this.#settle();
    else if (message.batchDone) this.#dispatch(worker);
  }

  #adopt(worker: Pooled): void {
    worker.handle.ref();
    this.#workers.push(worker);
    worker.handle.listen(
      // A copy without a prototype: a field a message leaves out (packed, partial) is not read from Object.prototype.
      (message) => this.#message(worker, ownKeysOnly(message)),
      (error) => (isRefusal(error) ? this.#refuse(error, worker) : this.#settle(error)),
    );
    if (worker.online) this.#init(worker);
  }

  #spawn(): Promise<void> {
    return spawnWorker().then(
      (handle) => {
        const worker: Pooled = { handle, online: false, answering: [] };
        // A worker that comes up after the count settled: kept if it succeeded, else terminated.
        if (this.#settled) return this.#failed ? terminate(worker) : park(worker);
        this.#adopt(worker);
      },
      (error) => {
        const failure = codedError(
          `counting worker could not start: ${(error as Error)?.message ?? String(error)}`,
          ERROR_CODES.WORKER_FAILED,
          error,
        );
        if (isRefusal(error)) this.#refuse(failure);
        else this.#settle(failure);
      },
    );
  }

  /** The helper counts units on the calling thread until a worker is ready, once every worker is spawned (their constructors run on this thread). */
  #startHelper(helper: NonNullable<PoolJob<U>['helper']>): void {
    const take = (): U | undefined => {
      if (this.#settled || (this.#anyReady && !this.job.helperStays) || this.#next >= this.job.count) return undefined;
      const unit = this.job.units.next();
      if (unit.done) return undefined;
      this.#next++;
      this.#taken++;
      return unit.value;
    };
    this.#helperDone = false;
    this.#helperRun = Promise.all(this.#starting)
      .then(() => helper(take, () => this.#settled))
      .then(
        () => {
          this.#helperDone = true;
          if (this.#allDone()) this.#settle();
        },
        (error) => this.#settle(error),
      );
  }
}

/**
 * The ids of the units handed to one worker and not yet finished, in the
 * order it counts them (batch by batch, each in order), as runs of
 * consecutive ids: a few numbers a batch (one run, but where a resumed
 * checkpoint skips units), never a number or an object a unit.
 */
class HandedOut {
  /** Runs, as first id and length, from index #head on; the first run's #at units are finished. */
  #runs: number[] = [];
  #head = 0;
  #at = 0;

  /** Unit `id` is handed out after the others. */
  add(id: number): void {
    const last = this.#runs.length - 2;
    if (last >= this.#head && this.#runs[last] + this.#runs[last + 1] === id) this.#runs[last + 1]++;
    else this.#runs.push(id, 1);
  }

  /** The unit the worker counts now (its next result), or undefined. */
  get current(): number | undefined {
    return this.#head < this.#runs.length ? this.#runs[this.#head] + this.#at : undefined;
  }

  /** The current unit is finished. */
  finish(): void {
    if (++this.#at < this.#runs[this.#head + 1]) return;
    this.#head += 2;
    this.#at = 0;
    if (this.#head === this.#runs.length) {
      this.#runs = [];
      this.#head = 0;
    }
  }
}

/** A worker's error, rebuilt on this side as the cause of a WORKER_FAILED. */
function workerFailure(message: Extract<FromWorker, { type: 'error' }>): Error {
  const cause = new Error(message.message);
  // Defined, not assigned: where Error.prototype is frozen (a hardened page), its read-only `name` makes an assignment
  // throw, and the failure was lost as an uncaught error while the count went on.
  Object.defineProperty(cause, 'name', {
    __proto__: null,
    value: message.name,
    writable: true,
    enumerable: true,
    configurable: true,
  } as PropertyDescriptor);
  if (message.stack) cause.stack = message.stack;
  if (message.code) Object.defineProperty(cause, 'code', { __proto__: null, value: message.code, enumerable: true } as PropertyDescriptor); // as in withCode
  const error = codedError(`counting worker failed: ${message.message}`, ERROR_CODES.WORKER_FAILED, cause);
  if (message.stack) error.stack = message.stack;
  return error;
}
