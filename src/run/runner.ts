// Runs the units of a plan, on this thread or on workers, and reports
// progress. count(), shards and checkpoints are all built on this.
import { abortError, type AbortSignalLike } from '../shared/abort.js';
import type { CompletionUnit } from '../completions/completion-types.js';
import { resolveKernel, resolveModule, resolveSearch, resolveSearchModule } from '../engines/engines.js';
import { countSymmetricSolutions, joinCounter, resolveJoinModule, uniqueFromTotal } from '../join/join-module.js';
import type { JoinUnit } from '../join/join-plan.js';
import { isCanonical, ReferenceSearch } from '../engines/reference.js';
import { availableCores } from './environment.js';
import type { Task, TaskUnit } from './messages.js';
import { runOnWorkers } from './pool.js';
import { countUnit, onePiece, unitContribution, type ConstellationPlan, type Unit } from '../search/search-plan.js';

export interface Progress {
  readonly n: number;
  /** Units finished so far, and how many there are (the name predates refined plans). */
  readonly finished: number;
  readonly subproblems: number;
  /**
   * The share of the work done, from 0 to 1: finished units weighted by
   * their expected cost, plus the done part of the units being counted.
   * Exactly 1 at the end.
   */
  readonly fraction: number;
  /**
   * The share that was already done when this run started (a resumed
   * checkpoint), so a rate or ETA uses only `fraction - resumedFraction`.
   */
  readonly resumedFraction: number;
  /** Solutions counted so far (including resumed work). */
  readonly total: bigint;
  /** Unique solutions counted so far (exact once finished). */
  readonly unique: bigint;
  readonly elapsedMs: number;
}

export interface PlanRun extends RunOptions {
  plan: ConstellationPlan;
  /** Called as each unit finishes (checkpoints record them). */
  onUnit?: (unit: Unit, count: bigint) => void;
}

/** The half-board join's units (src/join/join-module.ts), on the same machinery. */
export interface JoinRun extends RunOptions {
  n: number;
  units: readonly JoinUnit[];
  /** Called as each unit finishes (checkpoints record them). */
  onUnit?: (unit: JoinUnit, count: bigint) => void;
}

export interface RunOptions {
  /** The units from..to-1 (default: all), less those `skip` says are done. */
  from?: number;
  to?: number;
  skip?: (id: number) => boolean;
  engine: 'auto' | 'wasm' | 'js';
  /**
   * Worker threads; 0 counts on the calling thread, yielding to the event loop
   * between slices. Default: a worker per core from AUTO_THREADS_MIN_N, else 0.
   */
  threads?: number | undefined;
  signal?: AbortSignalLike | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Counts already done elsewhere (a resumed checkpoint), included in progress and result. */
  already?: Already;
  /** Least time between two progress reports; the last report always comes. Default 100 ms. */
  progressIntervalMs?: number;
}

export interface Already {
  finished: number;
  total: bigint;
  /** 8 x the unique count (see unitContribution). */
  unique8: bigint;
  /** Estimated work of the finished units. */
  work: number;
}

export interface PlanResult {
  total: bigint;
  /** Exact when every unit of each symmetric constellation ran in this result. */
  unique: bigint;
  unique8: bigint;
  engine: 'wasm' | 'js';
  threads: number;
  /** The method that ran. */
  method: 'search' | 'join';
  /** Units counted by this run (not resumed), and the solutions they found. */
  counted: number;
  countedTotal: bigint;
}

/**
 * From this n on, counts use a worker per core unless told otherwise; below
 * it, starting workers costs more than it saves (see README, "Threads").
 */
export const AUTO_THREADS_MIN_N = 15;

const SLICE_MS = 20;
/**
 * While workers start, the calling thread counts in slices this short, so
 * it sees a worker's 'online' and 'ready' messages at once (each slice ends
 * with a yield that lets them in, without setTimeout's delay).
 */
const HELP_SLICE_MS = 2;

