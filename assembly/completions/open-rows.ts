// The open-rows module (build/open-rows.wasm): a kernel of its own, apart from the
// counting kernel, for everything that works on a partly constrained board.
//
// - Enumeration in lexicographic order, one placement per call, where each
//   row may be restricted to some columns (placed queens, the border rules
//   of fundamental solutions) and the walk may start just after a given
//   placement (paging) instead of at the beginning.
// - Counting the completions of a set of rows, each with the columns still
//   allowed to it: the rows are taken most constrained first, so placed
//   queens and tight boards prune at once.
//
// The host writes the inputs into this instance's memory (pointers below).
// One instance serves every enumeration on a thread: an enumeration's whole
// state is the block STATE (its registers saved there by solutionsSave), which
// the host copies out and back in when enumerations take turns.
import { boardMask } from "../shared/common";

// ---- Enumeration -------------------------------------------------------

const STATE_BYTES: i32 = 5 * 32 * 4 + 32 + 32 + 16;
const STATE: usize = memory.data(STATE_BYTES);
const AVAIL: usize = STATE;
const COLS: usize = STATE + 32 * 4;
const LD: usize = STATE + 2 * 32 * 4;
const RD: usize = STATE + 3 * 32 * 4;
/** Input: per row, the columns it may not use (placed rows: all but one). */
const FORBID: usize = STATE + 4 * 32 * 4;
/** Input: the placement to start after, one byte per row. */
const AFTER: usize = STATE + 5 * 32 * 4;
/** placement[row] = column, one byte per row; read by the host after a hit. */
const PLACEMENT: usize = AFTER + 32;
/** size, mask and row while the state is away (solutionsSave, solutionsLoad). */
const REGISTERS: usize = PLACEMENT + 32;

let size: i32 = 0;
let mask: u32 = 0;
let row: i32 = -1;

/** Where the state block lies; its bytes. */
export function statePointer(): usize {
  return STATE;
}

export function stateBytes(): i32 {
  return STATE_BYTES;
}

/** Writes the registers into the state block, before the host copies it away. */
export function solutionsSave(): void {
  store<i32>(REGISTERS, size);
  store<u32>(REGISTERS, mask, 4);
  store<i32>(REGISTERS, row, 8);
}

/** Reads them back, once the host has copied a state block in. */
export function solutionsLoad(): void {
  size = load<i32>(REGISTERS);
  mask = load<u32>(REGISTERS, 4);
  row = load<i32>(REGISTERS, 8);
}

export function forbidPointer(): usize {
  return FORBID;
}

export function afterPointer(): usize {
  return AFTER;
}

export function placementPointer(): usize {
  return PLACEMENT;
}

// @ts-ignore: decorator
@inline function freeAt(r: i32): u32 {
  const at = <usize>r << 2;
  return mask & ~(load<u32>(COLS + at) | load<u32>(LD + at) | load<u32>(RD + at) | load<u32>(FORBID + at));
}

// @ts-ignore: decorator
@inline function descend(r: i32, bit: u32): void {
  const at = <usize>r << 2;
  store<u32>(COLS + at + 4, load<u32>(COLS + at) | bit);
  store<u32>(LD + at + 4, (load<u32>(LD + at) | bit) << 1);
  store<u32>(RD + at + 4, (load<u32>(RD + at) | bit) >> 1);
}

/**
 * Starts an enumeration of n rows with FORBID set. With `after` = 1, it
 * yields only placements lexicographically greater than AFTER: the walk is
 * set up as if AFTER's longest legal prefix had just been visited.
 */
export function solutionsStart(n: i32, after: i32): void {
  size = n;
  mask = boardMask(n);
  store<u32>(COLS, 0);
  store<u32>(LD, 0);
  store<u32>(RD, 0);
  if (!after) {
    row = 0;
    store<u32>(AVAIL, freeAt(0));
    return;
  }
  for (let r = 0; r < n; r++) {
    const free = freeAt(r);
    const bit: u32 = 1 << load<u8>(AFTER + <usize>r);
    // Columns right of AFTER[r]: bit << 1 is 0 for column 31, leaving none.
    const higher = free & ~((bit << 1) - 1);
    store<u32>(AVAIL + (<usize>r << 2), higher);
    if ((free & bit) == 0 || r == n - 1) {
      row = r;
      return;
    }
    store<u8>(PLACEMENT + <usize>r, <u8>ctz(bit));
    descend(r, bit);
  }
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
    descend(row, bit);
    row++;
    store<u32>(AVAIL + at + 4, freeAt(row));
  }
  return 0;
}

// ---- Completions -------------------------------------------------------

/** Per level, the open rows: their index (u32) and allowed columns (u32). */
const ROWS: usize = memory.data(33 * 32 * 4);
const ALLOW: usize = memory.data(33 * 32 * 4);

let completions: u64 = 0;

/** Input: ROWS/ALLOW of level 0, 32 entries each; read with these pointers. */
export function rowsPointer(): usize {
  return ROWS;
}

export function allowPointer(): usize {
  return ALLOW;
}

function search(level: i32, open: i32): void {
  const base = <usize>level << 7;
  if (open == 1) {
    completions += popcnt(load<u32>(ALLOW + base));
    return;
  }
  // The most constrained open row: fewest allowed columns.
  let best = 0;
  let fewest: u32 = 33;
  for (let i = 0; i < open; i++) {
    const c = popcnt(load<u32>(ALLOW + base + (<usize>i << 2)));
    if (c < fewest) {
      fewest = c;
      best = i;
    }
  }
  if (fewest == 0) return;
  const r = load<i32>(ROWS + base + (<usize>best << 2));
  let avail = load<u32>(ALLOW + base + (<usize>best << 2));
  const next = base + 128;
  while (avail) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    let k = 0;
    let union: u32 = 0;
    let dead = false;
    for (let i = 0; i < open; i++) {
      if (i == best) continue;
      const ri = load<i32>(ROWS + base + (<usize>i << 2));
      const d = ri > r ? ri - r : r - ri;
      const a = load<u32>(ALLOW + base + (<usize>i << 2)) & ~(bit | (bit << d) | (bit >> d));
      if (a == 0) {
        dead = true;
        break;
      }
      union |= a;
      store<i32>(ROWS + next + (<usize>k << 2), ri);
      store<u32>(ALLOW + next + (<usize>k << 2), a);
      k++;
    }
    // Every open row needs a column of its own: fewer usable columns than rows is a dead end.
    if (dead || <i32>popcnt(union) < k) continue;
    search(level + 1, k);
  }
}

/** Counts the ways to put one queen in each of the `open` rows written at level 0, none attacking. */
export function countCompletions(open: i32): u64 {
  completions = 0;
  if (open == 0) return 1;
  search(0, open);
  return completions;
}
