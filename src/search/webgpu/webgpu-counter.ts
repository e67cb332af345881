// Adds the GPU's per-unit counts into per-subproblem bigints, and the
// finished subproblems' contributions into the totals, in plan order.
import { contribution } from '../constellations.js';
import type { Progress } from '../../shared/progress.js';
import { countFixesOnly } from '../symmetry.js';
import { UNIT_WORDS, type PreparedSubproblems } from './webgpu-units.js';

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

  /** Adds the counts (low, high words per unit) of `count` units whose words are in `units`. */
  add(units: Uint32Array, counts: Uint32Array, count: number): void {
    let subproblem = -1;
    let running = 0; // low words of the current subproblem; flushed long before 2^53
    for (let j = 0; j < count; j++) {
      const owner = units[j * UNIT_WORDS + 3] >>> 10;
      if (owner !== subproblem) {
        if (subproblem >= 0) this.solutions[subproblem] += BigInt(running);
        subproblem = owner;
        running = 0;
      }
      running += counts[j * 2];
      const high = counts[j * 2 + 1];
      if (high !== 0) this.solutions[owner] += BigInt(high) << 32n;
      if (running >= 2 ** 52) {
        this.solutions[owner] += BigInt(running);
        running = 0;
      }
    }
    if (subproblem >= 0) this.solutions[subproblem] += BigInt(running);
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
