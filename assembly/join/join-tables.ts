// A pass's preparation: the table side's halves keyed, packed and
// bit-sliced into blocks, and the probe side's halves sorted by key.

import { at, band, BLOCK_BYTES, D2, h, KEY_FILL, LANE_SHIFT, LANES, SHARES, squeeze, WORD_SHIFT } from "./join-geometry";
import { firstSlot, keyParts, keys_, nextSlot, probeA, resA, resB, tables } from "./join-memory";
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- preparePass assigns these globals (AssemblyScript lets a module assign what it imports)
import { listKey, passGroups } from "./join-probes";

/**
 * Prepares a pass: pairs of table-side halves (as east) and probe-side
 * halves (mirrored into the west) with disjoint diagonals. The long-
 * diagonal filter: only table halves clear of both long diagonals (window
 * bit h - 1) count, that bit is squeezed out, and a probe half counts 4 if
 * it holds both long diagonals, 2 x its share under the transpose's test
 * (half-boards.ts) if one, mirrorWeight times if neither; 0: no probe.
 *
 * Both sides are keyed by the middle diagonals of each family (the busiest).
 * Table halves are packed in key order, LANES to a block, with no padding;
 * each key has one list, built once per pass, of the blocks holding a group
 * clear of it, each with a mask of those groups' halves. Returns the
 * probes, sorted by key, which countProbes counts.
 */
export function preparePass(tD: usize, tCount: i32, wD: usize, wCount: i32, mirrorWeight: i32): i32 {
  // Globals read in loops are copied to locals: V8 loads a global again on every use.
  const hh = h;
  const window = (1 << (2 * hh - 1)) - 1;
  const bandShift = <u64>band;
  const long = (1 << (hh - 1)) & window; // 0 when n = 1 (h = 0)
  const below = long - 1;
  const residuesA = resA;
  const residuesB = resB;
  const keys = keys_;
  const clear = probeA; // the table halves clear of both long diagonals, until the probes need the room
  let count = 0;
  for (let i = 0; i < tCount; i++) {
    const d = load<u64>(tD + (<usize>i << 3));
    store<u64>(clear + (<usize>count << 3), d);
    count += <i32>((<i32>((d >> bandShift) | (d >> D2)) & long) == 0);
  }
  listKey = -1;
  if (count == 0) return 0;
  // Key bits per family: as many as leave about KEY_FILL halves per group, within what the residue allows.
  const width = max(0, 2 * hh - 2); // bits a squeezed window has (n = 1: none)
  let gBits = max(0, width - 15);
  while (gBits < 4 && 2 * (gBits + 1) <= width && count >> (2 * gBits + 2) >= KEY_FILL) gBits++;
  const shift = (width - gBits) >> 1;
  const lowMask = (1 << shift) - 1;
  const high = shift + gBits + 1; // a window's residue: its bits under the key field, and those above it moved down
  const groups = 1 << (2 * gBits);
  // The key field of a window, bits shift .. shift + gBits (the long diagonal among them), in one lookup: its
  // key bits (the long diagonal squeezed out) as the key's low part (`low`) or high part (`highParts`), with
  // a flag if it holds the long diagonal (bit 17 in low, 16 in highParts; table halves have none).
  const low = keyParts;
  const highParts = low + 1024;
  const field = (2 << gBits) - 1;
  for (let j = 0; j <= field; j++) {
    const x = j << shift;
    const bits = (squeeze(x, below) >>> shift) & ((1 << gBits) - 1);
    const flag = <i32>((x & long) != 0);
    store<i32>(at(low, j), bits | (flag << 17));
    store<i32>(at(highParts, j), (bits << gBits) | (flag << 16));
  }
  const starts = firstSlot;
  // Group g's halves take slots firstSlot[g] .. firstSlot[g + 1].
  memory.fill(starts, 0, <usize>(groups + 1) << 2);
  for (let i = 0; i < count; i++) {
    const d = load<u64>(clear + (<usize>i << 3));
    const a = <i32>(d >> bandShift) & window;
    const b = <i32>(d >> D2) & window;
    const key = load<i32>(at(low, (a >>> shift) & field)) | load<i32>(at(highParts, (b >>> shift) & field));
    store<i32>(at(keys, i), key);
    store<i32>(at(residuesA, i), (a & lowMask) | ((a >>> high) << shift));
    store<i32>(at(residuesB, i), (b & lowMask) | ((b >>> high) << shift));
    store<i32>(at(starts, key + 1), load<i32>(at(starts, key + 1)) + 1);
  }
  for (let g = 0; g < groups; g++) store<i32>(at(starts, g + 1), load<i32>(at(starts, g + 1)) + load<i32>(at(starts, g)));
  buildTables(count, (count + LANES - 1) >>> LANE_SHIFT, groups);

  // Probes are sorted by key and each key's list of blocks is built when
  // its probes come, so that one list stays in cache and its loop's trip
  // count repeats (2-core EPYC, n = 16..18). Each probe is first stored as
  // one u64 (ra low; rb, then the key from bit 47) in keys_ and resA, which
  // the tables no longer need; every half is stored, and kept only if its
  // weight is not 0 (a branch there mispredicts).
  const next = nextSlot;
  memory.fill(next, 0, <usize>(groups + 1) << 2);
  let probes = 0;
  for (let i = 0; i < wCount; i++) {
    const d = load<u64>(wD + (<usize>i << 3));
    const fa = <i32>(d >> bandShift) & window;
    const fb = <i32>(d >> D2) & window;
    // The mirror swaps the families: fb meets the table's first, fa its second.
    const kf = load<i32>(at(low, (fb >>> shift) & field)) | load<i32>(at(highParts, (fa >>> shift) & field));
    const key = kf & 0xffff;
    // Its weight by the long diagonals it holds (kf's flags): neither, the main one alone (its share), the other alone, both.
    const shares = <i32>(d >> SHARES);
    const weights = mirrorWeight | ((shares & 3) << 9) | ((shares & 12) << 15) | (4 << 24);
    const weight = (weights >>> ((kf >>> 16) << 3)) & 255;
    const ra = (fb & lowMask) | ((fb >>> high) << shift) | (weight << 16);
    const rb = (fa & lowMask) | ((fa >>> high) << shift);
    store<u64>(keys + (<usize>probes << 3), (<u64>(rb | (key << 15)) << 32) | <u64>(<u32>ra));
    const kept = <i32>(ra >>> 16 != 0);
    store<i32>(at(next, key + 1), load<i32>(at(next, key + 1)) + kept);
    probes += kept;
  }
  // Sorted by key (a counting sort), then each key's list built when its probes come.
  for (let k = 0; k < groups; k++) store<i32>(at(next, k + 1), load<i32>(at(next, k + 1)) + load<i32>(at(next, k)));
  const sorted = probeA;
  for (let i = 0; i < probes; i++) {
    const v = load<u64>(keys + (<usize>i << 3));
    const key = <i32>(v >>> 47);
    const slot = takeSlot(next, key);
    store<u64>(sorted + (<usize>slot << 3), v);
  }
  passGroups = groups;
  return probes;
}

