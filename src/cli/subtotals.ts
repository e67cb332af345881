// Subtotals of a finished count (`--subtotals FILE`), so that independent
// programs can compare results piece by piece: per border constellation for
// the search (whatever depth each refined its plan to), per row split for
// the half-board join.
import type { JoinPlan } from '../join/join-method.js';
import type { ConstellationPlan } from '../search/search-plan.js';
import { VERSION } from '../shared/version.js';

function headerLine(plan: ConstellationPlan | JoinPlan): string {
  return `# nqueens-subtotals: nqueens-wasm ${VERSION}, n = ${plan.n}, plan ${plan.method} depth ${plan.depth} digest ${plan.digest}`;
}

/** The search's subtotals, one line per constellation; `countOf(id)` is the count of unit id. */
export function constellationSubtotals(plan: ConstellationPlan, countOf: (id: number) => bigint): string {
  const lines = [
    headerLine(plan),
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

/** The join's subtotals, one line per unit (row split). */
export function joinSubtotals(plan: JoinPlan, countOf: (id: number) => bigint): string {
  const { s180, s90 } = plan.symmetric();
  const lines = [
    headerLine(plan),
    '# One line per row split, one per class under the north-south and east-west mirrors: split (row 0 first: E, the',
    '# queen stands in the east half, columns 0..n/2-1; W, the west half; C, the centre column, odd n), weight (splits in',
    '# the class), solutions of the split.',
    `# total = sum of weight x solutions; unique = (total + ${s180} + 2 x ${s90}) / 8 (Burnside: half- and quarter-turn symmetric solutions).`,
    'id split weight solutions',
  ];
  for (const u of plan.list) {
    let split = '';
    for (let row = 0; row < plan.n; row++) split += row === u.centreRow ? 'C' : (u.eastRows >>> row) & 1 ? 'E' : 'W';
    lines.push(`${u.id} ${split} ${u.weight} ${countOf(u.id)}`);
  }
  return lines.join('\n') + '\n';
}
