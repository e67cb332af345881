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
 * if an east queen stands on a long diagonal, else 2 per long diagonal a west
 * queen holds, or `mirrorWeight` if none; with mirrorWeight 2 the east-west
 * mirror split counts too, 0 for none.
 */
export function joinUnitByRows(n: number, unit: { eastRows: number; centreRow: number; mirrorWeight: number }): bigint {
  const h = n >> 1;
  const all = 2 ** n - 1;
  const east = (1 << h) - 1;
  const west = all & ~((1 << (n - h)) - 1);
  const centre = n % 2 === 1 ? 1 << h : 0;
  const count = (eastRows: number, none: number): number => {
    const rowCols = Array.from({ length: n }, (_, r) => (r === unit.centreRow ? centre : (eastRows >>> r) & 1 ? east : west));
    const place = (r: number, cols: number, d1: number, d2: number, longs: number): number => {
      if (r === n) return longs === 0 ? none : 2 ** (longs === 3 ? 2 : 1);
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
