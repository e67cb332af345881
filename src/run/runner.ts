// Runs the units of a plan, on this thread or on workers, and reports
// progress. count(), shards and checkpoints are all built on this.
import { ERROR_CODES, hasCode } from '../shared/errors.js';
import { abortError, untilAborted, type AbortSignalLike } from '../shared/abort.js';
import { now, SLICE_MS, yieldToEventLoop } from '../shared/slices.js';
import { availableCores } from '../contract/environment.js';
import { UnitBitmap } from '../shared/unit-bitmap.js';
import { ownKeysOnly } from '../shared/own-keys.js';

import { countUnits, taker, type CpuEngine, type Method, type MethodName } from '../contract/method.js';
import { idleWorkers, runOnWorkers } from './pool.js';
import {
  freeWorkers,
  lateWorkerBoundMs,
  lateWorkerProjection,
  releaseThreads,
  threadPlan,
  workerStartsLate,
  workersReleased,
} from './thread-plan.js';
import { NOTHING_DONE, RunProgress, type Already } from './run-progress.js';

export type { Already } from './run-progress.js';
import type { Progress } from '../shared/progress.js';

export type { Progress } from '../shared/progress.js';

interface RunOptions {
  /** The units from..to-1 (default: all), less those `skip` says are done. */
  from?: number;
  to?: number;
  skip?: ((id: number) => boolean) | undefined;
  engine: CpuEngine;
  /**
   * Worker threads; 0 counts on the calling thread, yielding to the event loop
   * between slices. Default: a worker per core from AUTO_THREADS_MIN_N, else 0.
   */
  threads?: number | undefined;
  signal?: AbortSignalLike | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Counts already done elsewhere (a resumed checkpoint), included in progress and result. */
  already?: Already | undefined;
  /** Least time between two progress reports; the last report always comes. Default 100 ms. */
  progressIntervalMs?: number;
  /** Called as each unit finishes (checkpoints record them). */
  onUnit?: ((id: number, count: bigint) => void) | undefined;
}

interface PlanResult {
  total: bigint;
  /** Exact when the run covered the whole plan (with what `already` holds); else the search's partial unique8 / 8. */
  unique: bigint;
  unique8: bigint;
  engine: 'wasm' | 'js';
  threads: number;
  /** The method that ran. */
  method: MethodName;
  /** Units counted by this run (not resumed), and the solutions they found. */
  counted: number;
  countedTotal: bigint;
}

/**
 * While workers start, the calling thread counts in slices this short, so
 * it sees a worker's 'online' and 'ready' messages at once (each slice ends
 * with a yield that lets them in).
 */
const HELP_SLICE_MS = 2;

/**
 * Counts a method's units from..to-1 (less the skipped), on this thread or
 * on workers, with progress and abort: count(), shards and checkpoints all
 * come here.
 */
export async function runMethod<U extends { readonly id: number }>(plan: Method<U>, given: RunOptions): Promise<PlanResult> {
  // Its own keys alone: with `Object.prototype.to = 0` set by other code, count(12) counted 0 solutions.
  const run = ownKeysOnly(given);
  if (run.signal?.aborted) throw abortError(run.signal);
  const module = plan.module(run.engine); // throws now if 'wasm' is unavailable
  if (!module || run.engine !== 'auto') return runUnits(plan, run, module);
  // 'auto' on wasm: where an instance cannot have its memory (on a worker, or
  // after the first), the rest runs in TypeScript, keeping what wasm finished:
  // a bit a unit and their sums, never an entry a unit (millions at depth 4).
  const done = new UnitBitmap(run.from ?? 0, run.to ?? plan.units);
  const already: Already = { ...(run.already ?? NOTHING_DONE) };
  const before = already.total;
  const onUnit = (id: number, count: bigint): void => {
    done.add(id);
    const c = plan.contribution(id, count);
    already.total += c.total;
    already.unique8 += c.unique8;
    already.finished++;
    already.work += plan.workOf(id);
    run.onUnit?.(id, count);
  };
  try {
    return await runUnits(plan, { ...run, onUnit }, module);
  } catch (error) {
    if (!hasCode(error, ERROR_CODES.OUT_OF_MEMORY)) throw error;
  }
  const counted = already.finished - (run.already ?? NOTHING_DONE).finished;
  const r = await runUnits(plan, { ...run, already, skip: (id) => done.has(id) || !!run.skip?.(id) }, null);
  return { ...r, counted: r.counted + counted, countedTotal: r.countedTotal + already.total - before };
}

