// The units of the half-board join: one unit per row split, after symmetry.
//
// A split says, for every row, whether its queen stands in the east half
// (columns 0..h-1) or the west half (columns n-h..n-1), h = floor(n/2). For
// odd n the centre column's queen comes first: it stands in some row
// `centreRow`, and the other n-1 rows are split. Mirroring the board north-
// south (rows reversed) and east-west (halves swapped) maps the solutions of
// one split one-to-one onto those of another, so only one split per class
// is counted, weighted by the size of its class.
//
// The count goes further, with the two diagonal reflections of the board. The
// one about the main diagonal fixes that diagonal and moves the queen of
// the other long diagonal (if any) to the other half; the other reflection
// likewise. So total = the sum, over solutions with no queen on the east
// half's two long-diagonal squares, of 2 per occupied long diagonal (both
// then in the west). That is invariant under the north-south mirror, so it
// is counted per north-south class of splits (weight 1 or 2), with only the
// east halves clear of the long diagonals. Solutions with both long
// diagonals empty are closed under the east-west mirror too: they count
// twice in one class of a mirrored pair and not in the other, once in a
// class that is its own mirror. A unit is still a class under both mirrors:
// its split and, where that is another north-south class, its east-west
// mirror, counted from the same two lists of halves.
//
// The transpose's test (even n) halves the solutions with one long diagonal
// held. The reflection about the main diagonal keeps that diagonal's queen
// where it is, so such a solution and its transpose weigh alike; each counts
// 2 x its share instead of 2, where the shares of the two add up to 2: take
// S, the set of south-band rows (n - h .. n - 1) whose queen stands east,
// and T, the set of west columns (the same numbers) whose queen stands in
// the north band, each read as a number whose bit n - 1 - x is row or column
// x. The transpose swaps S and T, so the share 2 if S < T, 1 if S = T and 0
// if S > T is such a pair. S is the split's, T the west half's: a half's
// share is known before the pair count, and a half whose share is 0 is no
// probe. A solution with the other long diagonal alone takes the share of its
// north-south mirror (rows reversed), so that the weights stay invariant
// under that mirror: the split's north-band east rows against the west
// columns whose queen stands in the south band. For odd n the north band
// holds the middle row, and the mirror's test would need the column of its
// queen: there shares are 1. At n = 22 this takes 0.76x the time.

import { popcount } from '../shared/bits.js';
import { ERROR_CODES, rangeError } from '../shared/errors.js';

/** One row split to count: total = sum over units of weight * count. */
export interface JoinUnit {
  /** Position in the plan (0-based). */
  readonly id: number;
  /** Bit r set: row r's queen is in the east half. */
  readonly eastRows: number;
  /** Odd n: the row of the centre column's queen. Even n: -1. */
  readonly centreRow: number;
  /** Splits this unit stands for (1, 2 or 4). */
  readonly weight: number;
  /**
   * With the long-diagonal filter (see above), solutions of this split with
   * both long diagonals empty count this many times: 2 when the unit also
   * counts its east-west mirror (another north-south class, where they
   * count 0 times), 1 when the mirror is the split's own north-south mirror.
   * Weight is the north-south class's size.
   */
  readonly mirrorWeight: number;
}

/**
 * Largest n the join accepts. Above it the bounds below are not computed
 * (n = 24's took 20 minutes), and from n = 26 a half's diagonals would not
 * fit the wasm kernel's masks; the search counts any n.
 */
export const JOIN_MAX_N = 24;

/** Most bytes the join may take on one thread (2 GiB): joinMemoryBytes(n) stays under it up to JOIN_MAX_N. */
export const JOIN_MEMORY_LIMIT = 2 ** 31;

/**
 * Bytes of quarter tables one thread keeps (src/join/quarter-tables.ts):
 * all of them up to n = 20, a working set of them above.
 */
export const QUARTER_CACHE_BYTES = 64 * 2 ** 20;

