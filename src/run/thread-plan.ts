// The thread plan: how many threads a count uses, in one place for the API,
// the runner and every method. Three numbers, each with its own name:
// - `workers`: worker threads started (0: the calling thread counts alone);
// - `callingThreadCounts`: the calling thread counts beside the workers
//   throughout (besideOneWorker), not only while they start;
// - `countingThreads`: the threads that count, as CountResult.threads says:
//   1 on the calling thread alone, else the workers, plus the calling
//   thread where it counts beside them.
import { AUTO_THREADS_MIN_N, tableMemoryBudget } from '../contract/environment.js';
import { isNode } from '../shared/node-builtins.js';
import { COMPLETIONS_THREADS_MIN_OPEN } from '../completions/completion-types.js';
import { workersRefused } from './spawn.js';

/** The largest n counted beside one worker on two cores (besideOneWorker): the join's up to 17 take 2 s. */
export const BESIDE_MAX_N = 17;

/** Workers a count may start whatever the cores (a few more than the cores cost little, and let small machines test a pool). */
const SMALL_COUNT_WORKERS = 4;

/** Parts a plan is cut into when the threads are not known yet (count() with no `threads`, before the cores are). */
const DEFAULT_PARTS = 2;

/**
 * On one core, a count on one worker counts on the calling thread first, and
 * starts its worker only once the count projects past this (milliseconds):
 * see workerStartsLate.
 */
const LATE_WORKER_MS = 1000;

let lateWorkerMs = LATE_WORKER_MS;

/** Test hook: that projection's bound (undefined: LATE_WORKER_MS; 0: the worker starts after the first unit; Infinity: never). */
export function setLateWorkerMs(ms: number | undefined): void {
  lateWorkerMs = ms ?? LATE_WORKER_MS;
}

/** The bound of workerStartsLate's projection, in milliseconds. */
export function lateWorkerBoundMs(): number {
  return lateWorkerMs;
}

/**
 * Whether a count whose worker starts late (workerStartsLate) still projects
 * within `bound` ms, asked after each unit it counts on the calling thread:
 * the time so far, plus the work left at the rate of a window that opens
 * once a twentieth of the bound has passed and spans another twentieth.
 * Before that window, a fresh process's first units build the join's tables
 * and run its code before V8 optimizes it, at about half the rate of the
 * rest (n = 16 on one core): a projection over them, the time so far over
 * the share done, came to 0.8 s for a count of 0.42 s with another program
 * on the core, and past the bound in one run of six, where the worker then
 * started and the count took 0.8 s. With `bound` 0 it is past at once.
 */
export function lateWorkerProjection(bound: number): (elapsed: number, share: number) => boolean {
  let opened: { at: number; share: number } | undefined;
  // After `elapsed` ms of counting, `share` of the work done (finished units): within the bound?
  return (elapsed, share) => {
    if (elapsed < bound / 20) return true;
    opened ??= { at: elapsed, share };
    const window = elapsed - opened.at;
    if (window < bound / 20) return true;
    const done = share - opened.share;
    return done > 0 && elapsed + ((1 - share) * window) / done <= bound;
  };
}

interface ThreadPlan {
  /** Worker threads to start; 0: the calling thread counts alone. */
  readonly workers: number;
  /** It asked for workers, but other running counts held every one: it may take them once they are free (freeWorkers). */
  readonly starved: boolean;
  /** The calling thread counts beside the workers throughout. */
  readonly callingThreadCounts: boolean;
  /** Threads that count: 1 on the calling thread alone, else workers (+1 when the calling thread counts beside them). */
  readonly countingThreads: number;
}

/** What a count's method says of its threads. */
interface ThreadNeeds {
  /** Units left to count: never more workers than these. */
  readonly units: number;
  /** The method's calling thread can count while workers start (Method.helps). */
  readonly helps: boolean;
  /** Each thread's tables (Method.bytesPerThread): never more workers than fit in memory. */
  readonly bytesPerThread: number;
}

/**
 * Workers that the counts running now hold (threadPlan takes them,
 * releaseThreads gives them back): workerCap is the process's, so counts
 * that run at once share it. 50 concurrent `count(12, { threads: 2 })` on
 * 2 cores started 100 workers (7.8 s, 1.1 GB); now 4, and the other counts
 * count on the calling thread, in turns, until workers are free, or wait for
 * one where their method does not help (units in one piece: completions, the
 * join from n = 18); the runner then plans their threads again for what is left.
 */
let workersHeld = 0;

/**
 * The threads of a count of n that asks for `threads` (undefined: the
 * default) on `cores` cores, for a method with these needs, out of the
 * workers no other running count holds; the count holds its workers until
 * it gives them back with releaseThreads.
 */
export function threadPlan(n: number, threads: number | undefined, cores: number, needs: ThreadNeeds, node = isNode): ThreadPlan {
  const beside = needs.helps && besideOneWorker(n, threads, cores, node);
  const wanted = workersWanted(n, threads, cores, needs.helps, node);
  const workers = workersFor(wanted, needs.units, cores, needs.bytesPerThread);
  workersHeld += workers;
  if (workers === 0) return { workers: 0, starved: wanted > 0 && needs.units > 0, callingThreadCounts: true, countingThreads: 1 };
  return { workers, starved: false, callingThreadCounts: beside, countingThreads: beside ? workers + 1 : workers };
}

