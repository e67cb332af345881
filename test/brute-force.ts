// Independent brute force for the tests: no package code.

/** Every permutation in lexicographic order, keeping those with no diagonal attack. */
export function bruteForce(n: number): number[][] {
  const out: number[][] = [];
  const perm: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const extend = (): void => {
    if (perm.length === n) {
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) if (Math.abs(perm[i] - perm[j]) === j - i) return;
      }
      out.push([...perm]);
      return;
    }
    for (let c = 0; c < n; c++) {
      if (used[c]) continue;
      used[c] = true;
      perm.push(c);
      extend();
      perm.pop();
      used[c] = false;
    }
  };
  extend();
  return out;
}

/**
 * One half-board join unit counted row by row, as src/join/join-plan.ts
 * defines it (independently of the join): east rows take columns 0..h-1,
 * west rows the last h, the centre row (odd n) column h. A solution counts 0
 * if an east queen stands on a long diagonal, 4 if west queens hold both,
 * `mirrorWeight` if none; with mirrorWeight 2 the east-west mirror split
 * counts too, 0 for none. For even n, one held alone counts 2 times the
 * transpose's share of the solution (transposeShare), for odd n 2.
 */
export function joinUnitByRows(n: number, unit: { eastRows: number; centreRow: number; mirrorWeight: number }): bigint {
  const h = n >> 1;
  const all = 2 ** n - 1;
  const east = (1 << h) - 1;
  const west = all & ~((1 << (n - h)) - 1);
  const centre = n % 2 === 1 ? 1 << h : 0;
  const col: number[] = new Array<number>(n).fill(0);
  const count = (eastRows: number, none: number): number => {
    const rowCols = Array.from({ length: n }, (_, r) => (r === unit.centreRow ? centre : (eastRows >>> r) & 1 ? east : west));
    const place = (r: number, cols: number, d1: number, d2: number, longs: number): number => {
      if (r === n) {
        if (longs === 0) return none;
        if (longs === 3) return 4;
        if (n % 2 === 1) return 2;
        // Main diagonal alone: the solution against its transpose; the other alone: its north-south mirror's.
        return 2 * transposeShare(n, longs === 1 ? col : col.map((_, row) => col[n - 1 - row]));
      }
      let total = 0;
      for (let free = rowCols[r] & ~(cols | d1 | d2); free !== 0;) {
        const b = free & -free;
        free ^= b;
        const c = 31 - Math.clz32(b);
        let held = longs;
        if (c === r || c === n - 1 - r) {
          if (c < h) continue; // an east queen on a long diagonal: counts 0
          if (c >= n - h) held |= c === r ? 1 : 2;
        }
        col[r] = c;
        total += place(r + 1, cols | b, ((d1 | b) << 1) & all, (d2 | b) >>> 1, held);
      }
      return total;
    };
    return place(0, 0, 0, 0, 0);
  };
  let total = count(unit.eastRows, unit.mirrorWeight);
  if (unit.mirrorWeight === 2) total += count(all & ~unit.eastRows & ~(unit.centreRow >= 0 ? 1 << unit.centreRow : 0), 0);
  return BigInt(total);
}

/**
 * The transpose's test of join-plan.ts on a whole board (col[r]: row r's
 * queen), even n: the set of south-band rows whose queen stands east, against
 * the set of west columns whose queen stands in the north band (the same
 * for the transposed board), each read as a number whose bit n - 1 - x is
 * row or column x: 2 if the board's is below its transpose's, 1 if equal, 0 if above.
 */
export function transposeShare(n: number, col: readonly number[]): number {
  const h = n >> 1;
  let board = 0;
  let transposed = 0;
  for (let x = n - h; x < n; x++) {
    if (col[x] < h) board += 2 ** (n - 1 - x);
    if (col.indexOf(x) < h) transposed += 2 ** (n - 1 - x);
  }
  return board < transposed ? 2 : board === transposed ? 1 : 0;
}