/**
 * Bit-sliced tables: the half in slot j (in key order) is bit j % LANES of
 * each word of block j / LANES; word v of a chunk says "clear of the
 * diagonals in v". Lanes past the last half hold anything: no group covers
 * them, so a probe's list masks them out.
 */
function buildTables(count: i32, blocks: i32, groups: i32): void {
  const next = nextSlot;
  memory.copy(next, firstSlot, <usize>(groups + 1) << 2);
  if (ASC_FEATURE_SIMD) slicedFromPlanes(count, blocks);
  else slicedByTransform(count, blocks);
}

/**
 * The SIMD build: each half's residues go to its slot as one u32 (B from bit
 * 15; the table side's u64s in probeA are no longer needed), then per block
 * each residue bit becomes a plane, one v128 of its 128 halves, 16 halves
 * at a time (i8x16.bitmask), and word v of a chunk is the AND of the
 * complements of v's planes: 0.92x the time of the transform below at
 * n = 16 (2026-11-26).
 */
function slicedFromPlanes(count: i32, blocks: i32): void {
  const next = nextSlot;
  const keys = keys_;
  const residuesA = resA;
  const residuesB = resB;
  const slotted = probeA;
  for (let i = 0; i < count; i++) {
    const g = load<i32>(at(keys, i));
    const slot = takeSlot(next, g);
    store<i32>(at(slotted, slot), load<i32>(at(residuesA, i)) | (load<i32>(at(residuesB, i)) << 15));
  }
  const planes = next; // 32 planes of 16 bytes: the slots are taken
  const low8 = i32x4.splat(255);
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < 8; k++) {
      const s = slotted + (<usize>b << 9) + (<usize>k << 6);
      const v0 = v128.load(s);
      const v1 = v128.load(s, 16);
      const v2 = v128.load(s, 32);
      const v3 = v128.load(s, 48);
      for (let byte = 0; byte < 4; byte++) {
        // Byte `byte` of 16 residues, then bit t of each as a 16-bit mask: the plane's share of these halves.
        const shift = byte << 3;
        const x = i8x16.narrow_i16x8_u(
          i16x8.narrow_i32x4_u(v128.and(i32x4.shr_u(v0, shift), low8), v128.and(i32x4.shr_u(v1, shift), low8)),
          i16x8.narrow_i32x4_u(v128.and(i32x4.shr_u(v2, shift), low8), v128.and(i32x4.shr_u(v3, shift), low8)),
        );
        // Constant shifts: V8 emits a few instructions for each, and many more for a variable one (1.03x faster).
        const q = planes + (<usize>shift << 4) + (<usize>k << 1);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 7)));
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 6)), 16);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 5)), 32);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 4)), 48);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 3)), 64);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 2)), 80);
        store<u16>(q, i8x16.bitmask(i8x16.shl(x, 1)), 96);
        store<u16>(q, i8x16.bitmask(x), 112);
      }
    }
    const block = tables + <usize>b * BLOCK_BYTES;
    for (let c = 0; c < 6; c++) {
      const row = block + (<usize>c << 9);
      v128.store(row, i64x2.splat(-1));
      for (let v = 1; v < 32; v++) {
        // Word v: word v less its lowest bit, less the halves holding that bit's diagonal.
        const plane = planes + (<usize>(5 * c + ctz(v)) << 4);
        v128.store(row + (<usize>v << 4), v128.andnot(v128.load(row + (<usize>(v & (v - 1)) << 4)), v128.load(plane)));
      }
    }
  }
}

