// The symmetry search's subproblem list. A border constellation is the four
// queens on the border lines of a solution: row 0 (column a), row n-1
// (column b), column 0 (row c) and column n-1 (row d); a corner queen stands
// on two lines at once. Every solution has exactly one constellation, and the
// eight symmetries of the square (the dihedral group D4) act on solutions and
// constellations alike. So one constellation per D4 class is enough:
//   total  = sum over kept constellations of f * 8 / h
//   unique = sum over kept constellations of (f + fixes) / h
// where f counts the solutions containing it, h is the size of its
// stabiliser, and fixes counts the pairs (solution, non-identity element of
// the stabiliser) where the element maps the solution to itself (Burnside's
// lemma, applied inside the class).
//
// The list is a pure function of n: ids are positions in it, so threads,
// shards and checkpoints all refer to the same subproblems.
import { finish } from '../shared/slices.js';

export interface Subproblem {
  /** Position in the list for this n; stable across runs and versions of one format. */
  readonly id: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  /** Size of the stabiliser in D4: 1, 2, 4 or 8. */
  readonly stabiliser: number;
  /** Members of the class, 8 / stabiliser: each solution found here stands for this many. */
  readonly weight: number;
  /** Bit g is set when symmetry g (1..7 in SYMMETRIES) maps the constellation to itself. */
  readonly symmetries: number;
  /** Rows left to search after the border queens; a rough size for scheduling. */
  readonly innerRows: number;
}

/** The count of one subproblem. */
export interface SubproblemCount {
  /** Solutions containing the constellation. */
  readonly solutions: bigint;
  /** Pairs (solution, symmetry in `symmetries`) where the symmetry maps the solution to itself. */
  readonly fixes: bigint;
}

type Cell = readonly [row: number, col: number];

// The eight symmetries of the n x n board as maps on cells; the kernels use
// the same numbering.
export const SYMMETRIES: ReadonlyArray<(n: number, r: number, c: number) => Cell> = [
  (_n, r, c) => [r, c],
  (n, r, c) => [c, n - 1 - r], // quarter turn
  (n, r, c) => [n - 1 - r, n - 1 - c], // half turn
  (n, r, c) => [n - 1 - c, r], // three-quarter turn
  (n, r, c) => [r, n - 1 - c], // mirror left-right
  (n, r, c) => [n - 1 - r, c], // mirror top-bottom
  (_n, r, c) => [c, r], // transpose
  (n, r, c) => [n - 1 - c, n - 1 - r], // anti-transpose
];

function encode(n: number, a: number, b: number, c: number, d: number): number {
  return ((a * n + b) * n + c) * n + d;
}

/**
 * The constellation (a, b, c, d) moved by each of SYMMETRIES, written into
 * `out` as four queens per symmetry (out[4g..4g+3]): each border line maps
 * onto a border line, so each queen's new line and place follow from where
 * the symmetry sends its cell (a corner queen, on two lines, follows both).
 * One call per constellation (and one per image), no array, code or closure: the
 * plan of n = 21 tries 194,481 constellations, and a count's first plan
 * runs before V8 compiles it: with two calls per image (one through a
 * callback), n = 20's list took a median 29.8 ms in a fresh process, 22.5
 * so (7 runs each, one pinned core of the 2-core EPYC, 2026-11-28).
 * test/constellations.test.ts checks the list against SYMMETRIES' images.
 */
function writeImages(m: number, a: number, b: number, c: number, d: number, out: Int32Array): void {
  put(out, 0, a, b, c, d);
  put(out, 1, m - c, m - d, b, a); // quarter turn: (0, a) lands on column m at row a, (m, b) on column 0 at row b, ...
  put(out, 2, m - b, m - a, m - d, m - c); // half turn
  put(out, 3, d, c, m - a, m - b); // three-quarter turn
  put(out, 4, m - a, m - b, d, c); // mirror left-right
  put(out, 5, b, a, m - c, m - d); // mirror top-bottom
  put(out, 6, c, d, a, b); // transpose
  put(out, 7, m - d, m - c, m - b, m - a); // anti-transpose
}

/** Writes image g's four queens. */
function put(out: Int32Array, g: number, a: number, b: number, c: number, d: number): void {
  out[4 * g] = a;
  out[4 * g + 1] = b;
  out[4 * g + 2] = c;
  out[4 * g + 3] = d;
}

/** Whether queens on (r1, c1) and (r2, c2) attack each other; one queen listed twice (a corner) does not. */
function attacks(r1: number, c1: number, r2: number, c2: number): boolean {
  if (r1 === r2 && c1 === c2) return false;
  return r1 === r2 || c1 === c2 || r1 - c1 === r2 - c2 || r1 + c1 === r2 + c2;
}

/**
 * Every member of a class has the same counts, but not the same search cost:
 * the search runs top-down, and some orientations prune far earlier. This
 * score (lower is cheaper) picks the orientation with the bottom queen near an
 * edge, both side queens low on the board and the top queen near the bottom
 * one. It was fitted on node counts for n = 12..15, where it searches about
 * 1.65x fewer nodes than the canonical orientation (the best possible is
 * 1.75x). Doubled, so that it is an integer (twice the middle column is
 * n - 1): a count's first plan runs before V8 compiles it, where each
 * fraction is a new heap number to collect.
 */
