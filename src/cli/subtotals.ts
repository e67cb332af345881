// Per-constellation subtotals of a finished count (`--subtotals FILE`), so
// that independent programs can compare results piece by piece, whatever
// depth each refined its plan to.
import type { ConstellationPlan } from '../plan.js';
import { VERSION } from '../version.js';

/** The text of a subtotals file; `countOf(id)` is the count of unit id. */
export function subtotalsText(plan: ConstellationPlan, countOf: (id: number) => bigint): string {
  const lines = [
    `# nqueens-subtotals: nqueens-wasm ${VERSION}, n = ${plan.n}, plan ${plan.method} depth ${plan.depth} digest ${plan.digest}`,
    '# One line per border constellation, one per symmetry class: a (row 0 column), b (row n-1 column), c (column 0 row),',
    '# d (column n-1 row), weight (members of the class), solutions containing it, fixes (Burnside, symmetric ones only).',
    '# total = sum of weight x solutions; unique = sum of weight x (solutions + fixes) / 8.',
    'id a b c d weight solutions fixes',
  ];
  plan.constellations.forEach((s, i) => {
    const span = plan.span(i);
    let solutions = 0n;
    for (let id = span.first; id < span.first + span.solutionUnits; id++) solutions += countOf(id);
    const fixes = span.fixesUnit < 0 ? 0n : countOf(span.fixesUnit);
    lines.push(`${i} ${s.a} ${s.b} ${s.c} ${s.d} ${s.weight} ${solutions} ${fixes}`);
  });
  return lines.join('\n') + '\n';
}
