// The symmetry search as a Method (src/contract/method.ts): a constellation plan's
// units, what each adds (Burnside's lemma per constellation, see
// contribution in ./constellations.ts), the checks on saved counts, its
// subtotals, and its counter for a thread.
import {
  factorial,
  oncePerPlan,
  planMembers,
  subtotalsHeader,
  type CountSource,
  type PlannedMethod,
  type UnitCounter,
  type UnitCounting,
} from '../contract/method.js';
import { VERSION } from '../shared/version.js';
import { rangeError } from '../shared/errors.js';
import { kernelOf, jsKernel, resolveModule } from './search-kernel.js';
import { constellationPlan, ConstellationPlan, countUnit, type Unit } from './search-plan.js';
import { searchUnitCodec } from './unit-codec.js';

/** A search unit counted on this thread from `module` (null: the TypeScript kernel), in pieces. */
function searchCounter(n: number, module: WebAssembly.Module | null): UnitCounter<Unit> {
  const kernel = module ? kernelOf(module) : jsKernel;
  return (unit) => {
    checkConstellation(n, unit);
    return countUnit(kernel, n, unit);
  };
}

/** How a thread counts the search's units. */
export const searchCounting: UnitCounting<Unit> = { name: 'search', counter: searchCounter, codec: searchUnitCodec };

/** A unit that arrived in a message: its constellation must lie on the board (the kernels do not check). */
function checkConstellation(n: number, unit: Unit): void {
  const s = unit?.constellation;
  for (const key of ['a', 'b', 'c', 'd'] as const) {
    if (!Number.isInteger(s?.[key]) || s[key] < 0 || s[key] >= n)
      throw rangeError(`unit ${unit?.id}: ${key} = ${s?.[key]} is not a column/row of an n = ${n} board`);
  }
}

/** The search's Method for n at a refinement depth (made once per plan). */
export function searchMethod(n: number, depth: number): PlannedMethod<Unit> {
  return methodOf(constellationPlan(n, depth));
}

const methodOf = oncePerPlan((plan: ConstellationPlan): PlannedMethod<Unit> => {
  const { n } = plan;
  return Object.freeze({
    name: searchCounting.name,
    ...planMembers(plan),
    contribution(id: number, count: bigint) {
      const i = plan.constellationIndex(id);
      const weighted = count * BigInt(plan.constellations[i].weight);
      return { total: plan.span(i).fixesUnit === id ? 0n : weighted, unique8: weighted };
    },
    uniqueOf: (_total: bigint, unique8: bigint) => unique8 / 8n,
    uniqueWithLastUnit: false,
    checkParts: (_total: bigint, unique8: bigint, source: CountSource) => checkParts(plan, unique8, source),
    // A solutions unit leaves at most n - 2 - (its placed rows) rows open, each a column of its own: at most r! ways;
    // a fixes unit counts (solution, symmetry) pairs: at most 7 a solution of the constellation.
    maxCount(id: number) {
      const i = plan.constellationIndex(id);
      const open = n - 2 - Math.min(plan.depth, Math.max(0, n - 4));
      return plan.span(i).fixesUnit === id ? 7n * factorial(n - 2) : factorial(Math.max(0, open));
    },
    subtotals: (countOf: (id: number) => bigint) => subtotals(plan, countOf),
    module: resolveModule,
    counter: (module: WebAssembly.Module | null) => searchCounter(n, module),
    codec: searchUnitCodec,
    bytesPerThread: 0,
    helps: true,
    warm: () => undefined,
  });
});

/**
 * Each symmetric constellation's fixes must fit its solutions: each solution
 * is fixed by at most the h - 1 other elements of the stabiliser, and
 * solutions + fixes must divide by h (Burnside); and 8 x unique must divide
 * by 8.
 */
function checkParts(plan: ConstellationPlan, unique8: bigint, source: CountSource): string | undefined {
  for (let i = 0; i < plan.constellations.length; i++) {
    const span = plan.span(i);
    if (span.fixesUnit < 0) continue;
    let solutions = 0n;
    for (let id = span.first; id < span.fixesUnit; id++) solutions += source(id).count;
    const { name, count: fixes } = source(span.fixesUnit);
    const h = BigInt(plan.constellations[i].stabiliser);
    if (fixes > (h - 1n) * solutions || (solutions + fixes) % h !== 0n) {
      return `${name}: unit ${span.fixesUnit} (the fixes of constellation ${i}, stabiliser ${h}) records ${fixes} fixes for ${solutions} solutions, which no count can give`;
    }
  }
  if (unique8 % 8n !== 0n) return `the unique counts do not add up to a whole number (${unique8} / 8)`;
  return undefined;
}

/** One line per constellation, whatever depth the plan refined it to. */
function subtotals(plan: ConstellationPlan, countOf: (id: number) => bigint): string {
  const lines = [
    subtotalsHeader(searchCounting.name, plan, VERSION),
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