/** runMethod's count on `module` (null: TypeScript). */
async function runUnits<U extends { readonly id: number }>(
  plan: Method<U>,
  given: RunOptions,
  module: WebAssembly.Module | null,
): Promise<PlanResult> {
  // Again its own keys alone: runMethod's spreads ({ ...run, onUnit }) give objects with a prototype.
  const run = ownKeysOnly(given);
  const already = run.already ?? NOTHING_DONE;
  const from = run.from ?? 0;
  const to = run.to ?? plan.units;
  const left = to - from - already.finished;
  const progress = new RunProgress(plan, {
    from,
    to,
    already,
    onProgress: run.onProgress,
    onUnit: run.onUnit,
    intervalMs: run.progressIntervalMs ?? 100,
  });

  progress.report(true);
  // Reports come with units and pieces of them; between (workers starting, tables being built) a beat keeps them coming.
  const beat = setInterval(() => progress.report(false), HEARTBEAT_MS);
  try {
    const result = await runReporting(plan, run, module, progress, left);
    if (left === 0) progress.report(true, true);
    return result;
  } finally {
    clearInterval(beat);
  }
}

/** Least often a count reports while it runs, whatever its units do. */
export const HEARTBEAT_MS = 500;

/** runUnits' count once its progress is set up: on this thread or on workers. */
async function runReporting<U extends { readonly id: number }>(
  plan: Method<U>,
  run: RunOptions,
  module: WebAssembly.Module | null,
  progress: RunProgress,
  left: number,
): Promise<PlanResult> {
  const { signal } = run;
  const n = plan.n;
  const engine = module ? 'wasm' : 'js';
  const already = run.already ?? NOTHING_DONE;
  const here: Here<U> = (next, sliceMs, pause, stopped) => countHere(plan, module, signal, progress, next, { sliceMs, pause, stopped });
  const cores = await availableCores();
  const needs = (units: number) => ({ units, helps: plan.helps, bytesPerThread: plan.bytesPerThread });
  let threads = threadPlan(n, run.threads, cores, needs(left));
  let forWorkers = left;
  /** Workers set to work (the pool's count): none where the count ended on this thread, or the environment refused them. */
  let ran = 0;
  try {
    const units = pending(plan, run);
    while (threads.starved) {
      // Every worker is another count's: count here in turns until some are free, or wait where the method does not help.
      if (!plan.helps) {
        await untilWorkersFree(cores, signal);
      } else {
        forWorkers -= await countWhile(
          units,
          (next) => here(next, SLICE_MS, yieldToEventLoop),
          () => freeWorkers(cores) === 0,
        );
      }
      if (signal?.aborted) throw abortError(signal);
      releaseThreads(threads);
      threads = threadPlan(n, run.threads, cores, needs(forWorkers));
    }
    if (workerStartsLate(threads, cores, plan.helps, idleWorkers())) {
      // No worker to hear from yet: slices as long as a count on this thread alone.
      forWorkers -= await countWhileShort(units, (next) => here(next, SLICE_MS, yieldToEventLoop), progress);
      if (signal?.aborted) throw abortError(signal);
    }
    if (threads.workers === 0) {
      await here(taker(units), SLICE_MS, yieldToEventLoop);
      if (signal?.aborted) throw abortError(signal);
    } else if (forWorkers > 0) {
      ran = await countOnWorkers(plan, module, signal, progress, { units, count: forWorkers, threads, here });
    }
  } finally {
    releaseThreads(threads);
  }
  const { total, unique8, finished, countedTotal } = progress;
  return {
    total,
    unique: progress.unique(),
    unique8,
    engine,
    // Less the workers never set to work: one that starts late (workerStartsLate) and was not needed, or that the environment refused.
    threads: Math.max(1, threads.countingThreads - threads.workers + ran),
    method: plan.name,
    counted: finished - already.finished,
    countedTotal,
  };
}

/**
 * A count's units on its workers, which instantiate the kernel: this thread
 * hands out work, and counts the first units itself while they start (where
 * that pays), or all of them where the environment refuses every worker. The
 * workers that ran.
 */
