// The search kernel in TypeScript: the same walks as assembly/completions/open-rows.ts.
// Enumeration in lexicographic order with per-row restrictions and a start
// point (paging), and counting the completions of a set of open rows, most
// constrained row first.
import { popcount } from '../shared/bits.js';
import { boardMask } from '../shared/board-mask.js';

/**
 * Placements of n rows, lexicographically, where row r may not use the
 * columns in forbid[r]. With `after`, only those greater than it: the walk
 * starts as if after's longest legal prefix had just been visited.
 */
export function* searchSolutions(n: number, forbid: ArrayLike<number>, after?: ArrayLike<number>): Generator<number[], void, undefined> {
  const mask = boardMask(n);
  const avail = new Int32Array(n);
  const cols = new Int32Array(n + 1);
  const ld = new Int32Array(n + 1);
  const rd = new Int32Array(n + 1);
  const placement = new Array<number>(n).fill(0);
  const freeAt = (r: number): number => mask & ~(cols[r] | ld[r] | rd[r] | forbid[r]);
  const descend = (r: number, bit: number): void => {
    cols[r + 1] = cols[r] | bit;
    ld[r + 1] = (ld[r] | bit) << 1;
    rd[r + 1] = (rd[r] | bit) >>> 1;
  };
  let row = 0;
  if (!after) {
    avail[0] = freeAt(0);
  } else {
    for (let r = 0; r < n; r++) {
      const free = freeAt(r);
      const bit = 1 << after[r];
      // Columns right of after[r]: bit << 1 is 0 for column 31, leaving none.
      avail[r] = free & ~((bit << 1) - 1);
      if ((free & bit) === 0 || r === n - 1) {
        row = r;
        break;
      }
      placement[r] = after[r];
      descend(r, bit);
    }
  }
  while (row >= 0) {
    const free = avail[row];
    if (free === 0) {
      row--;
      continue;
    }
    // Lowest free column first, which is what makes the order lexicographic.
    const bit = free & -free;
    avail[row] = free ^ bit;
    placement[row] = 31 - Math.clz32(bit);
    if (row === n - 1) {
      yield placement.slice();
      continue;
    }
    descend(row, bit);
    row++;
    avail[row] = freeAt(row);
  }
}

/**
 * Counts the ways to put one queen in each open row (rows[i], allowed
 * columns allow[i]) with no two attacking. The columns and diagonals of
 * queens already on the board must be cleared from `allow` by the caller.
 */
export function countOpenRows(rows: ArrayLike<number>, allow: ArrayLike<number>): bigint {
  const open = rows.length;
  if (open === 0) return 1n;
  const rowAt = new Int32Array(33 * 32);
  const allowAt = new Int32Array(33 * 32);
  for (let i = 0; i < open; i++) {
    rowAt[i] = rows[i];
    allowAt[i] = allow[i];
  }
  // Counts in a number: this search cannot reach 2^53 completions in
  // practical time (years at a billion a second).
  const search = (level: number, count: number): number => {
    const base = level << 5;
    if (count === 1) return popcount(allowAt[base]);
    let best = 0;
    let fewest = 33;
    for (let i = 0; i < count; i++) {
      const c = popcount(allowAt[base + i]);
      if (c < fewest) {
        fewest = c;
        best = i;
      }
    }
    if (fewest === 0) return 0;
    const r = rowAt[base + best];
    let avail = allowAt[base + best];
    const next = base + 32;
    let found = 0;
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      let k = 0;
      let union = 0;
      let dead = false;
      for (let i = 0; i < count; i++) {
        if (i === best) continue;
        const ri = rowAt[base + i];
        const d = ri > r ? ri - r : r - ri;
        const a = allowAt[base + i] & ~(bit | (bit << d) | (bit >>> d));
        if (a === 0) {
          dead = true;
          break;
        }
        union |= a;
        rowAt[next + k] = ri;
        allowAt[next + k] = a;
        k++;
      }
      // Every open row needs a column of its own: fewer usable columns than rows is a dead end.
      if (dead || popcount(union) < k) continue;
      found += search(level + 1, k);
    }
    return found;
  };
  return BigInt(search(0, open));
}
