// The plain bitmask DFS in TypeScript, with int32 bit ops: the same algorithm
// as assembly/baseline/bitmask.ts. It is the "before" kernel for the benchmark.
import { boardMask } from '../shared/board-mask.js';
import { FLUSH_AT, SafeCounter } from './safe-counter.js';

const stack = new Int32Array(32 * 4);

/** Counts the completions of `rows` empty rows given the attacks on the first of them. */
export function countCompletions(mask: number, rows: number, cols: number, ld: number, rd: number): bigint {
  if (rows <= 0) return 1n;
  const counter = new SafeCounter();
  let count = 0;
  let sp = 0;
  let avail = mask & ~(cols | ld | rd);
  let left = rows;
  for (;;) {
    if (left === 1) {
      // Last row: at most one column is left, so this adds 0 or 1.
      if (avail !== 0) count++;
      avail = 0;
    }
    if (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      stack[sp] = avail;
      stack[sp + 1] = cols;
      stack[sp + 2] = ld;
      stack[sp + 3] = rd;
      sp += 4;
      cols |= bit;
      ld = (ld | bit) << 1;
      rd = (rd | bit) >>> 1;
      avail = mask & ~(cols | ld | rd);
      left--;
    } else {
      if (sp === 0) break;
      if (count >= FLUSH_AT) count = counter.flush(count);
      sp -= 4;
      avail = stack[sp];
      cols = stack[sp + 1];
      ld = stack[sp + 2];
      rd = stack[sp + 3];
      left++;
    }
  }
  return counter.total(count);
}

/** Solutions with the row-0 queen in column `col`. */
export function countFirstRow(n: number, col: number): bigint {
  const bit = 1 << col;
  return countCompletions(boardMask(n), n - 1, bit, bit << 1, bit >>> 1);
}
