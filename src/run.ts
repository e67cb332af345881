// Runs a list of subproblems, on this thread or on workers, and reports
// progress. count(), shards and checkpoints are all built on this.
import { abortError, type AbortSignalLike } from './abort.js';
import { contribution, expectedWork, type Subproblem, type SubproblemCount } from './constellations.js';
import { resolveKernel, resolveModule } from './engines.js';
import { availableCores } from './parallel/environment.js';
import { runOnWorkers } from './parallel/pool.js';

export interface Progress {
  readonly n: number;
  /** Subproblems finished so far, and how many there are. */
  readonly finished: number;
  readonly subproblems: number;
  /**
   * The share of the work done, from 0 to 1: finished subproblems weighted
   * by their expected cost (the largest run first, so this runs ahead of
   * finished / subproblems early on). Exactly 1 at the end.
   */
  readonly fraction: number;
  /** Solutions counted so far. */
  readonly total: bigint;
  /** Unique solutions counted so far. */
  readonly unique: bigint;
  readonly elapsedMs: number;
}

export interface PlanRun {
  n: number;
  subproblems: readonly Subproblem[];
  engine: 'auto' | 'wasm' | 'js';
  /**
   * Worker threads; 0 counts on the calling thread, yielding to the event loop
   * between slices. Default: a worker per core from AUTO_THREADS_MIN_N, else 0.
   */
  threads?: number;
  signal?: AbortSignalLike | undefined;
  onProgress?: (progress: Progress) => void;
  /** Called as each subproblem finishes (checkpoints record them). */
  onSubproblem?: (s: Subproblem, count: SubproblemCount) => void;
  /** Counts already done elsewhere (a resumed checkpoint), included in progress and result. */
  already?: { finished: number; total: bigint; unique: bigint; work?: number };
  /** Least time between two progress reports; the last report always comes. Default 100 ms. */
  progressIntervalMs?: number;
}

export interface PlanResult {
  total: bigint;
  unique: bigint;
  engine: 'wasm' | 'js';
  threads: number;
}

/**
 * From this n on, counts use a worker per core unless told otherwise; below
 * it, starting workers costs more than it saves (see README, "Threads").
 */
export const AUTO_THREADS_MIN_N = 15;

const SLICE_MS = 20;

function now(): number {
  return performance.now();
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function runPlan(run: PlanRun): Promise<PlanResult> {
  const { n, subproblems, signal } = run;
  if (signal?.aborted) throw abortError(signal);
  const module = resolveModule(run.engine); // throws now if 'wasm' is unavailable
  const engine = module ? 'wasm' : 'js';
  const start = now();
  const already = run.already ?? { finished: 0, total: 0n, unique: 0n };
  const all = already.finished + subproblems.length;
  let finished = already.finished;
  let total = already.total;
  let unique = already.unique;
  let workDone = already.work ?? already.finished;
  const workAll = subproblems.reduce((sum, s) => sum + expectedWork(n, s), workDone);
  const interval = run.progressIntervalMs ?? 100;
  let lastReport = -Infinity;

  const report = (force: boolean): void => {
    if (!run.onProgress) return;
    const t = now();
    if (!force && t - lastReport < interval) return;
    lastReport = t;
    run.onProgress({ n, finished, subproblems: all, fraction: finished === all ? 1 : workDone / workAll, total, unique, elapsedMs: t - start });
  };
  const record = (s: Subproblem, count: SubproblemCount): void => {
    const c = contribution(s, count);
    total += c.total;
    unique += c.unique;
    finished++;
    workDone += expectedWork(n, s);
    run.onSubproblem?.(s, count);
    report(finished === all);
  };

  report(true);
  const wanted = run.threads ?? (n >= AUTO_THREADS_MIN_N ? await availableCores() : 0);
  let threads = Math.min(wanted, subproblems.length);
  if (threads === 0) {
    threads = 1;
    const kernel = resolveKernel(run.engine);
    let sliceStart = now();
    for (const s of subproblems) {
      if (signal?.aborted) throw abortError(signal);
      record(s, kernel.countSubproblem(n, s));
      if (now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = now();
      }
    }
    if (signal?.aborted) throw abortError(signal);
  } else {
    // The workers instantiate the kernel; this thread only hands out work.
    await runOnWorkers({ n, subproblems, threads, module, signal, onResult: record });
  }
  return { total, unique, engine, threads };
}
