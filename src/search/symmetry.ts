// One symmetry-search subproblem in TypeScript: the solutions containing a
// border constellation (src/search/constellations.ts has the decomposition). This
// file lays out the subproblem's rows and handles the rare symmetric
// constellations; the hot search is in row-search.ts.
import { type Subproblem, type SubproblemCount } from './constellations.js';
import { popcount } from '../shared/bits.js';
import { boardMask } from '../shared/board-mask.js';
import { countBelow, rowAttacks, rowShift } from './row-search.js';

// Per inner row: its board row (the row tables live in row-search.ts).
const innerRow = new Int32Array(32);
const placement = new Int32Array(32);

/** The squares of `row` that a queen at (qr, qc) attacks diagonally. */
export function diagonalAttacks(n: number, row: number, qr: number, qc: number): number {
  const dist = row - qr;
  let m = 0;
  if (qc + dist >= 0 && qc + dist < n) m |= 1 << (qc + dist);
  if (qc - dist >= 0 && qc - dist < n) m |= 1 << (qc - dist);
  return m;
}

/**
 * Fills the row tables; returns the number of inner rows left to search. The
 * first `placed.rows` inner rows of a refined unit already hold queens: they
 * are skipped, and their diagonals (`ld`/`rd`, as a top-down search carries
 * them into the next inner row) are added to the attacks of the rows below.
 */
export function prepare(n: number, a: number, b: number, c: number, d: number, placed: PlacedRows = NONE_PLACED): number {
  let inner = 0;
  let skip = placed.rows;
  let first = -1;
  for (let row = 1; row < n - 1; row++) {
    if (row === c || row === d) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    if (first < 0) first = row;
    rowAttacks[inner] =
      diagonalAttacks(n, row, 0, a) |
      diagonalAttacks(n, row, n - 1, b) |
      diagonalAttacks(n, row, c, 0) |
      diagonalAttacks(n, row, d, n - 1) |
      (placed.ld << (row - first)) |
      (placed.rd >>> (row - first));
    innerRow[inner] = row;
    if (inner > 0) rowShift[inner - 1] = row - innerRow[inner - 1];
    inner++;
  }
  return inner;
}

/**
 * Queens already placed in the first `rows` inner rows (top-down) of a
 * constellation: the columns they take, and their diagonals as a top-down
 * search carries them into the next inner row.
 */
export interface PlacedRows {
  readonly rows: number;
  readonly cols: number;
  readonly ld: number;
  readonly rd: number;
}

const NONE_PLACED: PlacedRows = { rows: 0, cols: 0, ld: 0, rd: 0 };

/** The border queens' columns; columns outside the board are marked used, so no separate mask is needed. */
export function borderColumns(n: number, s: Pick<Subproblem, 'a' | 'b'>): number {
  return ~boardMask(n) | 1 | (1 << (n - 1)) | (1 << s.a) | (1 << s.b);
}

/** The solutions containing the constellation and the placed rows (symmetries ignored). */
export function countPlaced(n: number, s: Subproblem, placed: PlacedRows): bigint {
  const inner = prepare(n, s.a, s.b, s.c, s.d, placed);
  const used = borderColumns(n, s) | placed.cols;
  return inner === 0 ? 1n : countBelow(inner, used);
}

/** Only the fixes of a symmetric constellation (its solutions are counted elsewhere: other plan units, or the GPU). */
export function countFixesOnly(n: number, s: Subproblem): bigint {
  return s.symmetries === 0 ? 0n : countFixes(n, s);
}

export function countSubproblem(n: number, s: Subproblem): SubproblemCount {
  const inner = prepare(n, s.a, s.b, s.c, s.d);
  const used = borderColumns(n, s);
  // The same two counts as the wasm kernel's two exports: solutions, then fixes.
  const solutions = inner === 0 ? 1n : countBelow(inner, used);
  return { solutions, fixes: countFixesOnly(n, s) };
}

