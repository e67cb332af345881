// The plan of a count: its units of work, numbered, with an identity that
// shards and checkpoints record so that results of different plans never mix.
//
// The search's plan (its identity's method: 'search') refines the symmetry search's subproblems (one
// border constellation per symmetry class, src/search/constellations.ts) to a
// chosen depth: a unit is a constellation plus queens placed in its first
// `depth` inner rows (top-down, the rows below row 0 that the border queens
// leave open), one unit per non-attacking placement, in lexicographic order.
// A constellation that a symmetry maps to itself gets one more unit, its
// `fixes` (Burnside's lemma, see contribution in constellations.ts), so its
// solution units are counted like any other. Units are enumerated lazily;
// only a few numbers per constellation are kept.
//
// The half-board join's plan (src/join/join-method.ts, units "row
// splits") has its own identity: the digest covers the method, so their
// shards and checkpoints never mix. src/search/search-method.ts makes this
// plan a Method.
import { expectedWork, subproblemSteps, type Subproblem } from './constellations.js';
import { digest } from '../shared/digest.js';
import { popcount } from '../shared/bits.js';
import { boardMask } from '../shared/board-mask.js';
import { diagonalAttacks, type PlacedRows } from './symmetry.js';
import { identityText, PLAN_FORMAT_VERSION, type PlanIdentity } from '../contract/plan-identity.js';

/** Deepest refinement: 4 placed rows already gives ~10^4 units per constellation. */
export const MAX_DEPTH = 4;

export interface Unit {
  /** Position in the plan: 0 .. units - 1. */
  readonly id: number;
  /** 'solutions': the solutions containing the constellation and the prefix; 'fixes': the constellation's fixes. */
  readonly kind: 'solutions' | 'fixes';
  readonly constellation: Subproblem;
  /** Columns of the queens placed in the constellation's first inner rows, top-down. */
  readonly prefix: readonly number[];
  /** Estimated cost, in the units of expectedWork. */
  readonly work: number;
}

/** A fixes unit is a search over half-turn-symmetric placements only: tiny. */
const FIXES_WORK_SHARE = 1e-3;

/** A constellation's inner rows: board rows, the border queens' attacks on each, and the columns they take. */
export interface Layout {
  readonly inner: number;
  readonly rows: readonly number[];
  readonly attacks: readonly number[];
  readonly used: number;
}

/** The inner rows of constellation `s` on an n-row board. */
export function layoutOf(n: number, s: Subproblem): Layout {
  // Plain arrays: made for every unit counted, and two typed arrays took a quarter of countSync(12).
  const rows: number[] = [];
  const attacks: number[] = [];
  let inner = 0;
  for (let row = 1; row < n - 1; row++) {
    if (row === s.c || row === s.d) continue;
    rows[inner] = row;
    attacks[inner] =
      diagonalAttacks(n, row, 0, s.a) |
      diagonalAttacks(n, row, n - 1, s.b) |
      diagonalAttacks(n, row, s.c, 0) |
      diagonalAttacks(n, row, s.d, n - 1);
    inner++;
  }
  return { inner, rows, attacks, used: ~boardMask(n) | 1 | (1 << (n - 1)) | (1 << s.a) | (1 << s.b) };
}

const NOTHING_PLACED: PlacedRows = Object.freeze({ rows: 0, cols: 0, ld: 0, rd: 0 });

/** The search state after placing `prefix` in the first inner rows; null if the prefix is not a valid placement. */
export function placedRowsOf(layout: Layout, prefix: readonly number[]): PlacedRows | null {
  if (prefix.length === 0) return NOTHING_PLACED; // every unit of a depth-0 plan: nothing to allocate
  let cols = 0;
  let ld = 0;
  let rd = 0;
  for (let k = 0; k < prefix.length; k++) {
    const col = prefix[k];
    if (!Number.isInteger(col) || col < 0 || col > 31 || k >= layout.inner) return null;
    const bit = 1 << col;
    if ((bit & (layout.used | cols | ld | rd | layout.attacks[k])) !== 0) return null;
    const shift = k + 1 < layout.inner ? layout.rows[k + 1] - layout.rows[k] : 0;
    cols |= bit;
    ld = (ld | bit) << shift;
    rd = (rd | bit) >>> shift;
  }
  return { rows: prefix.length, cols, ld, rd };
}