/**
 * The most half-boards one side of a split can have, before the diagonal
 * checks between its two bands: the largest sum, over column sets C, of
 * north entries on C times south entries on the other columns, over every
 * set of h rows. Computed once by exhausting those sets (n = 22: 2,300,692,
 * where the bound h! would be 39,916,800; n = 23: 2,794,752; n = 24: 21,487,384).
 */
const MAX_HALVES = [
  1, 1, 1, 1, 2, 2, 4, 6, 16, 20, 48, 60, 226, 256, 1080, 1356, 7240, 8472, 41644, 49972, 300950, 352540, 2300692, 2794752, 21487384,
];

/** Room for the half-boards of one side of any split of n (n <= JOIN_MAX_N; above, h!). */
export function maxHalves(n: number): number {
  if (n < MAX_HALVES.length) return MAX_HALVES[n];
  let f = 1;
  for (let k = 2; k <= n >> 1; k++) f *= k;
  return f;
}

/**
 * Entries of the quarter-board tables for n (every way to place queens, at
 * most one per row and column, on a board of n - h rows by h columns),
 * counted once by a search for n <= 24; above, the rook placements bound
 * them.
 */
const QUARTER_ENTRIES = [
  0, 1, 2, 3, 5, 9, 18, 37, 87, 185, 462, 1039, 2635, 6335, 16870, 42807, 118969, 316395, 915442, 2524999, 7535369, 21637115, 66807234,
  198770307, 633443407,
];

function quarterEntries(n: number): number {
  if (n < QUARTER_ENTRIES.length) return QUARTER_ENTRIES[n];
  const h = n >> 1;
  let sum = 0;
  for (let k = 0, rooks = 1; k <= h; k++) {
    sum += rooks;
    rooks *= ((n - h - k) * (h - k)) / (k + 1); // C(n-h, k) C(h, k) k! to k + 1
  }
  return sum;
}

/**
 * Bytes the join needs per thread for board size n, an upper bound on
 * either engine. Quarter tables: 8 bytes an entry and 4 per column set of
 * each set of rows, all of them or QUARTER_CACHE_BYTES, whichever is less.
 * Per half-board of the bound above, at most 76 bytes: in TS, seven 4-byte
 * arrays (both sides' diagonal masks, group keys, residues) and bit-sliced
 * tables of 24 bytes a half, grown up to twice; in wasm, nine 4-byte
 * arrays and the same tables, once. Plus the wasm block list (one key's
 * at a time: 16 bytes per 64 halves, 32 per 128 with SIMD) and small tables.
 */
export function joinMemoryBytes(n: number): number {
  const halves = maxHalves(n);
  const lists = 32 * (halves / 128 + 2);
  return Math.min(quarterTableBytes(n), QUARTER_CACHE_BYTES) + 76 * halves + lists + 2 ** 21;
}

/** Bytes of the largest quarter table of one set of rows, per n (wasm's layout; computed once). */
const MAX_TABLE_BYTES = [
  0, 16, 16, 16, 32, 32, 48, 64, 112, 128, 256, 320, 800, 1024, 2456, 3352, 9624, 13400, 43272, 59896, 212872, 297352, 1145784, 1669896,
  6310472,
];

/**
 * Bytes for each of the two generations of quarter tables (src/join/quarter-tables.ts)
 * within `budget`: half of it, but room for at least two of n's largest tables (a unit
 * uses two at once), and no more than all of n's tables, which then are built once.
 */
export function quarterHalfBytes(n: number, budget: number = QUARTER_CACHE_BYTES): number {
  const largest = n < MAX_TABLE_BYTES.length ? MAX_TABLE_BYTES[n] : 8 * maxHalves(n);
  return Math.min(quarterTableBytes(n), Math.max(budget / 2, 2 * largest));
}

/**
 * Bytes of all the quarter tables of n: 8 an entry and at most 8 (wasm
 * aligns) per column set of each set of rows, C(n, h) of those plus one per
 * set of rows (Vandermonde).
 */
