// Runs a list of subproblems, on this thread or on workers, and reports
// progress. count(), shards and checkpoints are all built on this.
import { abortError, type AbortSignalLike } from './abort.js';
import { contribution, expectedWork, type Subproblem, type SubproblemCount } from './constellations.js';
import { resolveKernel, resolveModule } from './engines.js';
import { countSymmetricSolutions, joinCounter, resolveJoinModule, uniqueFromTotal } from './join.js';
import type { JoinUnit } from './kernels/join-plan.js';
import { availableCores } from './parallel/environment.js';
import type { AlgorithmName as Method } from './algorithm.js';
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


/**
 * A run of one method's units: the symmetry search's subproblems (the
 * default), or the half-board join's row splits (`method: 'join'`).
 */
export type PlanRun = SearchRun | JoinRun;

export interface SearchRun extends RunOptions {
  method?: 'search';
  subproblems: readonly Subproblem[];
  /** Called as each subproblem finishes (checkpoints record them). */
  onSubproblem?: (s: Subproblem, count: SubproblemCount) => void;
}

export interface JoinRun extends RunOptions {
  method: 'join';
  /** The join's units; the unique count comes at the end, by Burnside's lemma. */
  subproblems: readonly JoinUnit[];
  onSubproblem?: undefined;
}

interface RunOptions {
  n: number;
  engine: 'auto' | 'wasm' | 'js';
  /**
   * Worker threads; 0 counts on the calling thread, yielding to the event loop
   * between slices. Default: a worker per core from AUTO_THREADS_MIN_N, else 0.
   */
  threads?: number;
  signal?: AbortSignalLike | undefined;
  onProgress?: (progress: Progress) => void;
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
  method: Method;
}

/** How a run treats its units: what each is worth, what it adds, how to count one here. */
interface UnitRules<U extends { id: number }> {
  work(u: U): number;
  add(u: U, count: SubproblemCount): { total: bigint; unique: bigint };
  counterHere(): (u: U) => SubproblemCount;
}

function searchRules(run: SearchRun): UnitRules<Subproblem> {
  return {
    work: (s) => expectedWork(run.n, s),
    add: (s, count) => contribution(s, count),
    counterHere() {
      const kernel = resolveKernel(run.engine);
      return (s) => kernel.countSubproblem(run.n, s);
    },
  };
}

function joinRules(run: JoinRun, module: WebAssembly.Module | null): UnitRules<JoinUnit> {
  return {
    work: () => 1,
    add: (u, count) => ({ total: count.solutions * BigInt(u.weight), unique: 0n }),
    counterHere() {
      const counter = joinCounter(module ? 'wasm' : 'js', module ?? undefined);
      return (u) => ({ solutions: counter.countUnit(run.n, u), fixes: 0n });
    },
  };
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
  if (run.signal?.aborted) throw abortError(run.signal);
  if (run.method === 'join') {
    const module = resolveJoinModule(run.engine); // throws now if 'wasm' is unavailable
    const r = await runUnits(run, joinRules(run, module), module, 'join');
    // Burnside: the join counts all solutions; uniques need the symmetric ones too.
    return { ...r, unique: run.n === 1 ? 1n : uniqueFromTotal(run.n, r.total, countSymmetricSolutions(run.n)) };
  }
  const module = resolveModule(run.engine); // throws now if 'wasm' is unavailable
  return runUnits(run, searchRules(run), module, 'search');
}

async function runUnits<U extends { id: number }>(
  run: RunOptions & { subproblems: readonly U[]; onSubproblem?: (u: U, count: SubproblemCount) => void },
  rules: UnitRules<U>,
  module: WebAssembly.Module | null,
  method: Method,
): Promise<PlanResult> {
  const { n, subproblems, signal } = run;
  const engine = module ? 'wasm' : 'js';
  const start = now();
  const already = run.already ?? { finished: 0, total: 0n, unique: 0n };
  const all = already.finished + subproblems.length;
  let finished = already.finished;
  let total = already.total;
  let unique = already.unique;
  let workDone = already.work ?? already.finished;
  const workAll = subproblems.reduce((sum, s) => sum + rules.work(s), workDone);
  const interval = run.progressIntervalMs ?? 100;
  let lastReport = -Infinity;

  const report = (force: boolean): void => {
    if (!run.onProgress) return;
    const t = now();
    if (!force && t - lastReport < interval) return;
    lastReport = t;
    run.onProgress({ n, finished, subproblems: all, fraction: finished === all ? 1 : workDone / workAll, total, unique, elapsedMs: t - start });
  };
  const record = (s: U, count: SubproblemCount): void => {
    const c = rules.add(s, count);
    total += c.total;
    unique += c.unique;
    finished++;
    workDone += rules.work(s);
    run.onSubproblem?.(s, count);
    report(finished === all);
  };

  report(true);
  const wanted = run.threads ?? (n >= AUTO_THREADS_MIN_N ? await availableCores() : 0);
  let threads = Math.min(wanted, subproblems.length);
  if (threads === 0) {
    threads = 1;
    const countHere = rules.counterHere();
    let sliceStart = now();
    for (const s of subproblems) {
      if (signal?.aborted) throw abortError(signal);
      record(s, countHere(s));
      if (now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = now();
      }
    }
    if (signal?.aborted) throw abortError(signal);
  } else {
    // The workers instantiate the kernel; this thread only hands out work.
    const units = subproblems as unknown as readonly (Subproblem | JoinUnit)[];
    await runOnWorkers({ n, task: method, subproblems: units, threads, module, signal, onResult: record as (u: unknown, c: SubproblemCount) => void });
  }
  return { total, unique, engine, threads, method };
}
