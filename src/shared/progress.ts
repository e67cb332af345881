// The progress reports of a count, apart from the runner so that the public
// types (index.d.ts) reach no WebAssembly type; and the one reporter that
// turns what an engine counted into them.
import { now } from './slices.js';

export interface Progress {
  readonly n: number;
  /**
   * 'tables' while a method with tables (the join) builds them and no unit
   * has finished (a report comes at the start, whatever the tables cost);
   * 'counting' from then on.
   */
  readonly phase: 'tables' | 'counting';
  /** Units finished so far, and how many there are. */
  readonly finished: number;
  readonly units: number;
  /** @deprecated The old name of `units`, kept for compatibility. */
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
  /**
   * Unique solutions counted so far, exact once finished. The search adds
   * them unit by unit; the join derives them from the whole total, so they
   * stay 0 until its last report.
   */
  readonly unique: bigint;
  readonly elapsedMs: number;
}

/** Where a count stands, as an engine sees it; the reporter adds n, the unit count, the time and the aliases. */
interface ProgressState {
  readonly finished: number;
  /** The share of the work done, 0 to 1 (the reporter makes it exactly 1 once every unit is finished). */
  readonly fraction: number;
  readonly total: bigint;
  readonly unique: bigint;
  readonly phase?: Progress['phase'];
  readonly resumedFraction?: number;
}

/** The least time between two progress reports unless a count says otherwise (the last always comes). */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * The one progress reporter every engine feeds: at most one report every
 * `intervalMs` (forced ones always), each a full Progress with the time
 * since the reporter was made.
 */
export class ProgressReporter {
  readonly #start = now();
  #lastReport = -Infinity;

  constructor(
    readonly n: number,
    readonly units: number,
    readonly onProgress: ((progress: Progress) => void) | undefined,
    readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  /** Whether a report now would go out (forced, or the interval has passed): lets a caller skip building its state. */
  due(force: boolean): boolean {
    return this.onProgress !== undefined && (force || now() - this.#lastReport >= this.intervalMs);
  }

  /** Reports `state` now if forced or if the interval has passed. */
  report(state: ProgressState, force: boolean): void {
    if (!this.due(force)) return;
    const t = now();
    this.#lastReport = t;
    const { units } = this;
    this.onProgress!({
      n: this.n,
      phase: state.phase ?? 'counting',
      finished: state.finished,
      units,
      subproblems: units,
      fraction: state.finished === units ? 1 : Math.min(1, state.fraction),
      resumedFraction: state.resumedFraction ?? 0,
      total: state.total,
      unique: state.unique,
      elapsedMs: t - this.#start,
    });
  }
}
