// Solutions unchanged by a half turn (S180) and by a quarter turn (S90),
// for the unique count by Burnside's lemma: unique = (total + S180 + 2 S90) / 8
// for n >= 2. The join counts only totals, so these come from a search of
// the boards a half turn fixes: such a board is its top floor(n/2) rows
// plus their half turn (and for odd n the centre queen), so only the top
// rows are searched, one bitmask step per row. Every board found is then
// checked against the quarter turn, which fixes a subset of them.

import { rangeError } from './errors.js';

export interface SymmetricCounts {
  /** Solutions unchanged by a half turn (this includes those unchanged by a quarter turn). */
  readonly s180: bigint;
  /** Solutions unchanged by a quarter turn. */
  readonly s90: bigint;
}

/** Largest n the search takes: 2n - 1 diagonals per family in two 32-bit words. */
const MAX_N = 32;

/**
 * S180 and S90 for n = 1 to 24 (the join's range), as searchSymmetricSolutions
 * counts them (the tests check the table against it for n up to 21, the long
 * tests for 22 to 24, and the unique counts they give against OEIS A002562):
 * a count of the join then waits for no search on the calling thread (the
 * search takes about 15 ms at n = 16 before V8 has compiled it, 0.18 s at 21,
 * 4 s at 22 and half a minute at 24).
 */
const S180 = [1, 0, 0, 2, 2, 4, 8, 4, 16, 12, 48, 80, 136, 420, 1240, 3000, 8152, 18104, 44184, 144620, 375664, 1250692, 3581240, 11675080];
const S90 = [1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64, 128, 0, 0, 480, 704, 0, 0, 3328];

/** Past the table (the WebGPU engine's n >= 25): each n searched once per thread, minutes each. */
const searched = new Map<number, SymmetricCounts>();

/** S180 and S90 for board size n >= 1: from the table where it has them, else by the search (once per n). */
export function countSymmetricSolutions(n: number): SymmetricCounts {
  if (Number.isInteger(n) && n >= 1 && n <= S180.length) return { s180: BigInt(S180[n - 1]), s90: BigInt(S90[n - 1]) };
  let counts = searched.get(n);
  if (!counts) searched.set(n, (counts = searchSymmetricSolutions(n)));
  return counts;
}

/** S180 and S90 for board size 1 <= n <= 32, by the search. */
export function searchSymmetricSolutions(n: number): SymmetricCounts {
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_N))
    throw rangeError(`searchSymmetricSolutions: n must be an integer from 1 to ${MAX_N}; got ${n}`);
  const half = n >> 1;
  const mask = n === 32 ? -1 : (1 << n) - 1;
  const queenCol = new Int32Array(n);
  let s180 = 0;
  let s90 = 0;

  // The half turn sends (r, c) to (n-1-r, n-1-c): column c to n-1-c, the
  // up-diagonal u = r + c to 2n-2-u, the down-diagonal e = r - c + n - 1 to
  // 2n-2-e. cols, up and down hold every line taken by the top queens and by
  // their turned partners, so each is closed under that map.
  const search = (r: number, cols: number, upLo: number, upHi: number, downLo: number, downHi: number): void => {
    if (r === half) {
      // Odd n: the middle row's queen is its own partner, so it is the centre square.
      if (n & 1 && (cols >>> half) & 1) return;
      if (n & 1 && (bit(upLo, upHi, n - 1) || bit(downLo, downHi, n - 1))) return;
      if (n & 1) queenCol[half] = half;
      s180++;
      if (fixedByQuarterTurn()) s90++;
      return;
    }
    // Column c of row r is on up-diagonal r + c and, by the closure, on a
    // taken down-diagonal exactly when n - 1 - r + c is taken.
    let free = mask & ~cols & ~window(upLo, upHi, r) & ~window(downLo, downHi, n - 1 - r);
    while (free !== 0) {
      const low = free & -free;
      free ^= low;
      const c = 31 - Math.clz32(low);
      const u = r + c;
      const e = r - c + n - 1;
      // The queen and its partner would share a column or a diagonal.
      if (2 * c === n - 1 || u === n - 1 || e === n - 1) continue;
      queenCol[r] = c;
      queenCol[n - 1 - r] = n - 1 - c;
      const u2 = 2 * n - 2 - u;
      const e2 = 2 * n - 2 - e;
      const nextUpLo = upLo | lowBit(u) | lowBit(u2);
      const nextUpHi = upHi | lowBit(u - 32) | lowBit(u2 - 32);
      const nextDownLo = downLo | lowBit(e) | lowBit(e2);
      const nextDownHi = downHi | lowBit(e - 32) | lowBit(e2 - 32);
      search(r + 1, cols | low | (1 << (n - 1 - c)), nextUpLo, nextUpHi, nextDownLo, nextDownHi);
    }
  };

  /** The quarter turn sends (r, c) to (c, n-1-r): queenCol[c] must be n-1-r for every r. */
  const fixedByQuarterTurn = (): boolean => {
    for (let r = 0; r < n; r++) if (queenCol[queenCol[r]] !== n - 1 - r) return false;
    return true;
  };

  search(0, 0, 0, 0, 0, 0);
  return { s180: BigInt(s180), s90: BigInt(s90) };
}

/** Bits off..off+31 of the 64-bit word (hi, lo), off from 0 to 31. */
function window(lo: number, hi: number, off: number): number {
  return off === 0 ? lo : (lo >>> off) | (hi << (32 - off));
}

/** 1 << d for d from 0 to 31, else 0. */
function lowBit(d: number): number {
  return d >= 0 && d < 32 ? 1 << d : 0;
}

function bit(lo: number, hi: number, d: number): number {
  return d < 32 ? (lo >>> d) & 1 : (hi >>> (d - 32)) & 1;
}

/**
 * Burnside: 8 x the classes under the 8 symmetries of the square is the sum
 * of the boards each fixes: the total (identity), S180 (half turn), 2 x S90
 * (both quarter turns) and, for the 4 reflections, a board only at n = 1 (a
 * queen and its mirror image share a row, column or diagonal otherwise).
 * Not divisible by 8: no count gives this total.
 */
export function classesTimesEight(n: number, total: bigint, symmetric: SymmetricCounts): bigint {
  const reflected = n === 1 ? 4n * total : 0n;
  return total + symmetric.s180 + 2n * symmetric.s90 + reflected;
}

/** Burnside: classes under the 8 symmetries of the square, from the total and the two symmetric counts. */
export function uniqueFromTotal(n: number, total: bigint, symmetric: SymmetricCounts): bigint {
  return classesTimesEight(n, total, symmetric) / 8n;
}
