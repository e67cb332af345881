// Quarter-board tables, one per set of band rows, as in
// src/join/quarter-tables.ts: built when a unit first needs them and kept
// in two generations of an arena (laid out by configure, join-memory.ts).
// The shared build holds them once per process: see join-kernel.ts.

import { align, at, D2, h } from "./join-geometry";

// Fixed-size tables, for h and band up to 12 (n <= 24); the most used
// first: an address under 8192 takes a byte less in the code.
export const GEN: usize = memory.data(8); // shared build: the current generation, then the bytes used of its half
export const LOCK: usize = memory.data(4); // shared build: held while tables are looked up or built (0 free, 1 held, 2 held and waited for)
export const WAITING: usize = memory.data(4); // shared build: instances waiting for a pin to go (see quarter)
export const colSetStart: usize = memory.data(16 * 4); // column sets of each size, in colSets
const counts: usize = memory.data(4097 * 4); // scratch while a quarter table is built: per column set
const MAX_SLOTS: i32 = 1024; // src/join/join-share.ts: JOIN_SHARE_MAX_WORKERS
export const pins: usize = memory.data(MAX_SLOTS * 4); // shared build: per slot, the oldest generation it reads (0: none)
export const colSets: usize = memory.data(4096 * 4);
export const colRank: usize = memory.data(4096 * 4); // per column set: its place among the sets of its size
export const tableGen: usize = memory.data(4096 * 4); // per set of band rows: the generation its table is in (0: none)
const tableAt: usize = memory.data(4096 * 4); // and where
export let arena: usize = 0; // two halves of arenaHalf bytes: the current generation in half (gen & 1)
export let arenaHalf: usize = 0;
export let pin: usize = 0; // this instance's pin
export let gen: i32 = 1; // unshared build: the current generation
export let arenaUsed: usize = 0; // and the bytes used of its half

// @ts-ignore: decorator
@inline export function generation(): i32 {
  return ASC_FEATURE_THREADS ? load<i32>(GEN) : gen;
}

let filling = false;
let entriesAt: usize = 0;

/** Every placement of one queen on each band-local row of `left`, given the columns and diagonals held. */
function quarterPlace(left: i32, cols: i32, d1: i32, d2: i32): void {
  if (left == 0) {
    const p = at(counts, load<i32>(at(colRank, cols)) + <i32>!filling);
    const e = load<i32>(p);
    store<i32>(p, e + 1);
    if (filling) store<u64>(entriesAt + (<usize>e << 3), <u64><u32>d1 | (<u64><u32>d2 << D2));
    return;
  }
  const r = ctz(left);
  const rest = left & (left - 1);
  for (let c = 0; c < h; c++) {
    const b1 = 1 << (r + c);
    const b2 = 1 << (r - c + h - 1);
    if (((cols >>> c) & 1) | (d1 & b1) | (d2 & b2)) continue;
    quarterPlace(rest, cols | (1 << c), d1 | b1, d2 | b2);
  }
}

/**
 * The quarter table of band-local rows `rows`: every placement of one queen
 * on each of them in h columns, no two attacking, as its two diagonal
 * masks in a u64 (bit r + c low, bit r - c + h - 1 high), grouped by column
 * set: C(h, k) + 1 starts (i32), then the entries from the next 8 bytes.
 * Built when first needed into the current generation of the arena; one in
 * either generation is used where it is; when the current half is full, the
 * older is dropped and its half becomes the current. A half holds at least
 * two of n's largest tables (src/join/join-plan.ts: quarterHalfBytes), so a
 * unit's second table starts at most one generation, after which its first
 * is asked for again (enumerateHalves). Shared build: called under the lock,
 * and a half is reused only once no instance pins the generation in it.
 */
export function quarter(rows: i32): usize {
  const now = generation();
  const g = load<i32>(at(tableGen, rows));
  if (g != 0 && g >= now - 1) return load<usize>(at(tableAt, rows));
  const k = <i32>popcnt(rows);
  const sets = load<i32>(at(colSetStart, k + 1)) - load<i32>(at(colSetStart, k));
  const head = align(<usize>(sets + 1) << 2, 8);
  memory.fill(counts, 0, <usize>(sets + 1) << 2);
  filling = false;
  quarterPlace(rows, 0, 0, 0);
  for (let i = 0; i < sets; i++) store<i32>(at(counts, i + 1), load<i32>(at(counts, i + 1)) + load<i32>(at(counts, i)));
  const bytes = head + (<usize>load<i32>(at(counts, sets)) << 3);
  let used = ASC_FEATURE_THREADS ? load<usize>(GEN, 4) : arenaUsed;
  let next = now;
  if (used + bytes > arenaHalf) {
    next++; // the older generation's half is reused
    used = 0;
    if (ASC_FEATURE_THREADS) {
      // Wait until no instance reads generation next - 2, the one in that half.
      atomic.add<i32>(WAITING, 1); // before the pins are read: a reader that lets go then sees it and wakes this one
      for (let p = pins; p < pins + (<usize>MAX_SLOTS << 2); p += 4) {
        for (let v = atomic.load<i32>(p); v != 0 && v < next - 1; v = atomic.load<i32>(p)) atomic.wait<i32>(p, v);
      }
      atomic.sub<i32>(WAITING, 1);
      store<i32>(GEN, next);
    } else gen = next;
  }
  const to = arena + (<usize>(next & 1) * arenaHalf) + used;
  if (ASC_FEATURE_THREADS) store<usize>(GEN, used + bytes, 4);
  else arenaUsed = used + bytes;
  memory.copy(to, counts, <usize>(sets + 1) << 2);
  filling = true;
  entriesAt = to + head;
  quarterPlace(rows, 0, 0, 0); // moves each set's start in counts to the next set's
  store<i32>(at(tableGen, rows), next);
  store<usize>(at(tableAt, rows), to);
  return to;
}