function searchCostScore(m: number, a: number, b: number, c: number, d: number): number {
  return -2 * Math.abs(2 * b - m) - 2 * Math.min(c, d) + 2 * Math.abs(a - b);
}

/** The symmetry (index into SYMMETRIES) whose image in `images` scores lowest; the first of them on a tie. */
function cheapestOrientation(m: number, images: Int32Array): number {
  let best = 0;
  let bestScore = Infinity;
  for (let g = 0; g < 8; g++) {
    const i = 4 * g;
    const score = searchCostScore(m, images[i], images[i + 1], images[i + 2], images[i + 3]);
    if (score < bestScore) {
      bestScore = score;
      best = g;
    }
  }
  return best;
}

/**
 * A subproblem's expected search cost, relative to one with n - 4 inner rows
 * (no corner queen). A corner queen leaves one more row to search; measured
 * mean cost ratios of those subproblems: 3.9 at n = 14, 5.3 at 15, 5.7 at 16,
 * 6.9 at 17, about (n - 4) / 2. Progress weights subproblems by it, so the
 * largest-first order does not make early estimates pessimistic.
 */
export function expectedWork(n: number, s: Pick<Subproblem, 'innerRows'>): number {
  return Math.max(1, (n - 4) / 2) ** (s.innerRows - (n - 4));
}

const plans = new Map<number, readonly Subproblem[]>();

/** The subproblems of the symmetry search, largest first. */
export function planSubproblems(n: number): readonly Subproblem[] {
  return finish(subproblemSteps(n));
}

/**
 * planSubproblems(n) made in steps (a row of the bottom queen's each), for
 * a count that makes its plan in slices (n = 32: 83,190 of them, 0.1 s).
 * Counts at once share the plan being made (search-plan.ts), and so this.
 */
export function* subproblemSteps(n: number): Generator<void, readonly Subproblem[], undefined> {
  let list = plans.get(n);
  if (!list) {
    const made = yield* makeSubproblems(n);
    // Unless planSubproblems(n) made one meanwhile: every plan of n holds the same subproblems.
    list = plans.get(n) ?? made;
    plans.set(n, list);
  }
  return list;
}

function* makeSubproblems(n: number): Generator<void, readonly Subproblem[], undefined> {
  const list: { -readonly [K in keyof Subproblem]: Subproblem[K] }[] = [];
  const m = n - 1;
  const images = new Int32Array(32);
  // A constellation is kept only where no image has a smaller code, so a is at most each image's first
  // queen (m - a, b, m - b, c, m - c, d, m - d): the loops skip the rest. Each queen is then tried only
  // beside the ones before it that it leaves alone.
  for (let a = 0; 2 * a <= m; a++) {
    for (let b = a; b <= m - a; b++) {
      yield;
      if (attacks(0, a, m, b)) continue;
      for (let c = a; c <= m - a; c++) {
        if (attacks(0, a, c, 0) || attacks(m, b, c, 0)) continue;
        for (let d = a; d <= m - a; d++) {
          if (attacks(0, a, d, m) || attacks(m, b, d, m) || attacks(c, 0, d, m)) continue;
          writeImages(m, a, b, c, d, images);
          const code = encode(n, a, b, c, d);
          let canonical = true;
          let stabiliser = 1;
          let symmetries = 0;
          for (let g = 1; g < 8; g++) {
            const i = 4 * g;
            const image = ((images[i] * n + images[i + 1]) * n + images[i + 2]) * n + images[i + 3];
            if (image < code) {
              canonical = false;
              break;
            }
            if (image === code) {
              stabiliser++;
              symmetries |= 1 << g;
            }
          }
          if (!canonical) continue;
          const best = 4 * cheapestOrientation(m, images);
          const sa = images[best],
            sb = images[best + 1],
            sc = images[best + 2],
            sd = images[best + 3];
          // Rows with a border queen: the top and bottom (one row at n = 1), and each side queen's where it is neither, nor shared.
          const borderRows = (m === 0 ? 1 : 2) + (sc !== 0 && sc !== m ? 1 : 0) + (sd !== 0 && sd !== m && sd !== sc ? 1 : 0);
          list.push({ id: 0, a: sa, b: sb, c: sc, d: sd, stabiliser, weight: 8 / stabiliser, symmetries, innerRows: n - borderRows });
        }
      }
    }
  }
  // Largest first (more rows left to search), so a pool finishes evenly.
  list.sort((p, q) => q.innerRows - p.innerRows);
  // Frozen all the way down: this cached list is shared by every count.
  // Each numbered in place: a copy per subproblem, spread in code not yet compiled, was 4-5 ms of n = 20's first plan.
  list.forEach((s, id) => {
    s.id = id;
    Object.freeze(s);
  });
  return Object.freeze(list) as readonly Subproblem[];
}

/** What one subproblem adds to the total and to the unique count. */
export function contribution(s: Subproblem, r: SubproblemCount): { total: bigint; unique: bigint } {
  const h = BigInt(s.stabiliser);
  // Burnside inside the class: the classes of solutions met here number the
  // solutions fixed by each element of the stabiliser, summed, divided by h.
  return { total: r.solutions * BigInt(s.weight), unique: (r.solutions + r.fixes) / h };
}