/** Bits 1..3: the quarter, half and three-quarter turns in SYMMETRIES. */
const TURNS = 0b1110;

// The lines taken while the fixes are searched, one flag each: column c at c,
// diagonal row + c at 32 + row + c, diagonal row - c at 127 + row - c.
const taken = new Uint8Array(160);
// The rows above the middle that have no border queen, top down.
const pairRow = new Int32Array(16);

// The fixes of the rare constellations with a non-trivial stabiliser. Only a
// turn can fix a solution of n > 1 (a reflection maps some queen onto a square
// it attacks), and whatever a quarter turn fixes, the half turn fixes too. So
// one search over the half-turn-symmetric placements finds them all, and the
// quarter turns are checked on each. It places a queen and its half-turn image
// together, a row above the middle and its mirror below, so the tree is about
// the square root of a row-by-row search's (n = 20: 0.3 s in all, where the
// row-by-row search took 5.9 s; the GPU engine runs it between dispatches).
// assembly/search/symmetry.ts still searches row by row: the tests compare the two.
function countFixes(n: number, s: Subproblem): bigint {
  // n = 1: the one solution is fixed by every symmetry.
  if (n === 1) return BigInt(popcount(s.symmetries & 0xfe));
  const turns = s.symmetries & TURNS;
  if (turns === 0) return 0n;
  const perHalfTurnFix = (turns >> 2) & 1;
  const perQuarterTurnFix = ((turns >> 1) & 1) + ((turns >> 3) & 1);
  taken.fill(0);
  placement.fill(-1);
  // The border queens (a corner queen is one queen on two borders; those of the plan never attack each other).
  const rows = [0, n - 1, s.c, s.d];
  const cols = [s.a, s.b, 0, n - 1];
  for (let q = 0; q < 4; q++) if (placement[rows[q]] < 0) take(rows[q], cols[q], 1);
  let pairs = 0;
  for (let row = 1; row < n - 1 - row; row++) if (placement[row] < 0) pairRow[pairs++] = row;
  // Odd n: the half turn maps the middle square to itself, so the middle row's queen stands there.
  const middle = n & 1 && placement[n >> 1] < 0 ? n >> 1 : -1;
  const search = (k: number): number => {
    if (k === pairs) {
      if (middle >= 0 && !free(middle, middle)) return 0;
      placement[middle] = middle; // (placement[-1] is no element)
      return perHalfTurnFix + (perQuarterTurnFix !== 0 && isFixedByQuarterTurn(placement, n) ? perQuarterTurnFix : 0);
    }
    const row = pairRow[k];
    const mirror = n - 1 - row;
    let fixes = 0;
    for (let col = 0; col < n; col++) {
      const image = n - 1 - col;
      // A queen and its image may not share a column or a diagonal (row + col === n - 1, or row === col).
      if (col === image || row + col === n - 1 || row === col || !free(row, col) || !free(mirror, image)) continue;
      take(row, col, 1);
      take(mirror, image, 1);
      fixes += search(k + 1);
      take(mirror, image, 0);
      take(row, col, 0);
    }
    return fixes;
  };
  // Symmetric solutions are a vanishing fraction, far below 2^53.
  return BigInt(search(0));
}

function free(row: number, col: number): boolean {
  return (taken[col] | taken[32 + row + col] | taken[127 + row - col]) === 0;
}

/** Takes (flag 1) or frees (flag 0) the square's column and diagonals, and records or clears its queen. */
function take(row: number, col: number, flag: 0 | 1): void {
  taken[col] = taken[32 + row + col] = taken[127 + row - col] = flag;
  placement[row] = flag === 1 ? col : -1;
}

/** Does the quarter turn, (r, c) -> (c, n - 1 - r) in SYMMETRIES, map the placement to itself? */
export function isFixedByQuarterTurn(placement: ArrayLike<number>, n: number): boolean {
  for (let r = 0; r < n; r++) {
    if (placement[placement[r]] !== n - 1 - r) return false;
  }
  return true;
}