/**
 * The build without SIMD: each half sets its bit in the word of the chunk
 * values it is clear of at most (the complement of its own), and a
 * superset-OR transform over the 5 bits spreads it to every subset.
 */
function slicedByTransform(count: i32, blocks: i32): void {
  const base = tables;
  const next = nextSlot;
  const keys = keys_;
  const residuesA = resA;
  const residuesB = resB;
  memory.fill(base, 0, <usize>blocks * BLOCK_BYTES);
  for (let i = 0; i < count; i++) {
    const g = load<i32>(at(keys, i));
    const slot = takeSlot(next, g);
    // The word of 64 lanes holding the slot.
    const p = base + <usize>(slot >>> LANE_SHIFT) * BLOCK_BYTES;
    const bit: u64 = <u64>1 << <u64>(slot & 63);
    const ra = ~load<i32>(at(residuesA, i));
    const rb = ~load<i32>(at(residuesB, i));
    for (let c = 0; c < 3; c++) {
      const qa = p + (<usize>((c << 5) + ((ra >>> (5 * c)) & 31)) << WORD_SHIFT);
      store<u64>(qa, load<u64>(qa) | bit);
      const qb = p + (<usize>(96 + (c << 5) + ((rb >>> (5 * c)) & 31)) << WORD_SHIFT);
      store<u64>(qb, load<u64>(qb) | bit);
    }
  }
  // The transform. A chunk's bits above the residue's are set in every half's
  // word and clear in every probe's: the transform carries them down too.
  const end = base + <usize>blocks * BLOCK_BYTES;
  for (let row = base; row < end; row += <usize>32 << WORD_SHIFT) {
    for (let b = 1; b < 32; b <<= 1) {
      for (let low = 0; low < 32; low += b << 1) {
        for (let v = low; v < low + b; v++) {
          const q = row + (<usize>v << WORD_SHIFT);
          store<u64>(q, load<u64>(q) | load<u64>(q + (<usize>b << WORD_SHIFT)));
        }
      }
    }
  }
}

/** The next free slot of key or group g (`next` holds one per key), taken. */
// @ts-ignore: decorator
@inline function takeSlot(next: usize, g: i32): i32 {
  const slot = load<i32>(at(next, g));
  store<i32>(at(next, g), slot + 1);
  return slot;
}
