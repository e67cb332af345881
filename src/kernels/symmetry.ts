// One symmetry-search subproblem in TypeScript: the solutions containing a
// border constellation (src/constellations.ts has the decomposition). This
// file lays out the subproblem's rows and handles the rare symmetric
// constellations; the hot search is in row-search.ts.
import { type Subproblem, type SubproblemCount } from '../constellations.js';
import { boardMask } from './bitmask.js';
import { countBelow, rowAttacks, rowShift } from './row-search.js';

// Per inner row: its board row (the row tables live in row-search.ts).
const innerRow = new Int32Array(32);
const placement = new Int32Array(32);

function diagonalAttacks(n: number, row: number, qr: number, qc: number): number {
  const dist = row - qr;
  let m = 0;
  if (qc + dist >= 0 && qc + dist < n) m |= 1 << (qc + dist);
  if (qc - dist >= 0 && qc - dist < n) m |= 1 << (qc - dist);
  return m;
}

function prepare(n: number, a: number, b: number, c: number, d: number): number {
  let inner = 0;
  for (let row = 1; row < n - 1; row++) {
    if (row === c || row === d) continue;
    rowAttacks[inner] =
      diagonalAttacks(n, row, 0, a) |
      diagonalAttacks(n, row, n - 1, b) |
      diagonalAttacks(n, row, c, 0) |
      diagonalAttacks(n, row, d, n - 1);
    innerRow[inner] = row;
    if (inner > 0) rowShift[inner - 1] = row - innerRow[inner - 1];
    inner++;
  }
  return inner;
}

export function countSubproblem(n: number, s: Subproblem): SubproblemCount {
  const { a, b, c, d } = s;
  const inner = prepare(n, a, b, c, d);
  // Columns outside the board are marked used, so no separate mask is needed.
  const used = ~boardMask(n) | 1 | (1 << (n - 1)) | (1 << a) | (1 << b);
  // The same two counts as the wasm kernel's two exports: solutions, then fixes.
  const solutions = inner === 0 ? 1n : countBelow(inner, used);
  return { solutions, fixes: s.symmetries === 0 ? 0n : countFixes(n, s, inner, used) };
}

/** Bits 1..3: the quarter, half and three-quarter turns in SYMMETRIES. */
const TURNS = 0b1110;

// The fixes of the rare constellations with a non-trivial stabiliser, the
// same design as countConstellationFixes in assembly/symmetry.ts. Only a turn
// can fix a solution of n > 1 (a reflection maps some queen onto a square it
// attacks), and whatever a quarter turn fixes, the half turn fixes too. So
// one search over the half-turn-symmetric placements, where every row below
// the middle is forced by its mirror, finds them all; the quarter turns are
// checked on each.
function countFixes(n: number, s: Subproblem, inner: number, used: number): bigint {
  // n = 1: the one solution is fixed by every symmetry.
  if (n === 1) return BigInt(bitCount(s.symmetries & 0xfe));
  const turns = s.symmetries & TURNS;
  if (turns === 0) return 0n;
  const perHalfTurnFix = (turns >> 2) & 1;
  const perQuarterTurnFix = ((turns >> 1) & 1) + ((turns >> 3) & 1);
  placement[0] = s.a;
  placement[n - 1] = s.b;
  placement[s.c] = 0;
  placement[s.d] = n - 1;
  const search = (k: number, cols: number, ld: number, rd: number): number => {
    if (k === inner) return perHalfTurnFix + (perQuarterTurnFix !== 0 && isFixedByQuarterTurn(placement, n) ? perQuarterTurnFix : 0);
    const row = innerRow[k];
    const mirror = n - 1 - row;
    let avail = ~(cols | ld | rd | rowAttacks[k]);
    // The half turn maps (mirror, c) to (row, n - 1 - c); the middle row of odd n maps to itself.
    if (mirror < row) avail &= 1 << (n - 1 - placement[mirror]);
    else if (mirror === row) avail &= 1 << (n >> 1);
    const shift = rowShift[k];
    let fixes = 0;
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      placement[row] = 31 - Math.clz32(bit);
      fixes += search(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >>> shift);
    }
    return fixes;
  };
  // Symmetric solutions are a vanishing fraction, far below 2^53.
  return BigInt(search(0, used, 0, 0));
}

function bitCount(x: number): number {
  let count = 0;
  for (; x !== 0; x &= x - 1) count++;
  return count;
}

/** Does the quarter turn, (r, c) -> (c, n - 1 - r) in SYMMETRIES, map the placement to itself? */
export function isFixedByQuarterTurn(placement: ArrayLike<number>, n: number): boolean {
  for (let r = 0; r < n; r++) {
    if (placement[placement[r]] !== n - 1 - r) return false;
  }
  return true;
}
