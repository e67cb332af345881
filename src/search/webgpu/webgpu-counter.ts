// Adds the GPU's sums per subproblem into bigints, and the
// finished subproblems' contributions into the totals, in plan order.
import { contribution } from '../constellations.js';
import type { Progress } from '../../shared/progress.js';
import { countFixesOnly } from '../symmetry.js';
import type { PreparedSubproblems } from './webgpu-units.js';

/** A subproblem's expected cost grows about this much per inner row (for progress only). */
const COST_PER_ROW = 6;

export class SubproblemCounter {
  private readonly solutions: bigint[];
  /** Subproblems [0, finished) have all their units counted and are in total and unique. */
  private finished = 0;
  private total = 0n;
  private unique = 0n;
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

  /** Moves subproblems [finished, done) into the totals: all their units are counted. */
  finishUpTo(done: number): void {
    const { subproblems, n } = this.prepared;
    const end = Math.min(done, subproblems.length);
    while (this.finished < end) {
      const s = subproblems[this.finished];
      const fixes = countFixesOnly(n, s); // rare, and cheap: 0.3 s in all at n = 20 (it took 5.9 s, and starved the GPU)
      const c = contribution(s, { solutions: this.solutions[this.finished], fixes });
      this.total += c.total;
      this.unique += c.unique;
      this.finished++;
    }
  }

  progress(): Omit<Progress, 'n' | 'elapsedMs'> {
    const all = this.prepared.subproblems.length;
    const weights = this.weightBefore;
    return {
      phase: 'counting',
      finished: this.finished,
      units: all,
      subproblems: all,
      resumedFraction: 0,
      fraction: this.finished === all ? 1 : weights[this.finished] / weights[all],
      total: this.total,
      unique: this.unique,
    };
  }

  result(): { total: bigint; unique: bigint } {
    return { total: this.total, unique: this.unique };
  }
}
