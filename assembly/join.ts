// The half-board join in wasm: the solutions of one row split, as the number
// of (east, west) half-boards whose diagonals are disjoint. The same method
// as src/kernels/join.ts (read its header and join-geometry.ts for the bits),
// with 64 east halves per bit-sliced block instead of 32.
//
// Tables live in linear memory past the static data, grown once per n to
// hold h! half-boards per side (the bound src/kernels/join-plan.ts checks).

const CHUNKS: i32 = 6;
const CHUNK_BITS: i32 = 5;
const BLOCK_WORDS: i32 = CHUNKS << CHUNK_BITS; // i64 words per block of 64 halves
const BLOCK_BYTES: usize = <usize>BLOCK_WORDS << 3;

const BIT_A: usize = memory.data(32 * 16 * 4); // window bit per square r * h + c
const BIT_B: usize = memory.data(32 * 16 * 4);
const ATTACKS: usize = memory.data(32 * 4); // centre queen's attacks per row
const ROWS: usize = memory.data(32 * 4);
const PER_GROUP: usize = memory.data(260 * 4);
const FIRST_BLOCK: usize = memory.data(260 * 4);
const SLOT: usize = memory.data(260 * 4);

let geometryN: i32 = -1;
let h: i32 = 0;
let rowCount: i32 = 0;
let found: i32 = 0;
let famA: usize = 0;
let famB: usize = 0;
let keys: usize = 0;
let resA: usize = 0;
let resB: usize = 0;
let tables: usize = 0;

// @ts-ignore: decorator
@inline function at(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

/** Lays out and grows memory for board size n; sets the window bits. */
function setN(n: i32): void {
  if (geometryN == n) return;
  geometryN = n;
  h = n >> 1;
  let cap: usize = 1;
  for (let k = 2; k <= h; k++) cap *= <usize>k;
  famA = (__heap_base + 15) & ~15;
  famB = famA + (cap << 2);
  keys = famB + (cap << 2);
  resA = keys + (cap << 2);
  resB = resA + (cap << 2);
  tables = (resB + (cap << 2) + 63) & ~63;
  const end = tables + (cap / 64 + 260) * BLOCK_BYTES;
  const have = <usize>memory.size() << 16;
  if (end > have) memory.grow(<i32>((end - have + 65535) >> 16));
  const top = 2 * h - 2;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < h; c++) {
      const ai = r + c - (n - h);
      const bi = r - c + h - 1;
      store<i32>(at(BIT_A, r * h + c), ai >= 0 && ai <= top ? 1 << ai : 0);
      store<i32>(at(BIT_B, r * h + c), bi >= 0 && bi <= top ? 1 << bi : 0);
    }
  }
}

function place(k: i32, cols: i32, ld: i32, rd: i32, a: i32, b: i32): void {
  const r = load<i32>(at(ROWS, k));
  let avail = ~(cols | ld | rd | load<i32>(at(ATTACKS, r))) & ((1 << h) - 1);
  if (k == rowCount - 1) {
    while (avail != 0) {
      const bit = avail & -avail;
      avail ^= bit;
      const i = r * h + ctz(bit);
      store<i32>(at(famA, found), a | load<i32>(at(BIT_A, i)));
      store<i32>(at(famB, found), b | load<i32>(at(BIT_B, i)));
      found++;
    }
    return;
  }
  const gap = load<i32>(at(ROWS, k + 1)) - r;
  while (avail != 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const i = r * h + ctz(bit);
    place(k + 1, cols | bit, (ld | bit) << gap, <i32>(<u32>(rd | bit) >> gap),
      a | load<i32>(at(BIT_A, i)), b | load<i32>(at(BIT_B, i)));
  }
}

function enumerateHalves(n: i32, rows: i32): i32 {
  rowCount = 0;
  for (let r = 0; r < n; r++) if ((rows >>> r) & 1) store<i32>(at(ROWS, rowCount++), r);
  found = 0;
  if (rowCount > 0) place(0, 0, 0, 0, 0, 0);
  return found;
}

