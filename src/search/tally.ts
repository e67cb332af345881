// Runs the whole subproblem list on one kernel, on the calling thread, and
// adds up the contributions: the benchmark's way to time one kernel
// (countSync counts through the search's Method instead).
import { contribution, planSubproblems } from './constellations.js';
import type { Kernel } from './search-kernel.js';

export function countAll(n: number, kernel: Kernel): { total: bigint; unique: bigint } {
  let total = 0n;
  let unique = 0n;
  for (const s of planSubproblems(n)) {
    const c = contribution(s, kernel.countSubproblem(n, s));
    total += c.total;
    unique += c.unique;
  }
  return { total, unique };
}
