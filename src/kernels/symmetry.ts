// One symmetry-search subproblem in TypeScript: the solutions containing a
// border constellation. Mirrors assembly/symmetry.ts; see
// src/constellations.ts for the decomposition.
import { SYMMETRIES, type Subproblem, type SubproblemCount } from '../constellations.js';
import { boardMask } from './bitmask.js';
import { FLUSH_AT, SafeCounter } from './safe-counter.js';

// Per inner row: the border queens' attacks and the distance to the next inner row.
const rowAttacks = new Int32Array(32);
const rowShift = new Int32Array(32);
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
  if (s.symmetries !== 0) return countSymmetric(n, s, inner, used);
  const solutions = inner === 0 ? 1n : countInner(inner, used);
  return { solutions, fixes: 0n };
}

// The search below is shaped for V8 rather than copied from the wasm kernel:
// recursion three rows per call (fewer calls, state in registers), a child is
// entered only if the row after it still has a free square (checked with the
// new queen's attacks shifted one more row), and the last rows are counted
// without calls. Measured against the iterative explicit-stack loop the wasm
// kernel uses: 0.70x the time at n = 16 with two rows per call, and three
// rows per call took 0.82-0.91x the time of two.

/** Last inner row of the current subproblem; the helpers below read it. */
let lastRow = 0;

/**
 * Subtrees with at most this many rows have fewer than 18! < 2^53 leaves
 * (each row takes one of the free columns, and there are as many free
 * columns as rows), so a JS number counts them exactly.
 */
let exactRows = 18;

/** Test hook: make the bigint path above the number path run at small n. */
export function setExactRows(rows: number): void {
  exactRows = rows;
}

function countInner(inner: number, used: number): bigint {
  const avail = ~(used | rowAttacks[0]);
  if (avail === 0) return 0n;
  lastRow = inner - 1;
  return countWide(0, used, 0, 0, avail);
}

/**
 * Rows far from the bottom at large n: the subtree's count can pass 2^53, so
 * add bigints. It hands over to countRows with a number of rows that three-row
 * steps bring down to one, two or three, never four.
 */
function countWide(k: number, cols: number, ld: number, rd: number, avail: number): bigint {
  const rows = lastRow - k + 1;
  if (rows <= exactRows && (rows % 3 !== 1 || rows === 1)) return BigInt(countRows(k, cols, ld, rd, avail));
  if (k === lastRow) return 1n;
  let total = 0n;
  const shift = rowShift[k];
  const attacks = rowAttacks[k + 1];
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const nc = cols | bit;
    const nl = (ld | bit) << shift;
    const nr = (rd | bit) >>> shift;
    const next = ~(nc | nl | nr | attacks);
    if (next !== 0) total += countWide(k + 1, nc, nl, nr, next);
  }
  return total;
}

/**
 * Solutions below row k, whose free squares are `avail` (non-zero). Three
 * rows per call; the rows left (lastRow - k + 1) are never 4 (see countWide).
 */
function countRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  if (k >= lastRow - 2) return countLastRows(k, cols, ld, rd, avail);
  let count = 0;
  const s1 = rowShift[k];
  const a1 = rowAttacks[k + 1];
  const s2 = rowShift[k + 1];
  const a2 = rowAttacks[k + 2];
  const s3 = rowShift[k + 2];
  const a3 = rowAttacks[k + 3];
  const s4 = rowShift[k + 3];
  const a4 = rowAttacks[k + 4];
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const c1 = cols | bit;
    const l1 = (ld | bit) << s1;
    const r1 = (rd | bit) >>> s1;
    let free1 = ~(c1 | l1 | r1 | a1);
    while (free1 !== 0) {
      const bit1 = free1 & -free1;
      free1 ^= bit1;
      const c2 = c1 | bit1;
      const l2 = (l1 | bit1) << s2;
      const r2 = (r1 | bit1) >>> s2;
      let free2 = ~(c2 | l2 | r2 | a2);
      // Look one row further: without a free square there, this is a dead end.
      if (free2 === 0 || ~(c2 | (l2 << s3) | (r2 >>> s3) | a3) === 0) continue;
      while (free2 !== 0) {
        const bit2 = free2 & -free2;
        free2 ^= bit2;
        const c3 = c2 | bit2;
        const l3 = (l2 | bit2) << s3;
        const r3 = (r2 | bit2) >>> s3;
        const free3 = ~(c3 | l3 | r3 | a3);
        if (free3 !== 0 && ~(c3 | (l3 << s4) | (r3 >>> s4) | a4) !== 0) count += countRows(k + 3, c3, l3, r3, free3);
      }
    }
  }
  return count;
}

/**
 * At most three rows left (k >= lastRow - 2): count them without further
 * calls. Its loops repeat the shape of countRows' levels on purpose: these are
 * the hottest rows, and a call per row here is what the shape avoids.
 */
function countLastRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  if (k === lastRow) return 1; // one row, and it has a free square
  let count = 0;
  const s1 = rowShift[k];
  const a1 = rowAttacks[k + 1];
  if (k === lastRow - 1) {
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      if (~(cols | bit | ((ld | bit) << s1) | ((rd | bit) >>> s1) | a1) !== 0) count++;
    }
    return count;
  }
  const s2 = rowShift[k + 1];
  const a2 = rowAttacks[k + 2];
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const c1 = cols | bit;
    const l1 = (ld | bit) << s1;
    const r1 = (rd | bit) >>> s1;
    let free1 = ~(c1 | l1 | r1 | a1);
    while (free1 !== 0) {
      const bit1 = free1 & -free1;
      free1 ^= bit1;
      if (~(c1 | bit1 | ((l1 | bit1) << s2) | ((r1 | bit1) >>> s2) | a2) !== 0) count++;
    }
  }
  return count;
}

// The rare constellations with a non-trivial stabiliser: a recursive search
// that keeps the placement, so each solution can be tested against the
// symmetries that fix its constellation.
function countSymmetric(n: number, s: Subproblem, inner: number, used: number): SubproblemCount {
  placement[0] = s.a;
  placement[n - 1] = s.b;
  placement[s.c] = 0;
  placement[s.d] = n - 1;
  const symmetries: number[] = [];
  for (let g = 1; g < 8; g++) if ((s.symmetries >> g) & 1) symmetries.push(g);
  const counter = new SafeCounter();
  let solutions = 0;
  let fixes = 0;
  const search = (k: number, cols: number, ld: number, rd: number): void => {
    if (k === inner) {
      if (++solutions >= FLUSH_AT) solutions = counter.flush(solutions);
      for (const g of symmetries) if (isFixedBy(placement, n, g)) fixes++;
      return;
    }
    const shift = rowShift[k];
    let avail = ~(cols | ld | rd | rowAttacks[k]);
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      placement[innerRow[k]] = 31 - Math.clz32(bit);
      search(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >>> shift);
    }
  };
  search(0, used, 0, 0);
  // Fixed solutions are a vanishing fraction (at most 1 in n/2 or so), far below 2^53.
  return { solutions: counter.total(solutions), fixes: BigInt(fixes) };
}

/** Does symmetry g (1..7 in SYMMETRIES) map the placement to itself? */
export function isFixedBy(placement: ArrayLike<number>, n: number, g: number): boolean {
  const map = SYMMETRIES[g];
  for (let r = 0; r < n; r++) {
    // The image of the queen (r, c) must be a queen too.
    const [row, col] = map(n, r, placement[r]);
    if (placement[row] !== col) return false;
  }
  return true;
}