export function quarterTableBytes(n: number): number {
  const h = n >> 1;
  let binomial = 1;
  for (let k = 1; k <= h; k++) binomial = (binomial * (n - h + k)) / k;
  return 8 * quarterEntries(n) + 8 * (2 ** (n - h) + binomial);
}

/** Throws a RangeError when `unit` is not a unit of the current plan's shape (say, from an older checkpoint). */
export function checkJoinUnit(unit: JoinUnit, n: number): void {
  if (unit.mirrorWeight !== 1 && unit.mirrorWeight !== 2) {
    throw rangeError(`join: unit ${unit.id} has mirrorWeight ${unit.mirrorWeight}, expected 1 or 2`);
  }
  // A split of n's rows: h east rows within the board, and for odd n a centre row outside them (else -1).
  const { eastRows, centreRow } = unit;
  const centreOk =
    n % 2 === 1 ? Number.isInteger(centreRow) && centreRow >= 0 && centreRow < n && !((eastRows >>> centreRow) & 1) : centreRow === -1;
  if (!Number.isInteger(eastRows) || eastRows < 0 || eastRows >= 2 ** n || popcount(eastRows) !== n >> 1 || !centreOk) {
    throw rangeError(`join: unit ${unit.id} (eastRows ${eastRows}, centreRow ${centreRow}) is not a row split of n = ${n}`);
  }
}

/** Throws a RangeError, before anything is allocated, when n is not one the join can count. */
export function checkJoinSize(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw rangeError(`join: n must be an integer >= 1, got ${n}`);
  const bytes = joinMemoryBytes(n);
  if (n > JOIN_MAX_N || bytes > JOIN_MEMORY_LIMIT) {
    throw rangeError(
      `join: n = ${n} needs up to ${bytes} bytes of tables per thread, over the limit of ${JOIN_MEMORY_LIMIT} (n <= ${JOIN_MAX_N}); use algorithm 'search'`,
      ERROR_CODES.TABLES_TOO_LARGE,
    );
  }
}

let reversed8: Uint8Array | undefined;

/** Row mask `rows` of an n-row board upside down, a byte at a time (a table of 65,536 took ~1.5 of the ~12 ms of n = 16's first plan). */
function reverseRows(rows: number, n: number): number {
  if (!reversed8) {
    reversed8 = new Uint8Array(256);
    for (let x = 1; x < 256; x++) reversed8[x] = (reversed8[x >>> 1] >>> 1) | ((x & 1) << 7);
  }
  const r =
    (reversed8[rows & 255] << 24) | (reversed8[(rows >>> 8) & 255] << 16) | (reversed8[(rows >>> 16) & 255] << 8) | reversed8[rows >>> 24];
  return (r >>> (32 - n)) >>> 0;
}

/**
 * The units of n's plan in typed arrays, one entry per unit in plan order:
 * a few bytes a unit, where unit objects took ~200 (n = 21 has 970,288
 * units; n = 23 has 4,056,746).
 */
export interface CompactJoinPlan {
  readonly units: number;
  readonly eastRows: Int32Array;
  readonly centreRow: Int8Array;
  readonly weight: Uint8Array;
  readonly mirrorWeight: Uint8Array;
  /** Per unit, its split's spread (splitCost): non-increasing, the plan being largest first by it. */
  readonly cost: Uint8Array;
  /** The estimated work of all the units (joinUnitWork). */
  readonly work: number;
}

/**
 * Estimated work of a unit (relative, for progress and its ETA): its passes
 * (mirrorWeight) times a growth per point of its split's spread. Fitted to
 * unit times on the wasm join (2026-11-26, 200-400 spread units each): time
 * grows 1.12x a point at n = 16, 1.13x at 18, 1.15x at 20 and 1.17x at 22;
 * over a plan it brings the fraction within 3-6% of the time's share, where
 * one per unit was 9-10% off (its largest units come first).
 */
export function joinUnitWork(n: number, cost: number, mirrorWeight: number): number {
  return mirrorWeight * Math.exp((0.114 + 0.0077 * (n - 16)) * cost);
}