/** Counts waiting for workers (workersReleased): woken at the next release. */
const waiting: (() => void)[] = [];

/** A count has ended (however): its plan's workers are free for other counts, and those waiting are woken. */
export function releaseThreads(plan: ThreadPlan): void {
  workersHeld -= plan.workers;
  for (const wake of waiting.splice(0)) wake();
}

/** Settles at the next releaseThreads. */
export function workersReleased(): Promise<void> {
  return new Promise((wake) => waiting.push(wake));
}

/** Waits for a release now (an aborted wait too, until the next release): a test sees a count wait as it begins. */
export const releasesAwaited = (): number => waiting.length;

/**
 * Workers worth starting before a count of n is planned (they take tens of
 * milliseconds to start, while this thread plans): never more than the
 * runner will use. 0 where the cores are not known yet.
 */
export function workersToPrestart(n: number, threads: number | undefined, cores: number | undefined): number {
  // On one core a worker started early only takes the core from the planning (and see workerStartsLate).
  if (n < AUTO_THREADS_MIN_N || cores === undefined || cores === 1) return 0;
  // Counts up to BESIDE_MAX_N are of methods that help: threadPlan asks the same.
  return Math.min(workersWanted(n, threads, cores, true), freeWorkers(cores));
}

/** The parts a count's plan is cut into: the threads that will count, as far as they are known now. */
export function planParts(threads: number | undefined, cores: number | undefined): number {
  return Math.min(threads ?? DEFAULT_PARTS, workerCap(cores ?? DEFAULT_PARTS));
}

/**
 * Whether a count by default runs on this thread beside one worker, rather
 * than on a worker a core: on two cores, up to n = BESIDE_MAX_N, where a
 * second worker's start (tens of milliseconds, and its own tables) costs
 * more than it counts (n = 16 on a 2-core VM: 0.19 s this way, 0.25 s on
 * two workers, 0.20 s on this thread alone). Never when `threads` is given,
 * nor in a browser, whose calling thread is the page's.
 */
export function besideOneWorker(n: number, threads: number | undefined, cores: number, node = isNode): boolean {
  return node && threads === undefined && cores === 2 && n >= AUTO_THREADS_MIN_N && n <= BESIDE_MAX_N;
}

/**
 * Whether a count's one worker starts late: in Node on one core (a process
 * pinned to a core, a one-CPU container), a worker cannot count beside the
 * calling thread, only instead of it, and its start (about 50 ms of that
 * core, and tables of its own) is a quarter of a 0.2 s count. So where the
 * method lets the calling thread count (Method.helps) and no idle worker
 * waits (`idle`), the calling thread counts first, in slices that keep
 * its event loop turning, and starts the worker only once the count projects
 * past lateWorkerBoundMs() (LATE_WORKER_MS, 1 s); a shorter count ends
 * without one. `result.threads` is 1 either way: one thread counted at a
 * time. Never with more workers, nor in a browser (the page's thread).
 */
export function workerStartsLate(plan: ThreadPlan, cores: number, helps: boolean, idle: number, node = isNode): boolean {
  return node && cores === 1 && plan.workers === 1 && !plan.callingThreadCounts && helps && idle === 0;
}

/**
 * The threads a completion count with `open` rows open asks for, on `cores`
 * cores: `threads`, else a worker a core from COMPLETIONS_THREADS_MIN_OPEN
 * open rows, else 0 (the calling thread, in slices). threadPlan plans them.
 */
export function completionsThreads(open: number, threads: number | undefined, cores: number): number {
  if (threads !== undefined) return threads;
  return open >= COMPLETIONS_THREADS_MIN_OPEN ? cores : 0;
}

/**
 * The workers a count asks for: `threads`, else one a core from
 * AUTO_THREADS_MIN_N (less this thread's, besideOneWorker), else none; none
 * once the environment refused one (workersRefused: `threads` is a ceiling).
 */
function workersWanted(n: number, threads: number | undefined, cores: number, helps: boolean, node = isNode): number {
  if (workersRefused()) return 0;
  if (threads !== undefined) return threads;
  if (n < AUTO_THREADS_MIN_N) return 0;
  return helps && besideOneWorker(n, threads, cores, node) ? cores - 1 : cores;
}

/**
 * Workers for a count that asks for `wanted`, at every n: never more than
 * the units left to count, than freeWorkers(cores) (a worker beyond the cores
 * only adds its start-up and memory: `count(15, { threads: 256 })` took 39 s
 * and 2.4 GB on 2 cores, where 2 workers take 0.9 s), or than fit in memory
 * with tables of `bytesPerThread` each (at least one).
 */
function workersFor(wanted: number, units: number, cores: number, bytesPerThread: number): number {
  const byMemory = bytesPerThread > 0 ? Math.max(1, Math.floor(tableMemoryBudget() / bytesPerThread)) : Infinity;
  return Math.min(wanted, units, freeWorkers(cores), byMemory);
}

/** Workers a count may still start: workerCap(cores), less those other running counts hold. */
export function freeWorkers(cores: number): number {
  return Math.max(0, workerCap(cores) - workersHeld);
}

/** The most workers a count starts on `cores` cores: one a core, or SMALL_COUNT_WORKERS where there are fewer. */
function workerCap(cores: number): number {
  return Math.max(SMALL_COUNT_WORKERS, cores);
}
