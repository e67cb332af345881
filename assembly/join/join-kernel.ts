// The half-board join in wasm: the solutions of one row split, as the number
// of (east, west) half-boards whose diagonals are disjoint. The same method
// as src/join/join-kernel.ts (read its header and join-geometry.ts for the bits),
// with 64 east halves per bit-sliced block instead of 32 (128, one v128 per
// word, in the SIMD build).
//
// Half-boards are joined from quarter-board tables, one per set of rows, as
// in src/join/quarter-tables.ts: built when a unit first needs them and kept
// in two generations of an arena. Memory, laid out by configure(): small
// tables, the arena, then each instance's own room (its slot) for the most
// half-boards a side of n can have (the bound src/join/join-plan.ts keeps
// per n) and its scratch.
//
// The shared build (threads feature: ASC_FEATURE_THREADS) imports one
// shared memory for all the workers of a count, so the arena and its index
// are held once per process: a table is looked up or built under a lock,
// and an instance reading tables pins the oldest generation it reads, so
// that a generation is not reused under it (see quarter).

const CHUNKS: i32 = 6;
const CHUNK_BITS: i32 = 5;
const BLOCK_WORDS: i32 = CHUNKS << CHUNK_BITS; // words per block
const LANE_SHIFT: i32 = ASC_FEATURE_SIMD ? 7 : 6; // halves per block: 128 (v128 words) or 64 (i64)
const LANES: i32 = 1 << LANE_SHIFT;
const WORD_SHIFT: i32 = LANE_SHIFT - 3; // bytes per word: 16 or 8
const BLOCK_BYTES: usize = <usize>BLOCK_WORDS << WORD_SHIFT;
const KEY_FILL: i32 = 8; // table halves per group wanted: groups are packed, so small ones cost no padding
const ENTRY_BYTES: usize = <usize>2 << WORD_SHIFT; // a listed block: its halves mask (one word), then its address
// Blocks a probe tests before the next probe of its key takes them: 24 KiB
// of tables (8 blocks of 128 halves, 16 of 64) stay in a 32 KiB L1 data cache.
const TILE_BYTES: usize = (ASC_FEATURE_SIMD ? 8 : 16) * ENTRY_BYTES;
// Key bits per family: at most 5 (1024 groups) up to n = 23, which leave 20
// bits to match, 15 in the residues; n = 24 leaves 22, so 7 (16,384 groups).
const MAX_GROUPS: i32 = 1 << 14;
// A half's two masks in a u64: bit r + c from bit 0 (35 bits at n = 24), bit
// r - c + h - 1 from bit D2. Shifting a south entry by band keeps the first
// below D2 and pushes past bit 63 only second-family bits from 24 up, which
// no window or check reads (they need bits up to 2h - 2 and band + h - 2:
// 22 at n = 24). The centre queen's (odd n) fall within both.
const D2: u64 = 40;

let h: i32 = 0;
let band: i32 = 0;
// Fixed-size tables, for h and band up to 12 (n <= 24); the most used
// first: an address under 8192 takes a byte less in the code.
const GEN: usize = memory.data(8); // shared build: the current generation, then the bytes used of its half
const LOCK: usize = memory.data(4); // shared build: held while tables are looked up or built (0 free, 1 held, 2 held and waited for)
const WAITING: usize = memory.data(4); // shared build: instances waiting for a pin to go (see quarter)
const colSetStart: usize = memory.data(16 * 4); // column sets of each size, in colSets
const counts: usize = memory.data(4097 * 4); // scratch while a quarter table is built: per column set
const MAX_SLOTS: i32 = 1024; // src/join/join-share.ts: JOIN_SHARE_MAX_WORKERS
const pins: usize = memory.data(MAX_SLOTS * 4); // shared build: per slot, the oldest generation it reads (0: none)
const colSets: usize = memory.data(4096 * 4);
const colRank: usize = memory.data(4096 * 4); // per column set: its place among the sets of its size
const tableGen: usize = memory.data(4096 * 4); // per set of band rows: the generation its table is in (0: none)
const tableAt: usize = memory.data(4096 * 4); // and where
let firstSlot: usize = 0; // per group: its first slot in key order
let nextSlot: usize = 0;
let arena: usize = 0; // two halves of arenaHalf bytes: the current generation in half (gen & 1)
let arenaHalf: usize = 0;
let pin: usize = 0; // this instance's pin
let gen: i32 = 1; // unshared build: the current generation
let arenaUsed: usize = 0; // and the bytes used of its half

// @ts-ignore: decorator
@inline function generation(): i32 {
  return ASC_FEATURE_THREADS ? load<i32>(GEN) : gen;
}
let eastD: usize = 0; // the two masks (u64) of each east-style half on the east rows
let westD: usize = 0; // and on the west rows
let keys_: usize = 0;
let resA: usize = 0;
let resB: usize = 0;
let tables: usize = 0;
let blockList: usize = 0; // the blocks one key's probes visit, with which of their halves
let masks: usize = 0; // scratch: one word per block, the halves of the groups being listed
let probeA: usize = 0; // probe halves sorted by key, a u64 each

