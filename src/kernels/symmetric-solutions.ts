// Solutions unchanged by a half turn (S180) and by a quarter turn (S90),
// for the unique count by Burnside's lemma: unique = (total + S180 + 2 S90) / 8
// for n >= 2. The join counts only totals; these two are small searches that
// place a queen together with its whole orbit under the turn, so only
// symmetric boards are ever built.

export interface SymmetricCounts {
  /** Solutions unchanged by a half turn (this includes those unchanged by a quarter turn). */
  readonly s180: bigint;
  /** Solutions unchanged by a quarter turn. */
  readonly s90: bigint;
}

/** Counts solutions whose queen set is closed under `turn` (a half or quarter turn of the board). */
function countClosedUnder(n: number, quarter: boolean): number {
  const colUsed = new Uint8Array(n);
  const rowUsed = new Uint8Array(n);
  const upUsed = new Uint8Array(2 * n);
  const downUsed = new Uint8Array(2 * n);
  const orbitRows = new Int32Array(4);
  const orbitCols = new Int32Array(4);

  const free = (r: number, c: number): boolean => rowUsed[r] === 0 && colUsed[c] === 0 && upUsed[r + c] === 0 && downUsed[r - c + n] === 0;
  const mark = (r: number, c: number, v: number): void => {
    rowUsed[r] = v;
    colUsed[c] = v;
    upUsed[r + c] = v;
    downUsed[r - c + n] = v;
  };

  /** Places the orbit of (r, c), if it fits; returns its size, or 0. */
  function placeOrbit(r: number, c: number): number {
    let size = 0;
    let rr = r;
    let cc = c;
    do {
      if (!free(rr, cc)) {
        for (let k = 0; k < size; k++) mark(orbitRows[k], orbitCols[k], 0);
        return 0;
      }
      mark(rr, cc, 1);
      orbitRows[size] = rr;
      orbitCols[size] = cc;
      size++;
      const next = quarter ? [cc, n - 1 - rr] : [n - 1 - rr, n - 1 - cc];
      rr = next[0];
      cc = next[1];
    } while (rr !== r || cc !== c);
    return size;
  }

  function search(row: number): number {
    while (row < n && rowUsed[row] === 1) row++;
    if (row === n) return 1;
    let count = 0;
    for (let c = 0; c < n; c++) {
      const size = placeOrbit(row, c);
      if (size === 0) continue;
      const saveRows = orbitRows.slice(0, size);
      const saveCols = orbitCols.slice(0, size);
      count += search(row + 1);
      for (let k = 0; k < size; k++) mark(saveRows[k], saveCols[k], 0);
    }
    return count;
  }
  return search(0);
}

/** S180 and S90 for board size n >= 1. */
export function countSymmetricSolutions(n: number): SymmetricCounts {
  // A quarter-turn orbit has 4 squares except the centre, so n must be 0 or 1 mod 4.
  const s90 = n % 4 <= 1 ? countClosedUnder(n, true) : 0;
  return { s180: BigInt(countClosedUnder(n, false)), s90: BigInt(s90) };
}

/** Burnside: classes under the 8 symmetries of the square, from the total and the two symmetric counts. */
export function uniqueFromTotal(n: number, total: bigint, symmetric: SymmetricCounts): bigint {
  if (n === 1) return 1n;
  return (total + symmetric.s180 + 2n * symmetric.s90) / 8n;
}
