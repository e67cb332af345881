// The half-board join in TypeScript: the solutions of one row split (a unit
// of src/kernels/join-plan.ts), as the number of (east, west) half-boards
// whose diagonals are disjoint. See join-geometry.ts for the bits.
//
// The pair count is the cost. East halves are grouped by a few middle
// diagonals of each family (a west half visits only groups it can match),
// and each group is bit-sliced in blocks of 32: per block and per 5-bit
// chunk of the remaining diagonals, a table of 32 words whose bit i says
// "east half i is clear of these diagonals". A west half then tests 32 east
// halves with six loads and ANDs. Nearly every word comes out zero (about 1
// pair in 2500 matches at n = 18), so the popcount sits behind a branch.
import { CHUNK_BITS, CHUNKS, centreAttacks, diagonalBits, groupBits, groupShift } from './join-geometry.js';
import { checkJoinSize, type JoinUnit } from './join-plan.js';

const TABLE_WORDS = CHUNKS << CHUNK_BITS; // words per 32-half block
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** Grows on demand; reused across units. */
let famA = new Int32Array(1024);
let famB = new Int32Array(1024);
let found = 0;

/** Per-n state, rebuilt when n changes. */
let geometryN = -1;
let bitA: Int32Array = new Int32Array(0);
let bitB: Int32Array = new Int32Array(0);
let h = 0;

function setN(n: number): void {
  if (geometryN === n) return;
  checkJoinSize(n);
  ({ a: bitA, b: bitB } = diagonalBits(n));
  h = n >> 1;
  geometryN = n;
}

function push(a: number, b: number): void {
  if (found === famA.length) {
    const grownA = new Int32Array(found * 2);
    const grownB = new Int32Array(found * 2);
    grownA.set(famA);
    grownB.set(famB);
    famA = grownA;
    famB = grownB;
  }
  famA[found] = a;
  famB[found] = b;
  found++;
}

const rowList = new Int32Array(32);
let rowCount = 0;
let attacks: Int32Array = new Int32Array(32);
let attacksRow = -1;
let attacksN = -1;

/** Every east-style half on rows rowList[k..]: columns, diagonals (shifted to row rowList[k]) and window bits so far. */
function place(k: number, cols: number, ld: number, rd: number, a: number, b: number): void {
  const r = rowList[k];
  let avail = ~(cols | ld | rd | attacks[r]) & ((1 << h) - 1);
  if (k === rowCount - 1) {
    while (avail !== 0) {
      const bit = avail & -avail;
      avail ^= bit;
      const i = r * h + 31 - Math.clz32(bit);
      push(a | bitA[i], b | bitB[i]);
    }
    return;
  }
  const gap = rowList[k + 1] - r;
  while (avail !== 0) {
    const bit = avail & -avail;
    avail ^= bit;
    const i = r * h + 31 - Math.clz32(bit);
    place(k + 1, cols | bit, (ld | bit) << gap, (rd | bit) >>> gap, a | bitA[i], b | bitB[i]);
  }
}

/** Appends to famA/famB every east-style half on the rows of `rows`; returns how many. */
function enumerateHalves(n: number, rows: number): number {
  rowCount = 0;
  for (let r = 0; r < n; r++) if ((rows >>> r) & 1) rowList[rowCount++] = r;
  found = 0;
  if (rowCount > 0) place(0, 0, 0, 0, 0, 0);
  return found;
}

