// One symmetry-search subproblem in TypeScript: the solutions containing a
// border constellation. Mirrors assembly/symmetry.ts; see
// src/constellations.ts for the decomposition.
import { type Subproblem, type SubproblemCount } from '../constellations.js';
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

// The search below is shaped for V8 rather than copied from the wasm kernel.
// Its cost is mostly mispredicted branches (the loops' trip counts and the
// dead-end tests are data), so it spends arithmetic to save branches:
// recursion three rows per call, the two tests before entering a child
// merged into one branch, a separate function for the last five rows (no
// dispatch inside it), and the last two rows counted without a branch.
// At n = 16-17 it takes 0.81-0.84x the time of the previous three-rows-per-call
// search, which took 0.65-0.68x the time of the wasm kernel's explicit-stack loop.

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

/** Rows far from the bottom at large n: the subtree's count can pass 2^53, so add bigints. */
function countWide(k: number, cols: number, ld: number, rd: number, avail: number): bigint {
  if (lastRow - k + 1 <= exactRows) return BigInt(countFrom(k, cols, ld, rd, avail));
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

/** Non-zero as a sign bit: negative when x !== 0 (x | -x keeps the top bit of either). */
const nonZero = (x: number): number => x | -x;

/**
 * Solutions below row k, whose free squares are `avail` (non-zero), for any
 * number of rows: hands over to the function for it, or places one row here
 * when three-row steps would not end in five rows (6, 7, 10, 13, ...).
 */
function countFrom(k: number, cols: number, ld: number, rd: number, avail: number): number {
  const rows = lastRow - k + 1;
  if (rows >= 8 && rows % 3 !== 1) return countRows(k, cols, ld, rd, avail);
  if (rows === 5) return countFiveRows(k, cols, ld, rd, avail);
  if (rows <= 4) return countFewRows(k, cols, ld, rd, avail);
  let count = 0;
  const s1 = rowShift[k];
  const a1 = rowAttacks[k + 1];
  const s2 = rowShift[k + 1];
  const a2 = rowAttacks[k + 2];
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const c1 = cols | bit;
    const l1 = (ld | bit) << s1;
    const r1 = (rd | bit) >>> s1;
    const free1 = ~(c1 | l1 | r1 | a1);
    // Both this row and the next need a free square: one branch for the two tests.
    if ((nonZero(free1) & nonZero(~(c1 | (l1 << s2) | (r1 >>> s2) | a2))) < 0) {
      count += countFrom(k + 1, c1, l1, r1, free1);
    }
  }
  return count;
}

/**
 * Eight or more rows, never 1 mod 3 (10, 13, ...): three rows here, then a
 * child with three fewer (5, 6, 8, 9, ...). A child is entered only if the
 * row after it still has a free square, checked with its queen's attacks
 * shifted one row further.
 */
function countRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  const childRows = lastRow - k + 1 - 3;
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
      if ((nonZero(free2) & nonZero(~(c2 | (l2 << s3) | (r2 >>> s3) | a3))) >= 0) continue;
      while (free2 !== 0) {
        const bit2 = free2 & -free2;
        free2 ^= bit2;
        const c3 = c2 | bit2;
        const l3 = (l2 | bit2) << s3;
        const r3 = (r2 | bit2) >>> s3;
        const free3 = ~(c3 | l3 | r3 | a3);
        if ((nonZero(free3) & nonZero(~(c3 | (l3 << s4) | (r3 >>> s4) | a4))) < 0) {
          count +=
            childRows >= 8
              ? countRows(k + 3, c3, l3, r3, free3)
              : childRows === 5
                ? countFiveRows(k + 3, c3, l3, r3, free3)
                : countFrom(k + 3, c3, l3, r3, free3);
        }
      }
    }
  }
  return count;
}

/** Exactly five rows: three placed in loops, the last two by countLastTwo. */
function countFiveRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
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
      if ((nonZero(free2) & nonZero(~(c2 | (l2 << s3) | (r2 >>> s3) | a3))) >= 0) continue;
      while (free2 !== 0) {
        const bit2 = free2 & -free2;
        free2 ^= bit2;
        const c3 = c2 | bit2;
        const l3 = (l2 | bit2) << s3;
        const r3 = (r2 | bit2) >>> s3;
        count += countLastTwo(c3, l3, r3, ~(c3 | l3 | r3 | a3), s4, a4);
      }
    }
  }
  return count;
}

/** At most four rows (small boards, or the bigint path's hand-over): one row per call. */
function countFewRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  if (k === lastRow) return 1; // one row, and it has a free square
  const shift = rowShift[k];
  const attacks = rowAttacks[k + 1];
  if (k === lastRow - 1) return countLastTwo(cols, ld, rd, avail, shift, attacks);
  let count = 0;
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const nc = cols | bit;
    const nl = (ld | bit) << shift;
    const nr = (rd | bit) >>> shift;
    const next = ~(nc | nl | nr | attacks);
    if (next !== 0) count += countFewRows(k + 1, nc, nl, nr, next);
  }
  return count;
}

/**
 * The last two rows, without a branch. Exactly two columns x and y are left
 * (as many free columns as rows), so there are two ways to finish: x in this
 * row and y in the next, or the other way round. `avail` is this row's free
 * squares (may be 0), `shift` and `attacks` describe the next row.
 */
function countLastTwo(cols: number, ld: number, rd: number, avail: number, shift: number, attacks: number): number {
  const both = ~cols;
  const x = both & -both;
  const y = both ^ x;
  // Each way is valid when its first column is free here and its second is not attacked there.
  const xFirst = (avail & x) | (y & ~(((ld | x) << shift) | ((rd | x) >>> shift) | attacks));
  const yFirst = (avail & y) | (x & ~(((ld | y) << shift) | ((rd | y) >>> shift) | attacks));
  // (v >>> 31) of nonZero(v) is 1 when v !== 0, i.e. when a way fails.
  return 2 - ((nonZero(xFirst ^ both) >>> 31) + (nonZero(yFirst ^ both) >>> 31));
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

/**
 * Does symmetry g (1..7 in SYMMETRIES) map the placement to itself? The maps
 * are spelled out rather than called through SYMMETRIES, which returns a new
 * array per cell: this runs once per solution of a symmetric constellation.
 */
export function isFixedBy(placement: ArrayLike<number>, n: number, g: number): boolean {
  const m = n - 1;
  for (let r = 0; r <= m; r++) {
    const c = placement[r];
    // The image of the queen (r, c) must be a queen too.
    let ok: boolean;
    switch (g) {
      case 1: ok = placement[c] === m - r; break; // quarter turn: (c, m - r)
      case 2: ok = placement[m - r] === m - c; break; // half turn
      case 3: ok = placement[m - c] === r; break; // three-quarter turn
      case 4: ok = c === m - c; break; // mirror left-right: (r, m - c)
      case 5: ok = placement[m - r] === c; break; // mirror top-bottom
      case 6: ok = placement[c] === r; break; // transpose
      default: ok = placement[m - c] === m - r; // anti-transpose
    }
    if (!ok) return false;
  }
  return true;
}