/** Unit `id` of a compact plan as an object. */
export function joinUnitAt(plan: CompactJoinPlan, id: number): JoinUnit {
  return { id, eastRows: plan.eastRows[id], centreRow: plan.centreRow[id], weight: plan.weight[id], mirrorWeight: plan.mirrorWeight[id] };
}

/**
 * Combinations of rows tried, and units placed, per step of a plan made in
 * steps (n = 23 tries 4.2 million, for 4.1 million units): under 1.5 ms a
 * step, 3-13 ms the first, before V8 optimizes it.
 */
export const PLAN_STEP = 1 << 12;

/**
 * Per step, more than any plan has: the synchronous paths make their plan
 * so, its loops as long as ever (in steps of PLAN_STEP, n = 16's plan took
 * 1.3-1.4x as long in a fresh process).
 */
const AT_ONCE = 2 ** 30;

/**
 * The deterministic units of board size n (n >= 1: n = 1 has one split, its
 * centre queen), largest first, made in steps of `perStep` (PLAN_STEP for a
 * count that makes its plan in slices: n = 23's held the event loop 0.4 s):
 * the splits a run of combinations a step, then the units placed a run a step.
 */
export function* compactPlanSteps(n: number, perStep = AT_ONCE): Generator<void, CompactJoinPlan, undefined> {
  checkJoinSize(n);
  const { splits, costs, units, ofCost } = yield* splitSteps(n, perStep);
  // Largest first by a cheap proxy: a half whose rows lie far apart has fewer diagonal clashes, so more boards.
  const startOf = new Int32Array(256); // per cost: where its units start, the highest cost first
  for (let cost = 254; cost >= 0; cost--) startOf[cost] = startOf[cost + 1] + ofCost[cost + 1];
  const plan = {
    units,
    eastRows: new Int32Array(units),
    centreRow: new Int8Array(units),
    weight: new Uint8Array(units),
    mirrorWeight: new Uint8Array(units),
    cost: new Uint8Array(units),
  };
  const passes = new Float64Array(256); // per cost, its units' passes (mirrorWeight)
  for (let from = 0; from < units; from += perStep) {
    placeUnits(plan, splits, costs, startOf, passes, from, Math.min(units, from + perStep));
    yield;
  }
  // The total once, per cost, where summing every unit's took 25 ms at n = 23, twice a count.
  let work = 0;
  for (let cost = 0; cost < 256; cost++) work += joinUnitWork(n, cost, passes[cost]);
  return { ...plan, work };
}

/** Splits from..to - 1 as units in their places (a stable counting sort by cost), tallying their passes per cost. */
function placeUnits(
  plan: Omit<CompactJoinPlan, 'work'>,
  splits: Float64Array,
  costs: Uint8Array,
  startOf: Int32Array,
  passes: Float64Array,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const cost = costs[i];
    const at = startOf[cost]++;
    const split = splits[i];
    const low = split % 256;
    plan.eastRows[at] = Math.floor(split / 256);
    plan.centreRow[at] = (low >> 2) - 1;
    plan.weight[at] = ((low >> 1) & 1) + 1;
    plan.mirrorWeight[at] = (low & 1) + 1;
    plan.cost[at] = cost;
    passes[cost] += (low & 1) + 1;
  }
}

/** The splits found so far, in typed arrays grown as they come, each with its cost; `ofCost` tallies the costs. */
interface Splits {
  splits: Float64Array;
  costs: Uint8Array;
  units: number;
  readonly ofCost: Int32Array;
}

/**
 * One split per north-south and east-west class, by centre row, then east
 * rows, ascending, with its cost (splitCost): a run of combinations a step.
 * Splits come out in that order; a stable counting sort by cost then puts
 * them largest first (compactPlanSteps).
 */
