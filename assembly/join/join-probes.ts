// Counts a prepared pass's probes (join-tables.ts) against the bit-sliced
// tables, a tile of blocks at a time.

import { at, ENTRY_BYTES, LANE_SHIFT, TILE_BYTES, WORD_SHIFT, BLOCK_BYTES } from "./join-geometry";
import { blockList, firstSlot, masks, nextSlot, probeA, tables } from "./join-memory";

// The pass being counted: its key groups, and the key whose list of blocks
// is built (the list itself is at blockList .. listEnd).
export let passGroups = 0;
export let listKey = -1;
let listEnd: usize = 0;

/** Counts the sorted probes from .. to - 1 of the pass begun (weight times their matches). */
export function countProbes(from: i32, to: i32): u64 {
  // Globals read in the loop are copied to locals (see preparePass).
  const sorted = probeA;
  const list = blockList;
  const groups = passGroups;
  const runEnd = nextSlot; // per key, the end of its probes (preparePass's counting sort leaves it there)
  let key0 = listKey;
  let end = listEnd;
  let total: u64 = 0;
  for (let i = from; i < to; ) {
    const key = <i32>(load<u64>(sorted + (<usize>i << 3)) >>> 47);
    if (key != key0) {
      key0 = key;
      end = listBlocks(key, groups, list);
    }
    // The probes i .. j - 1 share the key, so its list: each takes a tile of
    // blocks in turn, while the tile stays in the L1 cache (1.4x as fast at n = 22).
    const j = min(to, load<i32>(at(runEnd, key)));
    if (j <= i) break; // a range past the pass's probes: end, never spin
    for (let tile = list; tile < end; tile += TILE_BYTES) {
      const tileEnd = min(end, tile + TILE_BYTES);
      for (let k = i; k < j; k++) {
        const v = load<u64>(sorted + (<usize>k << 3));
        total += countProbe(<i32>v, <i32>(v >>> 32) & 0x7fff, tile, tileEnd);
      }
    }
    i = j;
  }
  listKey = key0;
  listEnd = end;
  return total;
}

/**
 * Writes from `listEnd` the blocks holding a group clear of key k, each with
 * a mask of those groups' halves; returns the end.
 */
function listBlocks(k: i32, groups: i32, listEnd: usize): usize {
  const free = ~k & (groups - 1);
  let lowWord = 0x7fffffff;
  let highWord = -1;
  for (let g = free; ; g = (g - 1) & free) {
    const s0 = load<i32>(at(firstSlot, g));
    const s1 = load<i32>(at(firstSlot, g + 1));
    if (s0 < s1) {
      const w0 = s0 >>> 6;
      const w1 = (s1 - 1) >>> 6;
      lowWord = min(lowWord, w0);
      highWord = max(highWord, w1);
      const first: u64 = <u64>-1 << <u64>(s0 & 63);
      const lastBits: u64 = <u64>-1 >>> <u64>(63 - ((s1 - 1) & 63));
      if (w0 == w1) orWord(w0, first & lastBits);
      else {
        orWord(w0, first);
        for (let w = w0 + 1; w < w1; w++) store<u64>(masks + (<usize>w << 3), <u64>-1);
        orWord(w1, lastBits);
      }
    }
    if (g == 0) break;
  }
  const lastBlock = highWord >> (LANE_SHIFT - 6);
  for (let blk = lowWord >> (LANE_SHIFT - 6); blk <= lastBlock; blk++) {
    const m = masks + (<usize>blk << WORD_SHIFT);
    let any = false;
    if (ASC_FEATURE_SIMD) {
      const v = v128.load(m);
      any = v128.any_true(v);
      v128.store(listEnd, v);
      v128.store(m, i64x2.splat(0));
    } else {
      const v = load<u64>(m);
      any = v != 0;
      store<u64>(listEnd, v);
      store<u64>(m, 0);
    }
    store<usize>(listEnd, tables + <usize>blk * BLOCK_BYTES, <usize>1 << WORD_SHIFT);
    if (any) listEnd += ENTRY_BYTES;
  }
  return listEnd;
}

/**
 * Weight times the table halves of the list q .. end that a probe with
 * residues ra (weight above bit 16) and rb is clear of.
 */
// @ts-ignore: decorator
@inline function countProbe(ra: i32, rb: i32, q: usize, end: usize): u64 {
  const o0 = <usize>(ra & 31) << WORD_SHIFT;
  const o1 = <usize>(32 + ((ra >>> 5) & 31)) << WORD_SHIFT;
  const o2 = <usize>(64 + ((ra >>> 10) & 31)) << WORD_SHIFT;
  const o3 = <usize>(96 + (rb & 31)) << WORD_SHIFT;
  const o4 = <usize>(128 + ((rb >>> 5) & 31)) << WORD_SHIFT;
  const o5 = <usize>(160 + ((rb >>> 10) & 31)) << WORD_SHIFT;
  let matches: u64 = 0;
  if (ASC_FEATURE_SIMD) {
    // Two blocks a turn: two chains of loads in flight (0.95x the time at n = 20 and 22).
    for (; q + ENTRY_BYTES < end; q += 2 * ENTRY_BYTES) {
      matches += blockMatches(q, o0, o1, o2, o3, o4, o5) + blockMatches(q + ENTRY_BYTES, o0, o1, o2, o3, o4, o5);
    }
    if (q < end) matches += blockMatches(q, o0, o1, o2, o3, o4, o5);
  } else {
    for (; q < end; q += ENTRY_BYTES) {
      const p = load<usize>(q, <usize>1 << WORD_SHIFT);
      matches += popcnt(load<u64>(q) & load<u64>(p + o0) & load<u64>(p + o1) & load<u64>(p + o2) &
        load<u64>(p + o3) & load<u64>(p + o4) & load<u64>(p + o5));
    }
  }
  return <u64>(ra >>> 16) * matches;
}

/** The SIMD build: the halves of list entry q (its mask, then its block) clear of a probe's chunk offsets. */
// @ts-ignore: decorator
@inline function blockMatches(q: usize, o0: usize, o1: usize, o2: usize, o3: usize, o4: usize, o5: usize): u64 {
  const p = load<usize>(q, <usize>1 << WORD_SHIFT);
  const match = v128.and(
    v128.and(v128.and(v128.load(q), v128.load(p + o0)), v128.and(v128.load(p + o1), v128.load(p + o2))),
    v128.and(v128.and(v128.load(p + o3), v128.load(p + o4)), v128.load(p + o5)),
  );
  return popcnt(i64x2.extract_lane(match, 0)) + popcnt(i64x2.extract_lane(match, 1)); // no branch: it mispredicts (a match in ~1 of 7 blocks), 18% slower at n = 18
}

// @ts-ignore: decorator
@inline function orWord(w: i32, bits: u64): void {
  const p = masks + (<usize>w << 3);
  store<u64>(p, load<u64>(p) | bits);
}