function now(): number {
  return performance.now();
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Yields to the event loop without a timer's delay (setTimeout waits 1 ms in
 * Node and 4 ms in nested browser timers): setImmediate where there is one,
 * else a message to itself.
 */
function yieldNow(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return new Promise((resolve) => immediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** What the runner needs of a method's units. */
interface Runnable<T extends Task> {
  readonly task: T;
  readonly n: number;
  readonly units: number;
  unitsIn(from: number, to: number): Iterable<TaskUnit<T>>;
  workIn(from: number, to: number): number;
  workOf(unit: TaskUnit<T>): number;
  /** What a unit adds: total, and 8 x unique (see unitContribution). */
  add(unit: TaskUnit<T>, count: bigint): { total: bigint; unique8: bigint };
  /** The compiled kernel for workers, or null for TypeScript; throws now if 'wasm' is unavailable. */
  module(): WebAssembly.Module | null;
  /** Counts a unit on this thread, in pieces. */
  counterHere(): (unit: TaskUnit<T>) => Generator<number, bigint, undefined>;
  /**
   * Whether this thread counts units while workers start: not where its first
   * unit would cost more than a worker's start-up (the join's tables from
   * n = 18: 50 ms and more, and memory a worker already has).
   */
  readonly helps: boolean;
  /** A unit each worker counts once before it starts (the join: builds its tables), or undefined. */
  warm(): TaskUnit<T> | undefined;
}

function searchRunnable(run: PlanRun): Runnable<'search'> {
  const { plan } = run;
  return {
    task: 'search',
    n: plan.n,
    units: plan.units,
    unitsIn: (from, to) => plan.unitsIn(from, to),
    workIn: (from, to) => plan.workIn(from, to),
    workOf: (unit) => unit.work,
    add: unitContribution,
    module: () => resolveModule(run.engine),
    counterHere() {
      const kernel = resolveKernel(run.engine);
      return (unit) => countUnit(kernel, plan.n, unit);
    },
    helps: true,
    warm: () => undefined,
  };
}

/** A Runnable's view of a plain list of units of about equal work. */
function equalUnits<U>(
  units: readonly U[],
): Pick<Runnable<Task>, 'units' | 'workIn'> & { unitsIn(from: number, to: number): U[]; workOf(): number } {
  return { units: units.length, unitsIn: (from, to) => units.slice(from, to), workIn: (from, to) => to - from, workOf: () => 1 };
}

function joinRunnable(run: JoinRun): Runnable<'join'> {
  const { n, units } = run;
  let module: WebAssembly.Module | null | undefined;
  const resolved = (): WebAssembly.Module | null => (module === undefined ? (module = resolveJoinModule(run.engine)) : module);
  return {
    task: 'join',
    n,
    ...equalUnits(units),
    // Weighted solutions; the unique count comes at the end, by Burnside's lemma.
    add: (unit, count) => ({ total: count * BigInt(unit.weight), unique8: 0n }),
    module: resolved,
    counterHere() {
      const module = resolved();
      const counter = joinCounter(module ? 'wasm' : 'js', module ?? undefined);
      return (unit) => onePiece(counter.countUnit(n, unit));
    },
    helps: n <= JOIN_HELP_MAX_N,
    // The last unit is among the smallest (the plan is largest first).
    warm: () => units[units.length - 1],
  };
}

/**
 * Largest n at which the calling thread counts join units while workers
 * start: its tables take 5 ms to build at n = 16 and 15 ms at 17, against
 * 30 ms for a worker to start; 50 ms at 18 and 350 ms at 20 (2-core AMD
 * EPYC VM, Node 20).
 */
const JOIN_HELP_MAX_N = 17;

/** Completion units (src/completions/completions.ts): each counts its own solutions, in one piece. */
function completionsRunnable(n: number, units: readonly CompletionUnit[], run: RunOptions): Runnable<'completions'> {
  return {
    task: 'completions',
    n,
    ...equalUnits(units),
    add: (_unit, count) => ({ total: count, unique8: 0n }),
    module: () => resolveSearchModule(run.engine),
    counterHere() {
      const kernel = resolveSearch(run.engine);
      return (u) => onePiece(kernel.countOpenRows(u.rows, u.allow));
    },
    // A unit is counted in one piece and may take minutes (n = 24 with one queen): on this thread it would hold off abort.
    helps: false,
    warm: () => undefined,
  };
}

export async function runPlan(run: PlanRun): Promise<PlanResult> {
  return runUnits(searchRunnable(run), run, run.onUnit);
}

/** Completion units of countCompletions(): the total is their sum (no unique count). */
export async function runCompletionUnits(n: number, units: readonly CompletionUnit[], run: RunOptions): Promise<PlanResult> {
  return runUnits(completionsRunnable(n, units, run), run);
}

/** The join's units from..to-1 as they are: weighted solutions, no unique count (unique8 is 0; see runJoin). */
export async function runJoinUnits(run: JoinRun): Promise<PlanResult> {
  return runUnits(joinRunnable(run), run, run.onUnit);
}

/** The join's units; the result's unique count is exact when the run covered every unit. */
export async function runJoin(run: JoinRun): Promise<PlanResult> {
  const r = await runJoinUnits(run);
  const unique = run.n === 1 ? 1n : uniqueFromTotal(run.n, r.total, countSymmetricSolutions(run.n));
  return { ...r, unique, unique8: unique * 8n };
}

async function runUnits<T extends Task>(
  plan: Runnable<T>,
  run: RunOptions,
  onUnit?: (unit: TaskUnit<T>, count: bigint) => void,
): Promise<PlanResult> {
  const { signal } = run;
  const n = plan.n;
  if (signal?.aborted) throw abortError(signal);
  const module = plan.module(); // throws now if 'wasm' is unavailable
  const engine = module ? 'wasm' : 'js';
  const start = now();
  const from = run.from ?? 0;
  const to = run.to ?? plan.units;
  const already = run.already ?? { finished: 0, total: 0n, unique8: 0n, work: 0 };
  const all = to - from;
  const left = all - already.finished;
  let finished = already.finished;
  let total = already.total;
  let unique8 = already.unique8;
  let workDone = already.work;
  let countedTotal = 0n;
  const workAll = plan.workIn(from, to);
  const resumedFraction = workAll > 0 ? Math.min(1, already.work / workAll) : 0;
  /** Units being counted: the estimated work done inside each. */
  const partial = new Map<number, number>();
  let partialWork = 0;
  const interval = run.progressIntervalMs ?? 100;
  let lastReport = -Infinity;

  const report = (force: boolean): void => {
    if (!run.onProgress) return;
    const t = now();
    if (!force && t - lastReport < interval) return;
    lastReport = t;
    const fraction = finished === all ? 1 : workAll > 0 ? Math.min(1, (workDone + partialWork) / workAll) : 0;
    run.onProgress({ n, finished, subproblems: all, fraction, resumedFraction, total, unique: unique8 / 8n, elapsedMs: t - start });
  };
  const onPartial = (unit: TaskUnit<T>, share: number): void => {
    const work = plan.workOf(unit) * share;
    partialWork += work - (partial.get(unit.id) ?? 0);
    partial.set(unit.id, work);
    report(false);
  };
  const record = (unit: TaskUnit<T>, count: bigint): void => {
    const c = plan.add(unit, count);
    total += c.total;
    countedTotal += c.total;
    unique8 += c.unique8;
    finished++;
    workDone += plan.workOf(unit);
    partialWork -= partial.get(unit.id) ?? 0;
    partial.delete(unit.id);
    onUnit?.(unit, count);
    report(finished === all);
  };

  /**
   * Counts the units `next` gives on this thread, in slices of `sliceMs`
   * that end with `pause`; stops when `next` gives none.
   */
  const countHere = async (next: () => TaskUnit<T> | undefined, sliceMs: number, pause: () => Promise<void>): Promise<void> => {
    let counter: ((unit: TaskUnit<T>) => Generator<number, bigint, undefined>) | undefined;
    let sliceStart = now();
    for (let unit = next(); unit !== undefined; unit = next()) {
      counter ??= plan.counterHere();
      const steps = counter(unit);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          // Checked before each unit is recorded, so an abort (even from a
          // progress callback) stops the count at the next unit boundary.
          if (signal?.aborted) throw abortError(signal);
          record(unit, step.value);
          break;
        }
        if (now() - sliceStart > sliceMs) {
          onPartial(unit, step.value);
          await pause();
          if (signal?.aborted) throw abortError(signal);
          sliceStart = now();
        }
      }
    }
  };

  report(true);
  const wanted = run.threads ?? (n >= AUTO_THREADS_MIN_N ? await availableCores() : 0);
  let threads = Math.min(wanted, left);
  if (threads === 0) {
    threads = 1;
    const units = pending(plan, run);
    await countHere(() => units.next().value ?? undefined, SLICE_MS, yieldToEventLoop);
    if (signal?.aborted) throw abortError(signal);
  } else {
    // The workers instantiate the kernel; this thread hands out work, and
    // counts the first units itself while they start (where that pays).
    await runOnWorkers<T>({
      n,
      task: plan.task,
      units: pending(plan, run),
      count: left,
      threads,
      module,
      signal,
      onResult: record,
      onPartial,
      helper: plan.helps ? (take) => countHere(take, HELP_SLICE_MS, yieldNow) : undefined,
      warm: plan.warm(),
    });
  }
  const method = plan.task === 'join' ? 'join' : 'search';
  return { total, unique: unique8 / 8n, unique8, engine, threads, method, counted: finished - already.finished, countedTotal };
}