// East halves' group keys and residues, then their bit-sliced groups; reused across units.
let eastKey = new Int32Array(0);
let eastResA = new Int32Array(0);
let eastResB = new Int32Array(0);
const perGroupCount = new Int32Array(256);
let tables = new Int32Array(0);
const groupFirstBlock = new Int32Array(257);

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Solutions of one unit: east and west halves with disjoint diagonals. */
export function countJoinUnit(n: number, unit: JoinUnit): bigint {
  setN(n);
  if (attacksRow !== unit.centreRow || attacksN !== n) {
    attacks = centreAttacks(n, unit.centreRow);
    attacksRow = unit.centreRow;
    attacksN = n;
  }
  const all = (1 << n) - 1;
  const westRows = all & ~unit.eastRows & ~(unit.centreRow >= 0 ? 1 << unit.centreRow : 0);

  const gBits = groupBits(n);
  const shift = groupShift(n);
  const gMask = (1 << gBits) - 1;
  const lowMask = (1 << shift) - 1;
  const groups = 1 << (2 * gBits);

  // East halves, as (A, B): group key and residue per half.
  const eastCount = enumerateHalves(n, unit.eastRows);
  if (eastCount === 0) return 0n;
  if (eastKey.length < eastCount) {
    eastKey = new Int32Array(famA.length);
    eastResA = new Int32Array(famA.length);
    eastResB = new Int32Array(famA.length);
  }
  const perGroup = perGroupCount.subarray(0, groups).fill(0);
  for (let i = 0; i < eastCount; i++) {
    const a = famA[i];
    const b = famB[i];
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    eastKey[i] = key;
    eastResA[i] = (a & lowMask) | ((a >>> (shift + gBits)) << shift);
    eastResB[i] = (b & lowMask) | ((b >>> (shift + gBits)) << shift);
    perGroup[key]++;
  }
  let blocks = 0;
  for (let g = 0; g < groups; g++) {
    groupFirstBlock[g] = blocks;
    blocks += (perGroup[g] + 31) >>> 5;
  }
  groupFirstBlock[groups] = blocks;
  if (tables.length < blocks * TABLE_WORDS) tables = new Int32Array(blocks * TABLE_WORDS * 2);
  buildTables(eastCount, eastKey, eastResA, eastResB, perGroup, blocks);

  // West halves, mirrored: family A of the east meets family B of the west.
  const westCount = enumerateHalves(n, westRows);
  let total = 0;
  const t = tables;
  for (let i = 0; i < westCount; i++) {
    const a = famB[i]; // meets east family A
    const b = famA[i]; // meets east family B
    const key = ((a >>> shift) & gMask) | (((b >>> shift) & gMask) << gBits);
    const resA = (a & lowMask) | ((a >>> (shift + gBits)) << shift);
    const resB = (b & lowMask) | ((b >>> (shift + gBits)) << shift);
    const o0 = resA & CHUNK_MASK;
    const o1 = 32 + ((resA >>> 5) & CHUNK_MASK);
    const o2 = 64 + ((resA >>> 10) & CHUNK_MASK);
    const o3 = 96 + (resB & CHUNK_MASK);
    const o4 = 128 + ((resB >>> 5) & CHUNK_MASK);
    const o5 = 160 + ((resB >>> 10) & CHUNK_MASK);
    const free = ~key & (groups - 1);
    // Every group g within `free`, from `free` down to 0.
    for (let g = free; ; g = (g - 1) & free) {
      const end = groupFirstBlock[g + 1] * TABLE_WORDS;
      for (let base = groupFirstBlock[g] * TABLE_WORDS; base < end; base += TABLE_WORDS) {
        const match = t[base + o0] & t[base + o1] & t[base + o2] & t[base + o3] & t[base + o4] & t[base + o5];
        if (match !== 0) total += popcount(match);
      }
      if (g === 0) break;
    }
  }
  return BigInt(total);
}

const clearOf = new Int32Array(CHUNKS * CHUNK_BITS);
const slotInGroup = new Int32Array(257);

/** Fills the bit-sliced tables: east half j of a block is bit j of every word. */
function buildTables(count: number, key: Int32Array, resA: Int32Array, resB: Int32Array, perGroup: Int32Array, blocks: number): void {
  const t = tables;
  // "Has this diagonal" words first, at the table's start; padding has every diagonal.
  t.fill(0, 0, blocks * TABLE_WORDS);
  slotInGroup.fill(0);
  for (let i = 0; i < count; i++) {
    const g = key[i];
    const slot = slotInGroup[g]++;
    const base = (groupFirstBlock[g] + (slot >>> 5)) * TABLE_WORDS;
    const bit = 1 << (slot & 31);
    // Family A's residue in words 0..14, family B's from 15.
    for (let r = resA[i], d = 0; r !== 0; d++, r >>>= 1) if (r & 1) t[base + d] |= bit;
    for (let r = resB[i], d = 15; r !== 0; d++, r >>>= 1) if (r & 1) t[base + d] |= bit;
  }
  for (let g = 0; g < perGroup.length; g++) {
    const first = groupFirstBlock[g];
    const last = groupFirstBlock[g + 1];
    for (let blk = first; blk < last; blk++) {
      const base = blk * TABLE_WORDS;
      const inBlock = blk < last - 1 ? 32 : perGroup[g] - (blk - first) * 32;
      const valid = inBlock === 32 ? -1 : (1 << inBlock) - 1;
      for (let d = 0; d < CHUNKS * CHUNK_BITS; d++) clearOf[d] = ~t[base + d];
      for (let c = 0; c < CHUNKS; c++) {
        const row = base + (c << CHUNK_BITS);
        // Chunk c covers family c/3, diagonals 5*(c%3)..+4 of its residue.
        const first = ((c / 3) | 0) * 15 + (c % 3) * CHUNK_BITS;
        t[row] = valid;
        for (let v = 1; v <= CHUNK_MASK; v++) {
          t[row + v] = t[row + (v & (v - 1))] & clearOf[first + 31 - Math.clz32(v & -v)];
        }
      }
    }
  }
}
