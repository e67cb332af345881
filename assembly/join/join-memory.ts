// Memory for board size n (configure): the quarter tables' arena in two
// halves, then each instance's own room (its slot) for the most half-boards
// a side of n can have and its scratch. configure also resets the quarter
// tables (quarter-tables.ts) and sets n (join-geometry.ts).

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- configure assigns these globals (AssemblyScript lets a module assign what it imports)
import { at, band, BLOCK_BYTES, ENTRY_BYTES, h, LANES, MAX_GROUPS } from "./join-geometry";
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- configure assigns these globals (AssemblyScript lets a module assign what it imports)
import { arena, arenaHalf, arenaUsed, colRank, colSets, colSetStart, gen, GEN, pin, pins, tableGen } from "./quarter-tables";

export let firstSlot: usize = 0; // per group: its first slot in key order
export let nextSlot: usize = 0;
export let eastD: usize = 0; // the two masks (u64) of each east-style half on the east rows
export let westD: usize = 0; // and on the west rows
export let keys_: usize = 0;
export let resA: usize = 0;
export let resB: usize = 0;
export let tables: usize = 0;
export let blockList: usize = 0; // the blocks one key's probes visit, with which of their halves
export let masks: usize = 0; // scratch: one word per block, the halves of the groups being listed
export let probeA: usize = 0; // probe halves sorted by key, a u64 each
export let keyParts: usize = 0; // a pass's key bits and long-diagonal flag per value of a family's key field (two tables)
const KEY_PARTS_BYTES: u64 = 2 * 256 * 4; // two tables over key fields of at most 8 bits (7 key bits at n = 24, and the long diagonal)

// Pages up to `end`, which may lie past 32-bit memory: a trap then too (it cannot grow there).
function grow(end: u64): void {
  const have = <u64>memory.size() << 16;
  if (end > have && memory.grow(<i32>((end - have + 65535) >> 16)) < 0) unreachable(); // out of memory: a trap, not a wrong count
}

/**
 * Lays out memory for board size n: quarter tables in two halves of
 * `tableBytes` each, then room for `halves` half-boards a side (src/join/join-plan.ts
 * bounds them per n) in slot `slot` (0 unless the memory is shared).
 * Must come before beginUnit for n; a shared memory serves one n.
 */
export function configure(n: i32, halves: i32, tableBytes: i32, slot: i32): void {
  h = n >> 1;
  band = n - h;
  const cap = (<usize>halves + 19) & ~15; // room for one past the last, and every region 64-byte aligned
  const blocks = cap / <usize>LANES + 2;
  const lists = blocks * ENTRY_BYTES; // one key's list at a time
  const own = <u64>cap * 40 + (blocks << 4) + lists + <u64>blocks * BLOCK_BYTES + <u64>(MAX_GROUPS + 4) * 8 + KEY_PARTS_BYTES; // this slot's bytes
  arena = (__heap_base + 63) & ~63;
  arenaHalf = <usize>tableBytes;
  const start = <u64>arena + 2 * <u64>tableBytes + <u64>slot * own;
  grow(start + own);
  eastD = <usize>start;
  westD = eastD + (cap << 3);
  keys_ = westD + (cap << 3);
  resA = keys_ + (cap << 2); // keys_ and resA hold the sorted probes' u64s too: they stay side by side
  resB = resA + (cap << 2);
  probeA = resB + (cap << 2);
  masks = probeA + (cap << 3);
  blockList = masks + (blocks << 4);
  tables = blockList + lists;
  firstSlot = tables + blocks * BLOCK_BYTES;
  nextSlot = firstSlot + <usize>(MAX_GROUPS + 4) * 4;
  keyParts = nextSlot + <usize>(MAX_GROUPS + 4) * 4;
  memory.fill(masks, 0, blocks << 4);
  if (ASC_FEATURE_THREADS) {
    pin = pins + (<usize>slot << 2);
    atomic.cmpxchg<i32>(GEN, 0, 1); // a fresh memory: the first generation
  } else {
    memory.fill(tableGen, 0, 4096 * 4);
    gen = 1;
    arenaUsed = 0;
  }
  let s = 0;
  for (let k = 0; k <= h; k++) {
    const first = s;
    store<i32>(at(colSetStart, k), first);
    for (let c = 0; c < 1 << h; c++) {
      if (<i32>popcnt(c) != k) continue;
      store<i32>(at(colRank, c), s - first); // shared: every instance writes the same values
      store<i32>(at(colSets, s++), c);
    }
  }
  store<i32>(at(colSetStart, h + 1), s);
}