/** One placement reached by walk(): its state, the columns, and where it sits in the walked subtree. */
interface Step {
  readonly placed: PlacedRows;
  readonly prefix: readonly number[];
  /** Share of the subtree's leaves before this one, weighting siblings alike (for progress). */
  readonly before: number;
  /** Its own share. */
  readonly share: number;
}

/**
 * The placements of the inner rows from `start.rows` down to `depth` (at most
 * the last inner row) below `start`, in lexicographic order. Iterative, so
 * callers can pause between steps.
 */
export function* walk(layout: Layout, start: PlacedRows, prefix: readonly number[], depth: number): Generator<Step, void, undefined> {
  const target = Math.min(depth, layout.inner);
  const levels = target - start.rows;
  if (levels <= 0) {
    yield { placed: start, prefix, before: 0, share: 1 };
    return;
  }
  const avail = new Int32Array(levels);
  const cols = new Int32Array(levels);
  const ld = new Int32Array(levels);
  const rd = new Int32Array(levels);
  const scale = new Float64Array(levels + 1); // share of one child at each level
  const done = new Float64Array(levels + 1); // share before the current node, per level
  const path = prefix.slice();
  const open = (j: number, c: number, l: number, r: number, base: number, share: number): void => {
    cols[j] = c;
    ld[j] = l;
    rd[j] = r;
    avail[j] = ~(layout.used | c | l | r | layout.attacks[start.rows + j]);
    const children = popcount(avail[j]);
    scale[j] = children === 0 ? 0 : share / children;
    done[j] = base;
  };
  open(0, start.cols, start.ld, start.rd, 0, 1);
  let j = 0;
  while (j >= 0) {
    if (avail[j] === 0) {
      j--;
      path.pop();
      continue;
    }
    const bit = avail[j] & -avail[j];
    avail[j] ^= bit;
    const k = start.rows + j;
    path[k] = 31 - Math.clz32(bit);
    path.length = k + 1;
    const before = done[j];
    done[j] += scale[j];
    const shift = k + 1 < layout.inner ? layout.rows[k + 1] - layout.rows[k] : 0;
    const c = cols[j] | bit;
    const l = (ld[j] | bit) << shift;
    const r = (rd[j] | bit) >>> shift;
    if (j + 1 === levels) {
      yield { placed: { rows: k + 1, cols: c, ld: l, rd: r }, prefix: path.slice(), before, share: scale[j] };
      path.pop();
      continue;
    }
    open(j + 1, c, l, r, before, scale[j]);
    j++;
  }
}

/**
 * Placements of the first `depth` inner rows, counted without building them:
 * the last two rows' at once from their free squares (pairsBelow), so a deep
 * plan costs its placements two rows up (n = 32 at depth 4: 1.4 x 10^10
 * units in 1.3 s, where one row up took 9-12 s).
 */
function countPlacements(layout: Layout, depth: number): number {
  const target = Math.min(depth, layout.inner);
  const visit = (k: number, cols: number, ld: number, rd: number): number => {
    if (k === target) return 1;
    let avail = ~(layout.used | cols | ld | rd | layout.attacks[k]);
    if (k + 1 === target) return popcount(avail);
    const shift = k + 1 < layout.inner ? layout.rows[k + 1] - layout.rows[k] : 0;
    if (k + 2 === target) return pairsBelow(avail, ~(layout.used | cols | (ld << shift) | (rd >>> shift) | layout.attacks[k + 1]), shift);
    let total = 0;
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      total += visit(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >>> shift);
    }
    return total;
  };
  return visit(0, 0, 0, 0);
}

/**
 * Placements of two rows `shift` apart: a queen on a free square x of the
 * first (`first`) leaves the second's free squares (`second`) but x and its
 * two diagonal squares, three distinct bits; summed over x, the squares
 * taken are those of `first`, and of `first` shifted each way, in `second`.
 */
function pairsBelow(first: number, second: number, shift: number): number {
  const taken = popcount(first & second) + popcount((first << shift) & second) + popcount((first >>> shift) & second);
  return popcount(first) * popcount(second) - taken;
}

/** A plan's numbers as tallySteps counts them, for ConstellationPlan's fields of those names. */
type PlanTallies = readonly [
  list: readonly Subproblem[],
  unitsBefore: Float64Array,
  workBefore: Float64Array,
  placements: Float64Array,
  largestUnitWork: number,
];

