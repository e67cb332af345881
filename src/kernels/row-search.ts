// The hot part of the TS symmetry search: the solutions below a row of one
// prepared subproblem (src/kernels/symmetry.ts fills the row tables).
//
// Shaped for V8 rather than copied from the wasm kernel. Its cost is mostly
// mispredicted branches (the loops' trip counts and the dead-end tests are
// data), so it spends arithmetic to save branches and calls:
// - three rows per call, each row's loop written out in the caller;
// - before entering a row, "it has a free square" and "the row after it has
//   one" are tested in one branch (nonZero below);
// - the last five, six or seven rows each have their own function, the same
//   loop nest one level deeper each, so nothing is dispatched inside them;
// - the last two rows are counted without a branch (countLastTwo).
// Measured with every subproblem counted by each variant in turn (one
// process, so drift hits all alike; bench/interleaved.mjs does this for the
// engines): 0.88x the time of the previous kernel at n = 17; routing six rows
// through a one-row step instead of countSixRows cost 10% at n = 16, and one
// function for five rows and more (a branch for "two rows left" inside) 4-7%.

/** Per inner row: the border queens' attacks on it, and the distance to the next inner row. */
export const rowAttacks = new Int32Array(32);
export const rowShift = new Int32Array(32);

/** Last inner row of the current subproblem; the functions below read it. */
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

/** The solutions of a prepared subproblem with `inner` rows (>= 1) whose taken columns are `used`. */
export function countBelow(inner: number, used: number): bigint {
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

/** Solutions below row k, whose free squares are `avail` (non-zero): picks the function for the rows left. */
function countFrom(k: number, cols: number, ld: number, rd: number, avail: number): number {
  const rows = lastRow - k + 1;
  if (rows >= 8) return countRows(k, cols, ld, rd, avail);
  if (rows === 7) return countSevenRows(k, cols, ld, rd, avail);
  if (rows === 6) return countSixRows(k, cols, ld, rd, avail);
  if (rows === 5) return countFiveRows(k, cols, ld, rd, avail);
  return countFewRows(k, cols, ld, rd, avail);
}

/**
 * Eight or more rows: three rows here, then a child with three fewer. A child
 * is entered only if the row after it still has a free square, checked with
 * its queen's attacks shifted one row further; from the second row on, that
 * test and "this row has a free square" are one branch.
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
          // countFrom's choice, inline: going through countFrom is one more call per child.
          count +=
            childRows >= 8
              ? countRows(k + 3, c3, l3, r3, free3)
              : childRows === 5
                ? countFiveRows(k + 3, c3, l3, r3, free3)
                : childRows === 6
                  ? countSixRows(k + 3, c3, l3, r3, free3)
                  : countSevenRows(k + 3, c3, l3, r3, free3);
        }
      }
    }
  }
  return count;
}

/** Exactly seven rows: five placed in loops, the last two by countLastTwo. */
function countSevenRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  let count = 0;
  const s1 = rowShift[k];
  const a1 = rowAttacks[k + 1];
  const s2 = rowShift[k + 1];
  const a2 = rowAttacks[k + 2];
  const s3 = rowShift[k + 2];
  const a3 = rowAttacks[k + 3];
  const s4 = rowShift[k + 3];
  const a4 = rowAttacks[k + 4];
  const s5 = rowShift[k + 4];
  const a5 = rowAttacks[k + 5];
  const s6 = rowShift[k + 5];
  const a6 = rowAttacks[k + 6];
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
        let free3 = ~(c3 | l3 | r3 | a3);
        if ((nonZero(free3) & nonZero(~(c3 | (l3 << s4) | (r3 >>> s4) | a4))) >= 0) continue;
        while (free3 !== 0) {
          const bit3 = free3 & -free3;
          free3 ^= bit3;
          const c4 = c3 | bit3;
          const l4 = (l3 | bit3) << s4;
          const r4 = (r3 | bit3) >>> s4;
          let free4 = ~(c4 | l4 | r4 | a4);
          if ((nonZero(free4) & nonZero(~(c4 | (l4 << s5) | (r4 >>> s5) | a5))) >= 0) continue;
          while (free4 !== 0) {
            const bit4 = free4 & -free4;
            free4 ^= bit4;
            const c5 = c4 | bit4;
            const l5 = (l4 | bit4) << s5;
            const r5 = (r4 | bit4) >>> s5;
            count += countLastTwo(c5, l5, r5, ~(c5 | l5 | r5 | a5), s6, a6);
          }
        }
      }
    }
  }
  return count;
}

/** Exactly six rows: four placed in loops, the last two by countLastTwo. */
function countSixRows(k: number, cols: number, ld: number, rd: number, avail: number): number {
  let count = 0;
  const s1 = rowShift[k];
  const a1 = rowAttacks[k + 1];
  const s2 = rowShift[k + 1];
  const a2 = rowAttacks[k + 2];
  const s3 = rowShift[k + 2];
  const a3 = rowAttacks[k + 3];
  const s4 = rowShift[k + 3];
  const a4 = rowAttacks[k + 4];
  const s5 = rowShift[k + 4];
  const a5 = rowAttacks[k + 5];
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
        let free3 = ~(c3 | l3 | r3 | a3);
        if ((nonZero(free3) & nonZero(~(c3 | (l3 << s4) | (r3 >>> s4) | a4))) >= 0) continue;
        while (free3 !== 0) {
          const bit3 = free3 & -free3;
          free3 ^= bit3;
          const c4 = c3 | bit3;
          const l4 = (l3 | bit3) << s4;
          const r4 = (r3 | bit3) >>> s4;
          count += countLastTwo(c4, l4, r4, ~(c4 | l4 | r4 | a4), s5, a5);
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
