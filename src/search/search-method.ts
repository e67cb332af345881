// The symmetry search as a Method (src/contract/method.ts): a constellation plan's
// units, what each adds (Burnside's lemma per constellation, see
// contribution in ./constellations.ts), the checks on saved counts, its
// subtotals, and its counter for a thread: a unit counted in pieces of a
// few open rows (countUnit), over the inner rows its plan lays out.
import { factorial, planMembers, type CountSource, type PlannedMethod, type UnitCounter, type UnitCounting } from '../contract/method.js';
import { rangeError } from '../shared/errors.js';
import { oncePer } from '../shared/once-per.js';
import { kernelOf, jsKernel, resolveModule } from './search-kernel.js';
import { ConstellationPlan, layoutOf, placedRowsOf, searchPlanSteps, walk, type Unit } from './search-plan.js';
import type { Subproblem } from './constellations.js';
import type { PlacedRows } from './symmetry.js';
import { searchUnitCodec } from './unit-codec.js';
import { checkParts, ConstellationSums, fromUnits, subtotals } from './search-parts.js';

/** A search unit counted on this thread from `module` (null: the TypeScript kernel), in pieces. */
function searchCounter(n: number, module: WebAssembly.Module | null): UnitCounter<Unit> {
  const kernel = module ? kernelOf(module) : jsKernel;
  return (unit) => {
    checkConstellation(n, unit);
    return countUnit(kernel, n, unit);
  };
}

/**
 * Rows a single kernel call may leave to search: a unit is counted in
 * pieces of this size, so progress moves and abort is prompt at any n.
 * Measured on the wasm SIMD kernel: pieces of the largest constellations
 * take about 8-40 ms at n = 21 (15 rows), 6-30 ms at n = 24 (16), 4-18 ms
 * at n = 27 (17); splitting costs nothing measurable against whole calls.
 */
function pieceRows(n: number): number {
  return 8 + Math.floor(n / 3);
}

/** The kernel calls a unit needs (the engines' Kernel has them). */
interface UnitKernel {
  countPlaced(n: number, s: Subproblem, placed: PlacedRows): bigint;
  countFixes(n: number, s: Subproblem): bigint;
}

/**
 * Counts one unit in pieces of at most pieceRows(n) open rows, yielding the
 * share of the unit done after each (0 to 1), and returns its count.
 */
export function* countUnit(kernel: UnitKernel, n: number, unit: Unit): Generator<number, bigint, undefined> {
  const s = unit.constellation;
  if (unit.kind === 'fixes') return kernel.countFixes(n, s);
  const layout = layoutOf(n, s);
  const start = placedRowsOf(layout, unit.prefix);
  if (!start) throw rangeError(`unit ${unit.id}: the prefix ${JSON.stringify(unit.prefix)} is not a placement of this constellation`);
  const depth = layout.inner - pieceRows(n);
  // A unit of one piece (every unit at n <= 16 without a prefix): no walk to make.
  if (depth <= unit.prefix.length) {
    const whole = kernel.countPlaced(n, s, start);
    yield 1;
    return whole;
  }
  let count = 0n;
  for (const step of walk(layout, start, unit.prefix, depth)) {
    count += kernel.countPlaced(n, s, step.placed);
    yield step.before + step.share;
  }
  return count;
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

/**
 * The search's Method for n, its plan made in steps (searchPlanSteps): at
 * `depth`, or at the default depth for `parts`. The one entry point of its
 * plan that the run layer drives, at once or in slices.
 */
export function* searchMethodSteps(n: number, parts: number, depth?: number): Generator<void, PlannedMethod<Unit>, undefined> {
  return methodOf(yield* searchPlanSteps(n, parts, depth));
}

// Made once per plan (plans are cached and immutable).
const methodOf = oncePer((plan: ConstellationPlan): PlannedMethod<Unit> => {
  const { n } = plan;
  // Computed once: a resumed checkpoint asks for each of its (millions of) lines.
  const mostSolutions = factorial(Math.max(0, n - 2 - Math.min(plan.depth, Math.max(0, n - 4))));
  const mostFixes = 7n * factorial(n - 2);
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
    checkParts: (_total: bigint, unique8: bigint, source: CountSource) => checkParts(plan, unique8, fromUnits(plan, source)),
    // A solutions unit leaves at most n - 2 - (its placed rows) rows open, each a column of its own: at most r! ways;
    // a fixes unit counts (solution, symmetry) pairs: at most 7 a solution of the constellation.
    maxCount(id: number) {
      const i = plan.constellationIndex(id);
      return plan.span(i).fixesUnit === id ? mostFixes : mostSolutions;
    },
    subtotals: (countOf: (id: number) => bigint) =>
      subtotals(
        plan,
        fromUnits(plan, (id) => ({ name: '', count: countOf(id) })),
      ),
    countParts: () => new ConstellationSums(plan),
    module: resolveModule,
    counter: (module: WebAssembly.Module | null) => searchCounter(n, module),
    codec: searchUnitCodec,
    bytesPerThread: 0,
    helps: true,
    warm: () => undefined,
    share: undefined,
  });
});
