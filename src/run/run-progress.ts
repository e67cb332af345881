// A run's bookkeeping: what its finished units add up to, the work done
// inside units being counted, and progress reports at most every interval
// (the last always). The runner (./runner.ts) feeds it units and pieces.
import type { Method } from '../contract/method.js';
import type { Progress } from '../shared/progress.js';
import { now } from '../shared/slices.js';

/** Counts done elsewhere (a resumed checkpoint), included in progress and result. */
export interface Already {
  finished: number;
  total: bigint;
  /** 8 x the unique count (see Method.contribution). */
  unique8: bigint;
  /** Estimated work of the finished units. */
  work: number;
}

export const NOTHING_DONE: Already = Object.freeze({ finished: 0, total: 0n, unique8: 0n, work: 0 });

interface RunProgressOptions {
  from: number;
  to: number;
  already: Already;
  onProgress?: ((progress: Progress) => void) | undefined;
  onUnit?: ((id: number, count: bigint) => void) | undefined;
  /** Least time between two reports (the last always comes). */
  intervalMs: number;
}

export class RunProgress {
  readonly #plan: Method<{ readonly id: number }>;
  readonly #options: RunProgressOptions;
  readonly #start = now();
  /** Units in the run (from..to-1), finished ones included. */
  readonly all: number;
  finished: number;
  total: bigint;
  unique8: bigint;
  /** Solutions of the units counted by this run (not resumed). */
  countedTotal = 0n;
  #workDone: number;
  readonly #workAll: number;
  readonly #resumedFraction: number;
  /** Covering the whole plan (with what was resumed), the unique count follows from the parts. */
  readonly #whole: boolean;
  /** Units being counted: the estimated work done inside each. */
  readonly #partial = new Map<number, number>();
  #partialWork = 0;
  #lastReport = -Infinity;

  constructor(plan: Method<{ readonly id: number }>, options: RunProgressOptions) {
    const { from, to, already } = options;
    this.#plan = plan;
    this.#options = options;
    this.all = to - from;
    this.finished = already.finished;
    this.total = already.total;
    this.unique8 = already.unique8;
    this.#workDone = already.work;
    this.#workAll = plan.workIn(from, to);
    this.#resumedFraction = this.#workAll > 0 ? Math.min(1, already.work / this.#workAll) : 0;
    this.#whole = from === 0 && to === plan.units;
  }

  /** Exact once the whole plan is in; else the partial unique8 / 8. */
  unique(): bigint {
    return this.#whole && this.finished === this.all ? this.#plan.uniqueOf(this.total, this.unique8) : this.unique8 / 8n;
  }

  /**
   * Reports now if forced or if the interval has passed. `ended`: the run's
   * last report where it counted no unit (a plan with none, n = 2 and 3, or
   * a checkpoint already complete), whose first report was its start (at 0).
   */
  report(force: boolean, ended = false): void {
    const { onProgress, intervalMs, already } = this.#options;
    if (!onProgress) return;
    const t = now();
    if (!force && t - this.#lastReport < intervalMs) return;
    const done = (this.finished === this.all && this.all > 0) || ended;
    const fraction = done ? 1 : this.#workAll > 0 ? Math.min(1, (this.#workDone + this.#partialWork) / this.#workAll) : 0;
    const tables = this.#plan.bytesPerThread > 0 && this.finished === already.finished && this.#partialWork === 0;
    onProgress({
      n: this.#plan.n,
      phase: tables ? 'tables' : 'counting',
      finished: this.finished,
      units: this.all,
      subproblems: this.all,
      fraction,
      resumedFraction: this.#resumedFraction,
      total: this.total,
      unique: this.unique(),
      elapsedMs: t - this.#start,
    });
    // The interval runs from the callback's end: one slower than it would otherwise be called on every
    // result, and the count would crawl (a 101 ms onProgress took count(15) from 0.3 s to minutes).
    this.#lastReport = now();
  }

  /** The share of this run's own work (not what was resumed) in its finished units, by their estimated work. */
  shareCounted(): number {
    const resumed = this.#options.already.work;
    const mine = this.#workAll - resumed;
    return mine > 0 ? (this.#workDone - resumed) / mine : 1;
  }

  /** Unit `id` is being counted, the fraction `done` of it counted. */
  partial(id: number, done: number): void {
    const work = this.#plan.workOf(id) * done;
    this.#partialWork += work - (this.#partial.get(id) ?? 0);
    this.#partial.set(id, work);
    this.report(false);
  }

  /** Unit `id` is finished with `count`. */
  record(id: number, count: bigint): void {
    const c = this.#plan.contribution(id, count);
    this.total += c.total;
    this.countedTotal += c.total;
    this.unique8 += c.unique8;
    this.finished++;
    this.#workDone += this.#plan.workOf(id);
    this.#partialWork -= this.#partial.get(id) ?? 0;
    this.#partial.delete(id);
    this.#options.onUnit?.(id, count);
    this.report(this.finished === this.all);
  }
}
