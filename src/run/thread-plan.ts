// The thread plan: how many threads a count uses, in one place for the API,
// the runner and every method. Three numbers, each with its own name:
// - `workers`: worker threads started (0: the calling thread counts alone);
// - `callingThreadCounts`: the calling thread counts beside the workers
//   throughout (besideOneWorker), not only while they start;
// - `countingThreads`: the threads that count, as CountResult.threads says:
//   1 on the calling thread alone, else the workers, plus the calling
//   thread where it counts beside them.
import { AUTO_THREADS_MIN_N, isNode, tableMemoryBudget } from '../contract/environment.js';

/** The largest n counted beside one worker on two cores (besideOneWorker): the join's up to 17 take 2 s. */
export const BESIDE_MAX_N = 17;

/** Workers a count may start whatever the cores (a few more than the cores cost little, and let small machines test a pool). */
const SMALL_COUNT_WORKERS = 4;

/** Parts a plan is cut into when the threads are not known yet (count() with no `threads`, before the cores are). */
const DEFAULT_PARTS = 2;

interface ThreadPlan {
  /** Worker threads to start; 0: the calling thread counts alone. */
  readonly workers: number;
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
 * The threads of a count of n that asks for `threads` (undefined: the
 * default) on `cores` cores, for a method with these needs.
 */
export function threadPlan(n: number, threads: number | undefined, cores: number, needs: ThreadNeeds, node = isNode): ThreadPlan {
  const beside = needs.helps && besideOneWorker(n, threads, cores, node);
  const workers = workersFor(workersWanted(n, threads, cores, needs.helps, node), needs.units, cores, needs.bytesPerThread);
  if (workers === 0) return { workers: 0, callingThreadCounts: true, countingThreads: 1 };
  return { workers, callingThreadCounts: beside, countingThreads: beside ? workers + 1 : workers };
}

/**
 * Workers worth starting before a count of n is planned (they take tens of
 * milliseconds to start, while this thread plans): never more than the
 * runner will use. 0 where the cores are not known yet.
 */
export function workersToPrestart(n: number, threads: number | undefined, cores: number | undefined): number {
  if (n < AUTO_THREADS_MIN_N || cores === undefined) return 0;
  // Counts up to BESIDE_MAX_N are of methods that help: threadPlan asks the same.
  return Math.min(workersWanted(n, threads, cores, true), workerCap(cores));
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

/** The workers a count asks for: `threads`, else one a core from AUTO_THREADS_MIN_N (less this thread's, besideOneWorker), else none. */
function workersWanted(n: number, threads: number | undefined, cores: number, helps: boolean, node = isNode): number {
  if (threads !== undefined) return threads;
  if (n < AUTO_THREADS_MIN_N) return 0;
  return helps && besideOneWorker(n, threads, cores, node) ? cores - 1 : cores;
}

/**
 * Workers for a count that asks for `wanted`, at every n: never more than
 * the units left to count, than workerCap(cores) (a worker beyond the cores
 * only adds its start-up and memory: `count(15, { threads: 256 })` took 39 s
 * and 2.4 GB on 2 cores, where 2 workers take 0.9 s), or than fit in memory
 * with tables of `bytesPerThread` each (at least one).
 */
function workersFor(wanted: number, units: number, cores: number, bytesPerThread: number): number {
  const byMemory = bytesPerThread > 0 ? Math.max(1, Math.floor(tableMemoryBudget() / bytesPerThread)) : Infinity;
  return Math.min(wanted, units, workerCap(cores), byMemory);
}

/** The most workers a count starts on `cores` cores: one a core, or SMALL_COUNT_WORKERS where there are fewer. */
function workerCap(cores: number): number {
  return Math.max(SMALL_COUNT_WORKERS, cores);
}
