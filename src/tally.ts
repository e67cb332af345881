// Runs a list of subproblems on a kernel and adds up their contributions.
import { contribution, planSubproblems, type Subproblem } from './constellations.js';
import type { Kernel } from './engines.js';

export interface Tally {
  total: bigint;
  unique: bigint;
}

export function countSubproblems(n: number, kernel: Kernel, subproblems: readonly Subproblem[]): Tally {
  const tally = { total: 0n, unique: 0n };
  for (const s of subproblems) addTo(tally, s, kernel, n);
  return tally;
}

export function addTo(tally: Tally, s: Subproblem, kernel: Kernel, n: number): void {
  const c = contribution(s, kernel.countSubproblem(n, s));
  tally.total += c.total;
  tally.unique += c.unique;
}

export function countAll(n: number, kernel: Kernel): Tally {
  return countSubproblems(n, kernel, planSubproblems(n));
}
