// The progress reports of a count, apart from the runner so that the public
// types (index.d.ts) reach no WebAssembly type.

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
   * them unit by unit; the join and the WebGPU engine derive them from the
   * whole total, so they stay 0 until their last report.
   */
  readonly unique: bigint;
  readonly elapsedMs: number;
}
