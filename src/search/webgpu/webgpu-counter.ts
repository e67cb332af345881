// Adds the GPU's sums per subproblem into bigints, and the finished
// subproblems' solutions into the total, in plan order. The unique count
// comes from the whole total by Burnside's lemma, as the join's does
// (src/shared/symmetric-solutions.ts), so the host searches nothing: the
// per-subproblem fixes it searched instead took 57 ms of a count's host
// share at n = 18 and 0.3 s at 20, on the thread that feeds the GPU.
import { ERROR_CODES, failure } from '../../shared/errors.js';
import type { Progress } from '../../shared/progress.js';
import { classesTimesEight, countSymmetricSolutions } from '../../shared/symmetric-solutions.js';
import type { PreparedSubproblems } from './webgpu-units.js';

/** A subproblem's expected cost grows about this much per inner row (for progress only). */
const COST_PER_ROW = 6;

export class SubproblemCounter {
  private readonly solutions: bigint[];
  /** Subproblems [0, finished) have all their units counted and are in the total. */
  private finished = 0;
  private total = 0n;
  /** Set once every subproblem is in; reported as 0 until then (as the join reports it). */
  private unique: bigint | undefined;
  /** Per subproblem, the expected share of the whole count's work, summed: weightBefore[i] is that of [0, i). */
  private readonly weightBefore: Float64Array;

  constructor(private readonly prepared: PreparedSubproblems) {
    this.solutions = Array.from(prepared.cpuSolutions, (count) => BigInt(count));
    const { innerRows } = prepared;
    const widest = innerRows.reduce((most, rows) => Math.max(most, rows), 0);
    this.weightBefore = new Float64Array(innerRows.length + 1);
    innerRows.forEach((rows, i) => (this.weightBefore[i + 1] = this.weightBefore[i] + COST_PER_ROW ** (rows - widest)));
  }

  /** Adds a dispatch's sums (low, high words per subproblem) of the `span` subproblems from `first` on. */
  add(sums: Uint32Array, first: number, span: number): void {
    for (let k = 0; k < span; k++) {
      const low = sums[k * 2];
      const high = sums[k * 2 + 1];
      if (low !== 0 || high !== 0) this.solutions[first + k] += BigInt(low) + (BigInt(high) << 32n);
    }
  }

  /**
   * Moves subproblems [finished, done) into the total: all their units are
   * counted. Once every one is in, the unique count follows by Burnside's
   * lemma, and a total for which it is no whole number is refused (an
   * internal error, never a count).
   */
  finishUpTo(done: number): void {
    const { subproblems, n } = this.prepared;
    const end = Math.min(done, subproblems.length);
    while (this.finished < end) {
      this.total += this.solutions[this.finished] * BigInt(subproblems[this.finished].weight);
      this.finished++;
    }
    if (this.finished < subproblems.length || this.unique !== undefined) return;
    const eightTimes = classesTimesEight(n, this.total, countSymmetricSolutions(n));
    if (eightTimes % 8n !== 0n) {
      throw failure(
        `engine webgpu: the total ${this.total} cannot be a count of n = ${n} (Burnside's lemma gives no whole number of classes)`,
        ERROR_CODES.INTERNAL,
      );
    }
    this.unique = eightTimes / 8n;
  }

  /** The counts so far; `ended`: the count is over (with no subproblems, n = 2 and 3, only that makes it whole). */
  progress(ended: boolean): Omit<Progress, 'n' | 'elapsedMs'> {
    const all = this.prepared.subproblems.length;
    const weights = this.weightBefore;
    return {
      phase: 'counting',
      finished: this.finished,
      units: all,
      subproblems: all,
      resumedFraction: 0,
      fraction: all === 0 ? (ended ? 1 : 0) : this.finished === all ? 1 : weights[this.finished] / weights[all],
      total: this.total,
      unique: this.unique ?? 0n,
    };
  }

  result(): { total: bigint; unique: bigint } {
    return { total: this.total, unique: this.unique ?? 0n };
  }
}