function* splitSteps(n: number, perStep: number): Generator<void, Splits, undefined> {
  const found: Splits = { splits: new Float64Array(1024), costs: new Uint8Array(1024), units: 0, ofCost: new Int32Array(256) };
  const centreRows = n % 2 === 1 ? Array.from({ length: n }, (_, r) => r) : [-1];
  for (const centreRow of centreRows) {
    // A centre row below its mirror's keys every split higher than its mirror image's (k2 below): none is kept.
    if (centreRow >= 0 && n - 1 - centreRow < centreRow) continue;
    for (let x = (1 << (n >> 1)) - 1; x >= 0; yield) x = addSplits(found, n, centreRow, x, perStep);
  }
  return found;
}

/**
 * The splits of `centreRow` from combination `first` on, up to `perStep`
 * of them, added to `found`; returns the combination to
 * go on from, or -1 after the last. A function of its own, not a
 * generator's loop, so that V8 optimizes it on its own.
 */
function addSplits(found: Splits, n: number, centreRow: number, first: number, perStep: number): number {
  const h = n >> 1;
  const all = (1 << n) - 1;
  // Each split as one number: east rows, centre row + 1, weight - 1 and mirror weight - 1.
  let { splits, costs, units } = found;
  const key = (c: number, e: number): number => (c + 1) * 2 ** n + e;
  const free = centreRow < 0 ? all : all & ~(1 << centreRow);
  const below = centreRow < 0 ? all : (1 << centreRow) - 1; // free rows under the centre row
  const mirrorRow = centreRow < 0 ? -1 : n - 1 - centreRow;
  const own0 = key(centreRow, 0);
  const mirror0 = key(mirrorRow, 0);
  // Every set of h of the free rows: h-bit combinations of the m free rows (Gosper), spread over them. East and
  // west are disjoint sets of h rows, so the one holding the highest free row is the larger: a kept split (k1
  // not below) leaves that row west, and the combinations run over the m - 1 rows under it.
  const m = centreRow < 0 ? n : n - 1;
  const end = h === 0 ? 1 : 1 << (m - 1);
  let x = first;
  for (let left = perStep; x < end && left > 0; left--) {
    const east = (x & below) | ((x & ~below) << 1);
    const west = free & ~east;
    // The class of (centreRow, east): mirrored east-west (1), north-south (2), and both (3).
    const own = own0 + east;
    const k1 = own0 + west;
    const k2 = mirror0 + reverseRows(east, n);
    const k3 = mirror0 + reverseRows(west, n);
    if (k1 >= own && k2 >= own && k3 >= own) {
      // The split's north-south class, and its east-west mirror (images 1 and 3) unless that is the same class.
      const weight = k2 === own ? 1 : 2;
      const mirrorWeight = k1 === k2 ? 1 : 2;
      if (units === splits.length) {
        const grown = new Float64Array(2 * units);
        grown.set(splits);
        splits = grown;
        const grownCosts = new Uint8Array(2 * units);
        grownCosts.set(costs);
        costs = grownCosts;
      }
      const cost = splitCost(east, n);
      found.ofCost[cost]++;
      costs[units] = cost;
      splits[units++] = (east * 64 + centreRow + 1) * 4 + (weight - 1) * 2 + mirrorWeight - 1;
    }
    if (h === 0) x = end;
    else {
      const low = x & -x;
      const ripple = x + low;
      x = ripple | (((ripple ^ x) >>> 2) / low);
    }
  }
  found.splits = splits;
  found.costs = costs;
  found.units = units;
  return x < end ? x : -1;
}

/**
 * Sum of gaps between consecutive east rows and between consecutive west
 * rows (the centre row counted west), each gap at most 3: more spread, more
 * half-boards.
 */
function splitCost(east: number, n: number): number {
  return spreadOf(east) + spreadOf(((1 << n) - 1) & ~east);
}

/** Sum of min(gap, 3) over consecutive set bits of `rows`: 3 a gap, less 2 per gap of 1 and 1 per gap of 2. */
function spreadOf(rows: number): number {
  if (rows === 0) return 0;
  return 3 * (popcount(rows) - 1) - 2 * popcount(rows & (rows >>> 1)) - popcount(rows & (rows >>> 2) & ~(rows >>> 1));
}
