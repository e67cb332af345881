// Enumerates placements in lexicographic order, one per call, so a caller
// can stop at any time. The state lives in this instance's memory: each
// enumeration gets its own instance.
import { boardMask } from "./common";

const AVAIL: usize = memory.data(32 * 4);
const COLS: usize = memory.data(32 * 4);
const LD: usize = memory.data(32 * 4);
const RD: usize = memory.data(32 * 4);
/** placement[row] = column, one byte per row; read by the host after a hit. */
const PLACEMENT: usize = memory.data(32);

let size: i32 = 0;
let mask: u32 = 0;
let row: i32 = -1;

export function placementPointer(): usize {
  return PLACEMENT;
}

export function solutionsStart(n: i32): void {
  size = n;
  mask = boardMask(n);
  row = 0;
  store<u32>(COLS, 0);
  store<u32>(LD, 0);
  store<u32>(RD, 0);
  store<u32>(AVAIL, mask);
}

/** Advances to the next placement: 1 if one was written to PLACEMENT, 0 when done. */
export function solutionsNext(): i32 {
  while (row >= 0) {
    const at = <usize>row << 2;
    const avail = load<u32>(AVAIL + at);
    if (avail == 0) {
      row--;
      continue;
    }
    // Lowest free column first, which is what makes the order lexicographic.
    const bit = avail & (0 - avail);
    store<u32>(AVAIL + at, avail ^ bit);
    store<u8>(PLACEMENT + <usize>row, <u8>ctz(bit));
    if (row == size - 1) return 1;
    const cols = load<u32>(COLS + at) | bit;
    const ld = (load<u32>(LD + at) | bit) << 1;
    const rd = (load<u32>(RD + at) | bit) >> 1;
    row++;
    store<u32>(COLS + at + 4, cols);
    store<u32>(LD + at + 4, ld);
    store<u32>(RD + at + 4, rd);
    store<u32>(AVAIL + at + 4, mask & ~(cols | ld | rd));
  }
  return 0;
}
