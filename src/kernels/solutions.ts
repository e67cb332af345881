// Lexicographic enumeration of placements with the bitmask DFS in
// TypeScript; the same walk as assembly/solutions.ts.
import { boardMask } from './bitmask.js';

export function* bitmaskSolutions(n: number): Generator<number[], void, undefined> {
  const mask = boardMask(n);
  const avail = new Int32Array(n);
  const cols = new Int32Array(n);
  const ld = new Int32Array(n);
  const rd = new Int32Array(n);
  const placement = new Array<number>(n).fill(0);
  let row = 0;
  avail[0] = mask;
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
    const c = cols[row] | bit;
    const l = (ld[row] | bit) << 1;
    const r = (rd[row] | bit) >>> 1;
    row++;
    cols[row] = c;
    ld[row] = l;
    rd[row] = r;
    avail[row] = mask & ~(c | l | r);
  }
}