/** The plan of n at `depth` tallied in steps: the constellations', then 16 constellations a step. */
function* tallySteps(n: number, depth: number): Generator<void, PlanTallies, undefined> {
  const list = yield* subproblemSteps(n);
  const unitsBefore = new Float64Array(list.length + 1);
  const workBefore = new Float64Array(list.length + 1);
  const placements = new Float64Array(list.length);
  let units = 0;
  let work = 0;
  let largest = 0;
  for (let i = 0; i < list.length; i++) {
    if (i % 16 === 15) yield;
    const s = list[i];
    unitsBefore[i] = units;
    workBefore[i] = work;
    const count = countPlacements(layoutOf(n, s), depth);
    placements[i] = count;
    const w = expectedWork(n, s);
    if (count > 0) largest = Math.max(largest, w / count);
    units += count + (s.symmetries === 0 ? 0 : 1);
    work += w + (s.symmetries === 0 ? 0 : w * FIXES_WORK_SHARE);
  }
  unitsBefore[list.length] = units;
  workBefore[list.length] = work;
  return [list, unitsBefore, workBefore, placements, largest];
}

/** The word the search's plan digest is computed over: its method's name before it was 'search', so digests stay what they were. */
const DIGEST_WORD = 'constellations';

export class ConstellationPlan implements PlanIdentity {
  /** The identity's method (public in PlanInfo.method), as files say it. */
  readonly method = 'search' as const;
  readonly formatVersion = PLAN_FORMAT_VERSION;
  readonly units: number;
  readonly digest: string;
  /** Estimated work of the whole plan, and of its largest unit. */
  readonly work: number;
  readonly largestUnitWork: number;
  /** The constellations, largest first (frozen). */
  readonly constellations: readonly Subproblem[];
  /** Per constellation: units before it, and estimated work before it (one more entry at the end). */
  readonly #unitsBefore: Float64Array;
  readonly #workBefore: Float64Array;
  /** Per constellation: placements of its first `depth` inner rows (its solution units). */
  readonly #placements: Float64Array;

  constructor(
    readonly n: number,
    readonly depth: number,
    [list, unitsBefore, workBefore, placements, largestUnitWork]: PlanTallies,
  ) {
    this.constellations = list;
    this.#unitsBefore = unitsBefore;
    this.#workBefore = workBefore;
    this.#placements = placements;
    this.units = unitsBefore[list.length];
    this.work = workBefore[list.length];
    this.largestUnitWork = largestUnitWork;
    this.digest = digest(identityText(DIGEST_WORD, n, depth, this.units));
    Object.freeze(this);
  }

  /** The estimated share of the whole work in the largest unit (0 with no units: n = 2 and 3). */
  get largestUnitShare(): number {
    return this.work > 0 ? this.largestUnitWork / this.work : 0;
  }

  /** Index of the constellation that unit `id` belongs to. */
  constellationIndex(id: number): number {
    return lastAtOrBelow(this.#unitsBefore, this.constellations.length, id);
  }

  #unitWork(i: number, kind: Unit['kind']): number {
    const w = expectedWork(this.n, this.constellations[i]);
    return kind === 'fixes' ? w * FIXES_WORK_SHARE : w / this.#placements[i];
  }