// @ts-ignore: decorator
@inline function at(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

// Pages up to `end`, which may lie past 32-bit memory: a trap then too (it cannot grow there).
function grow(end: u64): void {
  const have = <u64>memory.size() << 16;
  if (end > have && memory.grow(<i32>((end - have + 65535) >> 16)) < 0) unreachable(); // out of memory: a trap, not a wrong count
}

// @ts-ignore: decorator
@inline function align(p: usize, to: usize): usize {
  return (p + to - 1) & ~(to - 1);
}

/**
 * Lays out memory for board size n: quarter tables in two halves of
 * `tableBytes` each, then room for `halves` half-boards a side (src/join/join-plan.ts
 * bounds them per n) in slot `slot` (0 unless the memory is shared).
 * Must come before countJoinSplit for n; a shared memory serves one n.
 */
export function configure(n: i32, halves: i32, tableBytes: i32, slot: i32): void {
  h = n >> 1;
  band = n - h;
  const cap = (<usize>halves + 19) & ~15; // room for one past the last, and every region 64-byte aligned
  const blocks = cap / <usize>LANES + 2;
  const lists = blocks * ENTRY_BYTES; // one key's list at a time
  const own = <u64>cap * 40 + (blocks << 4) + lists + <u64>blocks * BLOCK_BYTES + <u64>(MAX_GROUPS + 4) * 8; // this slot's bytes
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
function quarter(rows: i32): usize {
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

/**
 * Writes to `out` every east-style half on `rows`, clear of the centre queen
 * (odd n), as its two diagonal masks (bit r + c low, bit r - c + h - 1
 * from D2; preparePass takes their window bits); returns how many.
 */
function enumerateHalves(rows: i32, centreRow: i32, out: usize): i32 {
  let found = 0;
  const north = rows & ((1 << band) - 1);
  if (ASC_FEATURE_THREADS) {
    // A lock that wakes nobody when nobody waits (notify is a call into the host).
    let held = atomic.cmpxchg<i32>(LOCK, 0, 1);
    if (held != 0) {
      if (held != 2) held = atomic.xchg<i32>(LOCK, 2);
      while (held != 0) {
        atomic.wait<i32>(LOCK, 2);
        held = atomic.xchg<i32>(LOCK, 2);
      }
    }
  }
  const before = generation();
  let nT = quarter(north);
  const sT = quarter(rows >>> band);
  if (generation() != before) nT = quarter(north); // sT started a generation: nT's may be the half reused
  if (ASC_FEATURE_THREADS) {
    atomic.store<i32>(pin, min(load<i32>(at(tableGen, north)), load<i32>(at(tableGen, rows >>> band))));
    if (atomic.xchg<i32>(LOCK, 0) == 2) atomic.notify(LOCK, 1);
  }
  const k = <i32>popcnt(north);
  const first = load<i32>(at(colSetStart, k));
  const nD = nT + align(<usize>(load<i32>(at(colSetStart, k + 1)) - first + 1) << 2, 8);
  const sD = sT + align(<usize>(load<i32>(at(colSetStart, h - k + 1)) - load<i32>(at(colSetStart, h - k)) + 1) << 2, 8);
  const allCols = (1 << h) - 1;
  // An entry's two masks as one u64 (bit r + c low, bit r - c + h - 1 high); the centre queen's likewise.
  const cen: u64 = (centreRow >= 0 ? <u64>1 << <u64>(centreRow + h) : 0) | (centreRow >= 1 ? <u64>1 << <u64>(centreRow + <i32>D2 - 1) : 0);
  const shift = <u64>band; // south rows: both masks move by band (see D2)
  const sEnd = load<i32>(at(colSetStart, k + 1));
  for (let s = first; s < sEnd; s++) {
    const i = s - first;
    const j = load<i32>(at(colRank, allCols & ~load<i32>(at(colSets, s))));
    const yFirst = sD + (<usize>load<i32>(at(sT, j)) << 3);
    const yLast = sD + (<usize>load<i32>(at(sT, j + 1)) << 3);
    if (yFirst == yLast) continue;
    const xFirst = nD + (<usize>load<i32>(at(nT, i)) << 3);
    const xEnd = nD + (<usize>load<i32>(at(nT, i + 1)) << 3);
    for (let x = xFirst; x < xEnd; x += 8) {
      const nn = load<u64>(x);
      if (nn & cen) continue;
      const mm = nn | cen;
      for (let y = yFirst; y < yLast; y += 8) {
        const ss = load<u64>(y) << shift;
        // Branch-free: write every candidate, keep it only if it fits (one slot of slack past the last).
        store<u64>(out + (<usize>found << 3), nn | ss);
        found += <i32>((mm & ss) == 0);
      }
    }
  }
  if (ASC_FEATURE_THREADS) {
    atomic.store<i32>(pin, 0);
    if (atomic.load<i32>(WAITING) != 0) atomic.notify(pin, 1);
  }
  return found;
}

// @ts-ignore: decorator
@inline function squeeze(x: i32, below: i32): i32 {
  return (x & below) | ((x >>> 1) & ~below);
}

// The unit being counted, between calls: its halves' counts and mirror
// weight; and the pass being counted: its probes, and the key whose list
// of blocks is built (the list itself is at blockList .. listEnd).
let eastCount = 0;
let westCount = 0;
let unitMirror = 0;
let passGroups = 0;
let listKey = -1;
let listEnd: usize = 0;

/**
 * Starts the unit whose east rows are `eastRows` (odd n: centre column's
 * queen in row centreRow, else -1): lists both sides' halves. Returns its
 * passes: 0 (no east half), 1, or 2 when mirrorWeight is 2 (the east-west
 * mirror's count too, from the same two lists with the roles swapped; see
 * src/join/join-plan.ts). A unit is counted in pieces so that the host can
 * report progress between them: beginPass, then countProbes over its range.
 */
export function beginUnit(n: i32, eastRows: i32, centreRow: i32, mirrorWeight: i32): i32 {
  const all = (1 << n) - 1;
  const westRows = all & ~eastRows & ~(centreRow >= 0 ? 1 << centreRow : 0);
  eastCount = enumerateHalves(eastRows, centreRow, eastD);
  if (eastCount == 0) return 0;
  westCount = enumerateHalves(westRows, centreRow, westD);
  unitMirror = mirrorWeight;
  return mirrorWeight == 2 ? 2 : 1;
}

/** Prepares pass 0 (east halves as the table, west as probes) or 1 (the mirror's); returns its probes. */
export function beginPass(pass: i32): i32 {
  return pass == 0 ? preparePass(eastD, eastCount, westD, westCount, unitMirror) : preparePass(westD, westCount, eastD, eastCount, 0);
}

/** The solutions of the unit, in one call (tests, and hosts that need no progress). */
export function countJoinSplit(n: i32, eastRows: i32, centreRow: i32, mirrorWeight: i32): u64 {
  const passes = beginUnit(n, eastRows, centreRow, mirrorWeight);
  let total: u64 = 0;
  for (let p = 0; p < passes; p++) total += countProbes(0, beginPass(p));
  return total;
}

/**
 * Prepares a pass: pairs of table-side halves (as east) and probe-side
 * halves (mirrored into the west) with disjoint diagonals. The long-
 * diagonal filter: only table halves clear of both long diagonals (window
 * bit h - 1) count, that bit is squeezed out, and a probe half counts 2 per
 * long diagonal it holds, or mirrorWeight times if neither.
 *
 * Both sides are keyed by the middle diagonals of each family (the busiest).
 * Table halves are packed in key order, LANES to a block, with no padding;
 * each key has one list, built once per pass, of the blocks holding a group
 * clear of it, each with a mask of those groups' halves. Returns the
 * probes, sorted by key, which countProbes counts.
 */
function preparePass(tD: usize, tCount: i32, wD: usize, wCount: i32, mirrorWeight: i32): i32 {
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
  const gMask = (1 << gBits) - 1;
  const lowMask = (1 << shift) - 1;
  const groups = 1 << (2 * gBits);
  const starts = firstSlot;
  // Group g's halves take slots firstSlot[g] .. firstSlot[g + 1].
  memory.fill(starts, 0, <usize>(groups + 1) << 2);
  for (let i = 0; i < count; i++) {
    const d = load<u64>(clear + (<usize>i << 3));
    const a = squeeze(<i32>(d >> bandShift) & window, below);
    const b = squeeze(<i32>(d >> D2) & window, below);
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    store<i32>(at(keys, i), key);
    store<i32>(at(residuesA, i), (a & lowMask) | ((a >>> (shift + gBits)) << shift));
    store<i32>(at(residuesB, i), (b & lowMask) | ((b >>> (shift + gBits)) << shift));
    store<i32>(at(starts, key + 1), load<i32>(at(starts, key + 1)) + 1);
  }
  for (let g = 0; g < groups; g++) store<i32>(at(starts, g + 1), load<i32>(at(starts, g + 1)) + load<i32>(at(starts, g)));
  buildTables(count, (count + LANES - 1) >>> LANE_SHIFT, groups, width - gBits);

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
    const weight = (fa & long ? 2 : 1) * (fb & long ? 2 : 1);
    const a = squeeze(fb, below); // the mirror swaps the families
    const b = squeeze(fa, below);
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    const ra = (a & lowMask) | ((a >>> (shift + gBits)) << shift) | (select(mirrorWeight, weight, weight == 1) << 16);
    const rb = (b & lowMask) | ((b >>> (shift + gBits)) << shift);
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
    const slot = load<i32>(at(next, key));
    store<i32>(at(next, key), slot + 1);
    store<u64>(sorted + (<usize>slot << 3), v);
  }
  passGroups = groups;
  return probes;
}

/** Counts the sorted probes from .. to - 1 of the pass begun (weight times their matches). */
export function countProbes(from: i32, to: i32): u64 {
  // Globals read in the loop are copied to locals (see preparePass).
  const sorted = probeA;
  const list = blockList;
  const groups = passGroups;
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
    let j = i + 1;
    while (j < to && <i32>(load<u64>(sorted + (<usize>j << 3)) >>> 47) == key) j++;
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
  for (; q < end; q += ENTRY_BYTES) {
    const p = load<usize>(q, <usize>1 << WORD_SHIFT);
    if (ASC_FEATURE_SIMD) {
      const match = v128.and(
        v128.and(v128.and(v128.load(q), v128.load(p + o0)), v128.and(v128.load(p + o1), v128.load(p + o2))),
        v128.and(v128.and(v128.load(p + o3), v128.load(p + o4)), v128.load(p + o5)),
      );
      matches += popcnt(i64x2.extract_lane(match, 0)) + popcnt(i64x2.extract_lane(match, 1)); // no branch: it mispredicts (a match in ~1 of 7 blocks), 18% slower at n = 18
    } else {
      matches += popcnt(load<u64>(q) & load<u64>(p + o0) & load<u64>(p + o1) & load<u64>(p + o2) &
        load<u64>(p + o3) & load<u64>(p + o4) & load<u64>(p + o5));
    }
  }
  return <u64>(ra >>> 16) * matches;
}

// @ts-ignore: decorator
@inline function orWord(w: i32, bits: u64): void {
  const p = masks + (<usize>w << 3);
  store<u64>(p, load<u64>(p) | bits);
}

/**
 * Bit-sliced tables: the half in slot j (in key order) is bit j % LANES of
 * each word of block j / LANES; word v of a chunk says "clear of the
 * diagonals in v". Each half sets its bit in the word of the chunk values
 * it is clear of at most (the complement of its own), and a superset-OR
 * transform over the 5 bits spreads it to every subset. Empty slots set
 * nothing, so they never match.
 */
function buildTables(count: i32, blocks: i32, groups: i32, bits: i32): void {
  const base = tables;
  const next = nextSlot;
  const keys = keys_;
  const residuesA = resA;
  const residuesB = resB;
  memory.fill(base, 0, <usize>blocks * BLOCK_BYTES);
  memory.copy(next, firstSlot, <usize>(groups + 1) << 2);
  const used = (1 << bits) - 1; // residue bits: a half sets none above them, so chunk values there are never read
  for (let i = 0; i < count; i++) {
    const g = load<i32>(at(keys, i));
    const slot = load<i32>(at(next, g));
    store<i32>(at(next, g), slot + 1);
    // The 64-bit lane of the slot within its word.
    const p = base + <usize>(slot >>> LANE_SHIFT) * BLOCK_BYTES + (<usize>((slot >>> 6) & (LANES / 64 - 1)) << 3);
    const bit: u64 = <u64>1 << <u64>(slot & 63);
    const ra = ~load<i32>(at(residuesA, i)) & used;
    const rb = ~load<i32>(at(residuesB, i)) & used;
    for (let c = 0; c < 3; c++) {
      const qa = p + (<usize>((c << 5) + ((ra >>> (5 * c)) & 31)) << WORD_SHIFT);
      store<u64>(qa, load<u64>(qa) | bit);
      const qb = p + (<usize>(96 + (c << 5) + ((rb >>> (5 * c)) & 31)) << WORD_SHIFT);
      store<u64>(qb, load<u64>(qb) | bit);
    }
  }
  // The transform, over the values a chunk's residue bits can take.
  const end = base + <usize>blocks * BLOCK_BYTES;
  let c = 0;
  for (let row = base; row < end; row += <usize>32 << WORD_SHIFT) {
    const values = 1 << min(5, max(0, bits - 5 * c));
    c = c == 2 ? 0 : c + 1;
    for (let b = 1; b < values; b <<= 1) {
      for (let low = 0; low < values; low += b << 1) {
        for (let v = low; v < low + b; v++) {
          const q = row + (<usize>v << WORD_SHIFT);
          const r = q + (<usize>b << WORD_SHIFT);
          if (ASC_FEATURE_SIMD) v128.store(q, v128.or(v128.load(q), v128.load(r)));
          else store<u64>(q, load<u64>(q) | load<u64>(r));
        }
      }
    }
  }
}