/** The units still to run: from..to-1 without the skipped ones, lazily. */
function* pending<T extends Task>(plan: Runnable<T>, run: RunOptions): Generator<TaskUnit<T>, void, undefined> {
  for (const unit of plan.unitsIn(run.from ?? 0, run.to ?? plan.units)) if (!run.skip?.(unit.id)) yield unit;
}

/**
 * The reference engine with `signal` and `onProgress`: it has no
 * subproblems, so it counts one row-0 column after another, yielding to the
 * event loop every SLICE_MS inside a column; progress is columns done.
 */
export async function runReference(
  n: number,
  options: { signal?: AbortSignalLike | undefined; onProgress?: ((p: Progress) => void) | undefined; progressIntervalMs?: number },
): Promise<{ total: bigint; unique: bigint }> {
  const { signal, onProgress } = options;
  const interval = options.progressIntervalMs ?? 100;
  const start = now();
  let total = 0;
  let unique = 0;
  let lastReport = -Infinity;
  const report = (finished: number, within: number, force: boolean): void => {
    const t = now();
    if (!onProgress || (!force && t - lastReport < interval)) return;
    lastReport = t;
    const fraction = finished === n ? 1 : Math.min(1, (finished + within) / n);
    onProgress({
      n,
      finished,
      subproblems: n,
      fraction,
      resumedFraction: 0,
      total: BigInt(total),
      unique: BigInt(unique),
      elapsedMs: t - start,
    });
  };
  const image = new Int32Array(n);
  let sliceStart = now();
  report(0, 0, true);
  for (let col = 0; col < n; col++) {
    const search = new ReferenceSearch(n, col);
    for (let found = 0; search.next(); found++) {
      total++;
      if (isCanonical(search.placement, image)) unique++;
      if ((found & 255) === 255 && now() - sliceStart > SLICE_MS) {
        // The share of this column done: how far its row-1 queen has moved.
        report(col, n > 1 ? search.placement[1] / n : 0, false);
        await yieldToEventLoop();
        if (signal?.aborted) throw abortError(signal);
        sliceStart = now();
      }
    }
    report(col + 1, 0, col + 1 === n);
    if (now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = now();
    }
    if (signal?.aborted) throw abortError(signal);
  }
  return { total: BigInt(total), unique: BigInt(unique) };
}