  /** The units from..to-1, built as they are needed. */
  *unitsIn(from = 0, to = this.units): Generator<Unit, void, undefined> {
    if (from >= to) return;
    let i = this.constellationIndex(from);
    for (; i < this.constellations.length && this.#unitsBefore[i] < to; i++) {
      const s = this.constellations[i];
      const first = this.#unitsBefore[i];
      let id = first;
      if (id + this.#placements[i] > from) {
        const layout = layoutOf(this.n, s);
        const work = this.#unitWork(i, 'solutions');
        // Each step's prefix is an array of its own (walk copies its path; [] here): frozen as it is.
        for (const step of walk(layout, NOTHING_PLACED, [], this.depth)) {
          if (id >= to) return;
          if (id >= from)
            yield Object.freeze({ id, kind: 'solutions' as const, constellation: s, prefix: Object.freeze(step.prefix), work });
          id++;
        }
      } else {
        id += this.#placements[i];
      }
      if (s.symmetries !== 0 && id >= from && id < to) {
        yield Object.freeze({ id, kind: 'fixes' as const, constellation: s, prefix: Object.freeze([]), work: this.#unitWork(i, 'fixes') });
      }
    }
  }

  /**
   * The units of constellation i: the first id, how many solution units
   * follow it, and the id of its fixes unit (-1 for an asymmetric one).
   */
  span(i: number): { first: number; solutionUnits: number; fixesUnit: number } {
    const first = this.#unitsBefore[i];
    const solutionUnits = this.#placements[i];
    return { first, solutionUnits, fixesUnit: this.constellations[i].symmetries === 0 ? -1 : first + solutionUnits };
  }

  /** Estimated work of unit `id`. */
  workOf(id: number): number {
    const i = this.constellationIndex(id);
    return this.#unitWork(i, id - this.#unitsBefore[i] < this.#placements[i] ? 'solutions' : 'fixes');
  }

  /** Estimated work of the units from..to-1. */
  workIn(from: number, to: number): number {
    return this.#workBeforeUnit(to) - this.#workBeforeUnit(from);
  }

  #workBeforeUnit(id: number): number {
    if (id >= this.units) return this.work;
    const i = this.constellationIndex(id);
    const j = id - this.#unitsBefore[i];
    return this.#workBefore[i] + Math.min(j, this.#placements[i]) * this.#unitWork(i, 'solutions');
  }

  /**
   * Shard `index` of `count`: a contiguous run of units, cut by estimated
   * work (a unit goes to the shard its middle falls in), so shards come out
   * even for any count up to the number of units; the rest are empty.
   */
  shardRange(index: number, count: number): { from: number; to: number } {
    return { from: this.#firstUnitFrom((this.work * index) / count), to: this.#firstUnitFrom((this.work * (index + 1)) / count) };
  }

  /** The first unit whose middle lies at or after work `target`. */
  #firstUnitFrom(target: number): number {
    if (target <= 0) return 0;
    if (target >= this.work) return this.units;
    // From the constellation whose work range holds the target.
    for (let i = lastAtOrBelow(this.#workBefore, this.constellations.length, target); i < this.constellations.length; i++) {
      const w = this.#unitWork(i, 'solutions');
      const k = this.#placements[i];
      // A constellation estimated at no work (n = 6 has one) holds no middle past the target: its units go first.
      const j = k === 0 || !(w > 0) ? 0 : Math.max(0, Math.ceil((target - this.#workBefore[i]) / w - 0.5));
      if (j < k) return this.#unitsBefore[i] + j;
      if (this.constellations[i].symmetries !== 0) {
        const middle = this.#workBefore[i] + k * w + this.#unitWork(i, 'fixes') / 2;
        if (middle >= target) return this.#unitsBefore[i] + k;
      }
    }
    return this.units;
  }
}

/** The last index below `length` whose (ascending) value is <= `value`; 0 if none. */
function lastAtOrBelow(values: Float64Array, length: number, value: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (values[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The search's plans by n and depth: each made once, and immutable. */
const plans = new Map<string, ConstellationPlan>();

/**
 * The plan for n at a depth (0: one unit per constellation), made in steps
 * (tallySteps); the first made is every caller's (two counts of n cut for
 * other parts may make one at once).
 */
function* constellationPlanSteps(n: number, depth: number): Generator<void, ConstellationPlan, undefined> {
  const key = `${n}/${depth}`;
  const made = plans.get(key);
  if (made) return made;
  const plan = new ConstellationPlan(n, depth, yield* tallySteps(n, depth));
  if (!plans.has(key)) plans.set(key, plan);
  return plans.get(key)!;
}

/** The largest unit may be at most this share of one part's work (a thread's or a shard's). */
const UNIT_SHARE_OF_PART = 1 / 8;

/**
 * The plan at `depth`, or where that is left out at the default depth: the
 * shallowest whose largest unit (by estimate) is at most 1/8 of the work of
 * one of `parts` equal parts, up to MAX_DEPTH (below n = 6 there is nothing
 * to split). Made in steps, with the plans it looks at: count() makes them
 * in slices (n = 32's at depth 0 held the event loop 0.3 s).
 */
export function* searchPlanSteps(n: number, parts: number, depth?: number): Generator<void, ConstellationPlan, undefined> {
  if (depth !== undefined) return yield* constellationPlanSteps(n, depth);
  for (let tried = 0; ; tried++) {
    const plan = yield* constellationPlanSteps(n, tried);
    if (tried === MAX_DEPTH || plan.largestUnitWork <= (plan.work / parts) * UNIT_SHARE_OF_PART) return plan;
  }
}