async function countOnWorkers<U extends { readonly id: number }>(
  plan: Method<U>,
  module: WebAssembly.Module | null,
  signal: AbortSignalLike | undefined,
  progress: RunProgress,
  job: { units: Iterator<U>; count: number; threads: { workers: number; callingThreadCounts: boolean }; here: Here<U> },
): Promise<number> {
  const { threads, here } = job;
  const sharedTables = await plan.share?.(module, threads.workers);
  if (signal?.aborted) throw abortError(signal);
  return runOnWorkers<U>({
    n: plan.n,
    method: plan.name,
    units: job.units,
    count: job.count,
    threads: threads.workers,
    module: sharedTables?.module ?? module,
    share: sharedTables,
    signal,
    codec: plan.codec,
    onResult: (id, count) => progress.record(id, count),
    onPartial: (id, done) => progress.partial(id, done),
    // Where the method does not help, the helper counts only if every worker is refused (a page's CSP): in full slices.
    helper: (take, stopped) => here(take, plan.helps ? HELP_SLICE_MS : SLICE_MS, yieldToEventLoop, stopped),
    helps: plan.helps,
    helperStays: threads.callingThreadCounts,
    warm: plan.warm(),
  });
}

/**
 * Resolves once another count has freed a worker, or rejects once `signal`
 * has aborted: a starved count of a method that does not help waits so (its
 * units in one piece, or its tables, counted here would hold off the event
 * loop and abort). Woken by each release, not by a clock.
 */
async function untilWorkersFree(cores: number, signal: AbortSignalLike | undefined): Promise<void> {
  while (freeWorkers(cores) === 0) await untilAborted(workersReleased(), signal);
}

/** Counts `units` on this thread with `here` while `waiting(taken)` (the units it took so far); returns the units it took. The rest stay in `units`. */
async function countWhile<U extends { readonly id: number }>(
  units: Iterator<U>,
  here: (next: () => U | undefined) => Promise<void>,
  waiting: (taken: number) => boolean,
): Promise<number> {
  let taken = 0;
  await here(() => {
    if (!waiting(taken)) return undefined;
    const unit = units.next();
    if (unit.done) return undefined;
    taken++;
    return unit.value;
  });
  return taken;
}

/**
 * A count whose worker starts late (workerStartsLate): counts `units` on
 * this thread with `here` while the count projects within
 * lateWorkerBoundMs() (lateWorkerProjection); returns the units it took,
 * all of them if it ended so. The rest stay in `units`.
 */
function countWhileShort<U extends { readonly id: number }>(
  units: Iterator<U>,
  here: (next: () => U | undefined) => Promise<void>,
  progress: RunProgress,
): Promise<number> {
  const start = now();
  const within = lateWorkerProjection(lateWorkerBoundMs());
  return countWhile(units, here, (taken) => taken === 0 || within(now() - start, progress.shareCounted()));
}

/**
 * Counts the units `next` gives on this thread, in slices of `sliceMs`,
 * each after a `pause` (a turn of the event loop); stops when `next` gives
 * none, or after a pause once `stopped()` (the workers' job it helps has
 * failed), leaving its unit.
 */
async function countHere<U extends { readonly id: number }>(
  plan: Method<U>,
  module: WebAssembly.Module | null,
  signal: AbortSignalLike | undefined,
  progress: RunProgress,
  next: () => U | undefined,
  slices: { sliceMs: number; pause: Pause; stopped?: (() => boolean) | undefined },
): Promise<void> {
  // The first slice waits its turn too: counts that start at once each counted one in the same turn.
  await slices.pause(signal);
  if (signal?.aborted) throw abortError(signal);
  let sliceStart = now();
  // Checked before each unit is recorded, so an abort (even from a progress callback) stops the count at the next unit boundary.
  const record = (unit: U, count: bigint): void => {
    if (signal?.aborted) throw abortError(signal);
    progress.record(unit.id, count);
  };
  for (const { unit, share: done } of countUnits(() => plan.counter(module), next, record)) {
    if (now() - sliceStart <= slices.sliceMs) continue;
    progress.partial(unit.id, done);
    await slices.pause(signal);
    if (signal?.aborted) throw abortError(signal);
    if (slices.stopped?.()) return;
    sliceStart = now();
  }
}

/** Counts the units `next` gives on this thread (countHere), in slices of `sliceMs`, each after a `pause`, until `stopped()`. */
type Here<U> = (next: () => U | undefined, sliceMs: number, pause: Pause, stopped?: () => boolean) => Promise<void>;

/** A turn of the event loop between two slices (yieldToEventLoop): it rejects with the abort's error once `signal` aborts. */
type Pause = (signal: AbortSignalLike | undefined) => Promise<void>;

/** The units still to run: from..to-1 without the skipped ones, lazily. */
function* pending<U extends { readonly id: number }>(plan: Method<U>, run: RunOptions): Generator<U, void, undefined> {
  for (const unit of plan.unitsIn(run.from ?? 0, run.to ?? plan.units)) if (!run.skip?.(unit.id)) yield unit;
}