/** Solutions of the split whose east rows are `eastRows` (odd n: centre column's queen in row centreRow, else -1). */
export function countJoinSplit(n: i32, eastRows: i32, centreRow: i32): u64 {
  setN(n);
  const width = 2 * h - 1;
  const wanted = n >= 18 ? 3 : n >= 16 ? 2 : n >= 13 ? 1 : 0;
  const gBits = max(min(wanted, width >> 1), width - 15);
  const shift = (width - gBits) >> 1;
  const gMask = (1 << gBits) - 1;
  const lowMask = (1 << shift) - 1;
  const groups = 1 << (2 * gBits);
  for (let r = 0; r < n; r++) {
    const c = h - abs(r - centreRow);
    store<i32>(at(ATTACKS, r), centreRow >= 0 && r != centreRow && c >= 0 && c < h ? 1 << c : 0);
  }
  const all = (1 << n) - 1;
  const westRows = all & ~eastRows & ~(centreRow >= 0 ? 1 << centreRow : 0);

  const eastCount = enumerateHalves(n, eastRows);
  if (eastCount == 0) return 0;
  memory.fill(PER_GROUP, 0, 260 * 4);
  for (let i = 0; i < eastCount; i++) {
    const a = load<i32>(at(famA, i));
    const b = load<i32>(at(famB, i));
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    store<i32>(at(keys, i), key);
    store<i32>(at(resA, i), (a & lowMask) | ((a >>> (shift + gBits)) << shift));
    store<i32>(at(resB, i), (b & lowMask) | ((b >>> (shift + gBits)) << shift));
    store<i32>(at(PER_GROUP, key), load<i32>(at(PER_GROUP, key)) + 1);
  }
  let blocks = 0;
  for (let g = 0; g < groups; g++) {
    store<i32>(at(FIRST_BLOCK, g), blocks);
    blocks += (load<i32>(at(PER_GROUP, g)) + 63) >>> 6;
  }
  store<i32>(at(FIRST_BLOCK, groups), blocks);
  buildTables(eastCount, groups, blocks);

  const westCount = enumerateHalves(n, westRows);
  let total: u64 = 0;
  for (let i = 0; i < westCount; i++) {
    const a = load<i32>(at(famB, i)); // the mirror swaps the families
    const b = load<i32>(at(famA, i));
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    const ra = (a & lowMask) | ((a >>> (shift + gBits)) << shift);
    const rb = (b & lowMask) | ((b >>> (shift + gBits)) << shift);
    const o0 = <usize>(ra & 31) << 3;
    const o1 = <usize>(32 + ((ra >>> 5) & 31)) << 3;
    const o2 = <usize>(64 + ((ra >>> 10) & 31)) << 3;
    const o3 = <usize>(96 + (rb & 31)) << 3;
    const o4 = <usize>(128 + ((rb >>> 5) & 31)) << 3;
    const o5 = <usize>(160 + ((rb >>> 10) & 31)) << 3;
    const free = ~key & (groups - 1);
    for (let g = free; ; g = (g - 1) & free) {
      const end = tables + <usize>load<i32>(at(FIRST_BLOCK, g + 1)) * BLOCK_BYTES;
      for (let p = tables + <usize>load<i32>(at(FIRST_BLOCK, g)) * BLOCK_BYTES; p < end; p += BLOCK_BYTES) {
        const match = load<u64>(p + o0) & load<u64>(p + o1) & load<u64>(p + o2) &
          load<u64>(p + o3) & load<u64>(p + o4) & load<u64>(p + o5);
        total += popcnt(match);
      }
      if (g == 0) break;
    }
  }
  return total;
}

/** Bit-sliced tables: east half j of a block is bit j of each word; word v of a chunk says "clear of the diagonals in v". */
function buildTables(count: i32, groups: i32, blocks: i32): void {
  memory.fill(tables, 0, <usize>blocks * BLOCK_BYTES);
  memory.fill(SLOT, 0, 260 * 4);
  for (let i = 0; i < count; i++) {
    const g = load<i32>(at(keys, i));
    const slot = load<i32>(at(SLOT, g));
    store<i32>(at(SLOT, g), slot + 1);
    const p = tables + <usize>(load<i32>(at(FIRST_BLOCK, g)) + (slot >>> 6)) * BLOCK_BYTES;
    const bit: u64 = <u64>1 << <u64>(slot & 63);
    // "Has diagonal d" words first, at the block's start (family B from word 15).
    let ra = load<i32>(at(resA, i));
    for (let d = 0; ra != 0; d++, ra >>>= 1) if (ra & 1) store<u64>(p + (<usize>d << 3), load<u64>(p + (<usize>d << 3)) | bit);
    let rb = load<i32>(at(resB, i));
    for (let d = 15; rb != 0; d++, rb >>>= 1) if (rb & 1) store<u64>(p + (<usize>d << 3), load<u64>(p + (<usize>d << 3)) | bit);
  }
  const clearOf = memory.data(32 * 8);
  for (let g = 0; g < groups; g++) {
    const first = load<i32>(at(FIRST_BLOCK, g));
    const last = load<i32>(at(FIRST_BLOCK, g + 1));
    for (let blk = first; blk < last; blk++) {
      const p = tables + <usize>blk * BLOCK_BYTES;
      const inBlock = blk < last - 1 ? 64 : load<i32>(at(PER_GROUP, g)) - (blk - first) * 64;
      const valid: u64 = inBlock == 64 ? u64.MAX_VALUE : (<u64>1 << <u64>inBlock) - 1;
      for (let d = 0; d < 30; d++) store<u64>(clearOf + (<usize>d << 3), ~load<u64>(p + (<usize>d << 3)));
      for (let c = 0; c < CHUNKS; c++) {
        const row = p + (<usize>(c << CHUNK_BITS) << 3);
        const firstDiag = (c / 3) * 15 + (c % 3) * CHUNK_BITS;
        store<u64>(row, valid);
        for (let v = 1; v < 32; v++) {
          const clear = load<u64>(clearOf + (<usize>(firstDiag + ctz(v)) << 3));
          store<u64>(row + (<usize>v << 3), load<u64>(row + (<usize>(v & (v - 1)) << 3)) & clear);
        }
      }
    }
  }
}
