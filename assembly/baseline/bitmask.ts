// The plain bitmask DFS (cols / left-diagonal / right-diagonal masks),
// iterative with an explicit stack in linear memory. It is the "before"
// kernel the symmetry search is measured against: countFirstRow(n, col)
// counts the solutions whose queen in row 0 stands in column col, and the
// benchmark adds up the left half twice (the mirror) and the middle once.
import { boardMask } from "../shared/common";

// One frame per row: avail, cols, ld, rd (4 x u32). 32 rows at most.
const STACK: usize = memory.data(32 * 16);

/**
 * Counts the completions of a partial board whose next `rows` rows are all
 * empty, given the attacks (cols, ld, rd) on the first of them.
 */
export function countCompletions(mask: u32, rows: i32, cols: u32, ld: u32, rd: u32): u64 {
  if (rows <= 0) return 1;
  let count: u64 = 0;
  let sp = STACK;
  let avail = mask & ~(cols | ld | rd);
  let left = rows; // rows still to fill, the current one included
  while (true) {
    if (left == 1) {
      // Last row: every free square is a solution (at most one column is left).
      count += <u64>popcnt(avail);
      avail = 0;
    }
    if (avail != 0) {
      const bit = avail & (0 - avail);
      avail ^= bit;
      store<u32>(sp, avail);
      store<u32>(sp, cols, 4);
      store<u32>(sp, ld, 8);
      store<u32>(sp, rd, 12);
      sp += 16;
      cols |= bit;
      ld = (ld | bit) << 1;
      rd = (rd | bit) >> 1;
      avail = mask & ~(cols | ld | rd);
      left--;
    } else {
      if (sp == STACK) break;
      sp -= 16;
      avail = load<u32>(sp);
      cols = load<u32>(sp, 4);
      ld = load<u32>(sp, 8);
      rd = load<u32>(sp, 12);
      left++;
    }
  }
  return count;
}

/** Solutions with the row-0 queen in column `col`. */
export function countFirstRow(n: i32, col: i32): u64 {
  const bit: u32 = 1 << col;
  return countCompletions(boardMask(n), n - 1, bit, bit << 1, bit >> 1);
}
