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

function cellsOf(n: number, a: number, b: number, c: number, d: number): Cell[] {
  return [
    [0, a],
    [n - 1, b],
    [c, 0],
    [d, n - 1],
  ];
}

/** The constellation of a set of border cells (each border line holds exactly one). */
function constellationOf(n: number, cells: readonly Cell[]): number {
  let a = -1;
  let b = -1;
  let c = -1;
  let d = -1;
  for (const [r, col] of cells) {
    if (r === 0) a = col;
    if (r === n - 1) b = col;
    if (col === 0) c = r;
    if (col === n - 1) d = r;
  }
  return encode(n, a, b, c, d);
}

function encode(n: number, a: number, b: number, c: number, d: number): number {
  return ((a * n + b) * n + c) * n + d;
}

function decode(n: number, code: number): [number, number, number, number] {
  const d = code % n;
  const c = Math.floor(code / n) % n;
  const b = Math.floor(code / (n * n)) % n;
  const a = Math.floor(code / (n * n * n));
  return [a, b, c, d];
}

function attacks(p: Cell, q: Cell): boolean {
  return p[0] === q[0] || p[1] === q[1] || p[0] - p[1] === q[0] - q[1] || p[0] + p[1] === q[0] + q[1];
}

function isPlaceable(cells: readonly Cell[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      const p = cells[i];
      const q = cells[j];
      if (p[0] === q[0] && p[1] === q[1]) continue; // a corner queen, listed twice
      if (attacks(p, q)) return false;
    }
  }
  return true;
}

/**
 * Every member of a class has the same counts, but not the same search cost:
 * the search runs top-down, and some orientations prune far earlier. This
 * score (lower is cheaper) picks the orientation with the bottom queen near an
 * edge, both side queens low on the board and the top queen near the bottom
 * one. It was fitted on node counts for n = 12..15, where it searches about
 * 1.65x fewer nodes than the canonical orientation (the best possible is 1.75x).
 */
function searchCostScore(n: number, a: number, b: number, c: number, d: number): number {
  const middle = (n - 1) / 2;
  return -2 * Math.abs(b - middle) - Math.min(c, d) + Math.abs(a - b);
}

function cheapestOrientation(n: number, cells: readonly Cell[]): [number, number, number, number] {
  let best: [number, number, number, number] = [0, 0, 0, 0];
  let bestScore = Infinity;
  for (const g of SYMMETRIES) {
    const code = constellationOf(
      n,
      cells.map(([r, col]) => g(n, r, col)),
    );
    const [a, b, c, d] = decode(n, code);
    const score = searchCostScore(n, a, b, c, d);
    if (score < bestScore) {
      bestScore = score;
      best = [a, b, c, d];
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
  const cached = plans.get(n);
  if (cached) return cached;
  const list: Omit<Subproblem, 'id'>[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      for (let c = 0; c < n; c++) {
        for (let d = 0; d < n; d++) {
          const cells = cellsOf(n, a, b, c, d);
          if (!isPlaceable(cells)) continue;
          const code = encode(n, a, b, c, d);
          let canonical = true;
          let stabiliser = 0;
          let symmetries = 0;
          for (let g = 0; g < SYMMETRIES.length && canonical; g++) {
            const image = constellationOf(
              n,
              cells.map(([r, col]) => SYMMETRIES[g](n, r, col)),
            );
            if (image < code) canonical = false;
            if (image === code) {
              stabiliser++;
              if (g > 0) symmetries |= 1 << g;
            }
          }
          if (!canonical) continue;
          const [sa, sb, sc, sd] = cheapestOrientation(n, cells);
          const rows = new Set([0, n - 1, sc, sd]);
          list.push({ a: sa, b: sb, c: sc, d: sd, stabiliser, weight: 8 / stabiliser, symmetries, innerRows: n - rows.size });
        }
      }
    }
  }
  // Largest first (more rows left to search), so a pool finishes evenly.
  list.sort((p, q) => q.innerRows - p.innerRows);
  // Frozen all the way down: this cached list is shared by every count.
  const plan = Object.freeze(list.map((s, id) => Object.freeze({ id, ...s })));
  plans.set(n, plan);
  return plan;
}

/** What one subproblem adds to the total and to the unique count. */
export function contribution(s: Subproblem, r: SubproblemCount): { total: bigint; unique: bigint } {
  const h = BigInt(s.stabiliser);
  // Burnside inside the class: the classes of solutions met here number the
  // solutions fixed by each element of the stabiliser, summed, divided by h.
  return { total: r.solutions * BigInt(s.weight), unique: (r.solutions + r.fixes) / h };
}
