// A search count's parts: each constellation's solutions and fixes, what
// they must satisfy (checkParts) and its subtotals file, read from unit
// counts (shards, merge) or summed as a whole count's units finish
// (ConstellationSums: memory by constellations, not by units).
import { subtotalsHeader, type CountParts, type CountSource } from '../contract/method.js';
import { VERSION } from '../shared/version.js';
import type { ConstellationPlan } from './search-plan.js';

/** Constellation i's counts: the solutions containing it, its fixes, and where its fixes came from. */
type ConstellationCounts = (i: number) => { solutions: bigint; fixes: bigint; name: string };

/** The constellations' counts added up from their units' (`source`). */
export function fromUnits(plan: ConstellationPlan, source: CountSource): ConstellationCounts {
  return (i) => {
    const span = plan.span(i);
    let solutions = 0n;
    for (let id = span.first; id < span.first + span.solutionUnits; id++) solutions += source(id).count;
    const fixes = span.fixesUnit < 0 ? undefined : source(span.fixesUnit);
    return { solutions, fixes: fixes?.count ?? 0n, name: fixes?.name ?? '' };
  };
}

/**
 * Each symmetric constellation's fixes must fit its solutions: each solution
 * is fixed by at most the h - 1 other elements of the stabiliser, and
 * solutions + fixes must divide by h (Burnside); and 8 x unique must divide
 * by 8.
 */
export function checkParts(plan: ConstellationPlan, unique8: bigint, countsOf: ConstellationCounts): string | undefined {
  for (let i = 0; i < plan.constellations.length; i++) {
    const { fixesUnit } = plan.span(i);
    if (fixesUnit < 0) continue;
    const { solutions, fixes, name } = countsOf(i);
    const h = BigInt(plan.constellations[i].stabiliser);
    if (fixes > (h - 1n) * solutions || (solutions + fixes) % h !== 0n) {
      return `${name}: unit ${fixesUnit} (the fixes of constellation ${i}, stabiliser ${h}) records ${fixes} fixes for ${solutions} solutions, which no count can give`;
    }
  }
  if (unique8 % 8n !== 0n) return `the unique counts do not add up to a whole number (${unique8} / 8)`;
  return undefined;
}

/** One line per constellation, whatever depth the plan refined it to. */
export function subtotals(plan: ConstellationPlan, countsOf: ConstellationCounts): string {
  const lines = [
    subtotalsHeader('search', plan, VERSION),
    '# One line per border constellation, one per symmetry class: a (row 0 column), b (row n-1 column), c (column 0 row),',
    '# d (column n-1 row), weight (members of the class), solutions containing it, fixes (Burnside, symmetric ones only).',
    '# total = sum of weight x solutions; unique = sum of weight x (solutions + fixes) / 8.',
    'id a b c d weight solutions fixes',
  ];
  plan.constellations.forEach((s, i) => {
    const { solutions, fixes } = countsOf(i);
    lines.push(`${i} ${s.a} ${s.b} ${s.c} ${s.d} ${s.weight} ${solutions} ${fixes}`);
  });
  return lines.join('\n') + '\n';
}

/** A whole count's unit counts, summed per constellation as they come. */
export class ConstellationSums implements CountParts {
  readonly #solutions: bigint[];
  readonly #fixes: bigint[];

  constructor(readonly plan: ConstellationPlan) {
    this.#solutions = plan.constellations.map(() => 0n);
    this.#fixes = plan.constellations.map(() => 0n);
  }

  add(id: number, count: bigint): void {
    const i = this.plan.constellationIndex(id);
    if (this.plan.span(i).fixesUnit === id) this.#fixes[i] = count;
    else this.#solutions[i] += count;
  }

  check(_total: bigint, unique8: bigint, name: string): string | undefined {
    return checkParts(this.plan, unique8, (i) => ({ solutions: this.#solutions[i], fixes: this.#fixes[i], name }));
  }

  subtotals(): string {
    return subtotals(this.plan, (i) => ({ solutions: this.#solutions[i], fixes: this.#fixes[i], name: '' }));
  }
}
