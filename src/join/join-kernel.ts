// The half-board join in TypeScript: the solutions of one row split (a unit
// of src/join/join-plan.ts), as the number of (east, west) half-boards
// whose diagonals are disjoint. See join-geometry.ts for the bits.
//
// Half-boards are joined from quarter boards (./quarter-tables.ts).
// The pair count is the cost. East halves are grouped by a few middle
// diagonals of each family (a west half visits only groups it can match),
// and each group is bit-sliced in blocks of 32: per block and per 5-bit
// chunk of the remaining diagonals, a table of 32 words whose bit i says
// "east half i is clear of these diagonals", built by a superset-OR
// transform. A west half then tests 32 east halves with six loads and ANDs.
// Nearly every word comes out zero, so the popcount sits behind a branch.
// assembly/join/join-kernel.ts does the same with 64 or 128 halves per block, packs the
// groups without padding (a probe masks the halves of the groups it may
// meet), and sorts the probing halves by group key first.
import { CHUNK_BITS, CHUNKS, groupBits, MAX_GROUP_BITS, windowBits } from './join-geometry.js';
import { checkJoinSize, checkJoinUnit, maxHalves, QUARTER_CACHE_BYTES, type JoinUnit } from './join-plan.js';
import { popcount } from '../shared/bits.js';
import { QuarterCache } from './quarter-tables.js';
import { inPieces, PieceSize } from './pieces.js';

const TABLE_WORDS = CHUNKS << CHUNK_BITS; // words per 32-half block
const SHARES = 24; // family A's bits 24 to 27, above every window (23 bits at most), hold a half's shares
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** Grows on demand; reused across units. */
let famA = new Int32Array(1024);
let famB = new Int32Array(1024);
let found = 0;

/** Per-n state, rebuilt when n changes. */
let geometryN = -1;
let h = 0;

/** Readies the per-n state for board size n (twin of assembly/join/join-memory.ts's configure). */
function configure(n: number): void {
  if (geometryN === n) return;
  checkJoinSize(n);
  h = n >> 1;
  geometryN = n;
  owner = 0; // the halves listed were of another n
}

/** Makes room for `more` halves past the `found` listed. */
function reserve(more: number): void {
  if (found + more <= famA.length) return;
  // Never past the bound joinMemoryBytes assumes (maxHalves(n) + 1: see join-plan.ts).
  const grownA = new Int32Array(Math.max(Math.min(2 * famA.length, maxHalves(geometryN) + 1), found + more));
  const grownB = new Int32Array(grownA.length);
  grownA.set(famA);
  grownB.set(famB);
  famA = grownA;
  famB = grownB;
}

/** The quarter tables of the current n (./quarter-tables.ts). */
let quarters: QuarterCache | undefined;
let cacheBytes = QUARTER_CACHE_BYTES;

/** Sets the quarter tables' byte budget (tests make it small to exercise dropping tables); returns the old one. */
export function setQuarterCacheBytes(bytes: number): number {
  const old = cacheBytes;
  cacheBytes = bytes;
  quarters = undefined;
  return old;
}

/** Quarter tables built so far for the current n (tests). */
export function quarterTablesBuilt(): number {
  return quarters?.built ?? 0;
}

/**
 * Appends to famA/famB every east-style half on the rows of `rows`, clear of
 * the centre queen (odd n), as its diagonal masks: family A as window bits
 * (bit r + c - band), family B raw (bit r - c + h - 1; countPass takes its
 * window bits); returns how many.
 */
function enumerateHalves(n: number, rows: number, centreRow: number): number {
  found = 0;
  if (!quarters || quarters.n !== n) quarters = new QuarterCache(n, cacheBytes);
  const band = n - h;
  const north = quarters.get(rows & ((1 << band) - 1));
  const south = quarters.get(rows >>> band);
  const { colSets, colSetStart, rank } = quarters.sets;
  const k = popcount(rows & ((1 << band) - 1));
  const allCols = (1 << h) - 1;
  const first = colSetStart[k];
  // The most halves these two tables can give (before the diagonal checks): room for all of them, and one more.
  let most = 0;
  for (let s = first, sEnd = colSetStart[k + 1]; s < sEnd; s++) {
    const i = s - first;
    const j = rank[allCols & ~colSets[s]];
    most += (north.start[i + 1] - north.start[i]) * (south.start[j + 1] - south.start[j]);
  }
  reserve(most + 1);
  // Family A in window bits: a south entry's band-local r + c as it is, a
  // north entry's shifted down by band. Raw, it would reach bit 34 at n = 24;
  // the bits shifted out are diagonals no south queen and no window has.
  // Family B raw: the bits a south entry loses past bit 31 are diagonals only
  // south queens have, above the window.
  // The centre column's queen (row centreRow, column h), on the same
  // diagonals: against north entries as they are, against south ones in
  // window bits (below the window, no south queen meets it).
  const cenNorth = centreRow >= 0 && centreRow + h < 31 ? 1 << (centreRow + h) : 0;
  const cen1 = centreRow >= 0 && centreRow + h >= band ? 1 << (centreRow + h - band) : 0;
  const cen2 = centreRow >= 1 ? 1 << (centreRow - 1) : 0;
  const nq = north.d;
  const sq = south.d;
  const outA = famA;
  const outB = famB;
  // The transpose's test (join-plan.ts), for when these halves are probes:
  // the other side's rows in the south band (numbered from the board's last
  // row) and in the north band. Even n only: odd n's shares are 1.
  const other = ~rows & ((1 << (2 * h)) - 1);
  let southRows = 0;
  for (let r = 0; r < h; r++) southRows |= ((other >>> (2 * h - 1 - r)) & 1) << r;
  const northRows = other & allCols;
  for (let s = first, sEnd = colSetStart[k + 1]; s < sEnd; s++) {
    const i = s - first;
    const cols = colSets[s];
    const j = rank[allCols & ~cols];
    // This column set's shares, above the window of family A: the board's main diagonal (r = c), then the other.
    const shares = (band === h ? share(southRows, cols) | (share(northRows, allCols & ~cols) << 2) : 5) << SHARES;
    const sFirst = 2 * south.start[j];
    const sLast = 2 * south.start[j + 1];
    if (sFirst === sLast) continue;
    const xEnd = 2 * north.start[i + 1];
    for (let x = 2 * north.start[i]; x < xEnd; x += 2) {
      const n1 = nq[x] >>> band;
      const n2 = nq[x + 1];
      if ((nq[x] & cenNorth) | (n2 & cen2)) continue;
      const m1 = n1 | cen1;
      const m2 = n2 | cen2;
      for (let y = sFirst; y < sLast; y += 2) {
        const s1 = sq[y];
        const s2 = sq[y + 1] << band;
        // Branch-free: write every candidate, keep it only if it fits (room for one past the last).
        outA[found] = n1 | s1 | shares;
        outB[found] = n2 | s2;
        found += ((m1 & s1) | (m2 & s2)) === 0 ? 1 : 0;
      }
    }
  }
  return found;
}

/** 2, 1 or 0 as the split's side of the transpose's test is below, equal to or above the probe's. */
function share(split: number, probe: number): number {
  return split < probe ? 2 : split === probe ? 1 : 0;
}

// East halves' group keys and residues, then their bit-sliced groups; reused across units.
let eastKey = new Int32Array(0);
let eastResA = new Int32Array(0);
let eastResB = new Int32Array(0);
const perGroupCount = new Int32Array(1 << (2 * MAX_GROUP_BITS));
let tables = new Int32Array(0);
const groupFirstBlock = new Int32Array((1 << (2 * MAX_GROUP_BITS)) + 1);

/** The east halves of the unit being counted, moved out of famA/famB before the west ones are listed. */
let eastA = new Int32Array(0);
let eastB = new Int32Array(0);

/** The stepped count the module's state was last prepared for (see countJoinUnitSteps). */
let owner = 0;
let lastOwner = 0;

/**
 * Solutions of one unit: east and west halves with disjoint diagonals, with
 * the long-diagonal filter (see join-plan.ts): the split's count, plus, when
 * mirrorWeight is 2, its east-west mirror's, from the same two lists of
 * halves with the roles swapped.
 */
export function countJoinUnit(n: number, unit: JoinUnit): bigint {
  checkJoinSize(n);
  checkJoinUnit(unit, n);
  const me = ++lastOwner;
  let total = 0;
  for (let pass = 0; pass < (unit.mirrorWeight === 2 ? 2 : 1); pass++) total += countProbes(0, prepareUnit(n, unit, pass, me));
  return BigInt(total);
}

/** Probes per piece, kept from unit to unit. */
const pieces = new PieceSize(256);

/**
 * countJoinUnit in pieces of about `pieceMs` milliseconds of probes: yields
 * the share of the unit done after each. The halves and tables live in this
 * module, shared by every count on the thread: if another unit used them
 * while this one was suspended, its pass is prepared again before it goes on.
 */
export function* countJoinUnitSteps(n: number, unit: JoinUnit, pieceMs = 20): Generator<number, bigint, undefined> {
  checkJoinSize(n);
  checkJoinUnit(unit, n);
  const me = ++lastOwner;
  const passes = unit.mirrorWeight === 2 ? 2 : 1;
  return yield* inPieces(
    {
      passes,
      prepare: (pass) => prepareUnit(n, unit, pass, me),
      stale: () => owner !== me,
      count: (from, to) => BigInt(countProbes(from, to)),
    },
    pieces,
    pieceMs,
  );
}

/**
 * Makes the module's state that of `unit`'s pass (0: east halves as the
 * table, west as probes; 1: the mirror's), listing both sides' halves
 * unless they are `me`'s already; returns the pass's probes (0: nothing to count).
 * The per-n state is set here, not when a count starts: a count of another
 * n may have run while this one was suspended.
 */
function prepareUnit(n: number, unit: JoinUnit, pass: number, me: number): number {
  configure(n);
  if (owner !== me) {
    owner = me;
    const all = (1 << n) - 1;
    const westRows = all & ~unit.eastRows & ~(unit.centreRow >= 0 ? 1 << unit.centreRow : 0);
    eastCount = enumerateHalves(n, unit.eastRows, unit.centreRow);
    if (eastCount === 0) return 0;
    if (eastA.length < eastCount) {
      eastA = new Int32Array(famA.length);
      eastB = new Int32Array(famA.length);
    }
    eastA.set(famA.subarray(0, eastCount));
    eastB.set(famB.subarray(0, eastCount));
    westCount = enumerateHalves(n, westRows, unit.centreRow);
  }
  if (eastCount === 0) return 0;
  return pass === 0
    ? preparePass(n, eastA, eastB, eastCount, famA, famB, westCount, unit.mirrorWeight)
    : preparePass(n, famA, famB, westCount, eastA, eastB, eastCount, 0);
}

let eastCount = 0;
let westCount = 0;

/** The pass being counted: its probe side and how its halves are keyed (preparePass). */
const pass = { wA: famA, wB: famB, mirrorWeight: 0, shift: 0, gMask: 0, gBits: 0, lowMask: 0, groups: 0 };

/**
 * Prepares a pass: pairs of a table side (east-style halves tA/tB, as east)
 * and a probe side (east-style halves wA/wB, mirrored into the west) with
 * disjoint diagonals. The long-diagonal filter: only table halves clear of
 * both long diagonals (window bit h - 1 of either family) count, that bit
 * is squeezed out of both sides, and a probe half counts 4 if it holds
 * both long diagonals, 2 x its share under the transpose's test
 * (enumerateHalves) if one, mirrorWeight times if neither. Returns the
 * probes to count (0 when no table half is clear).
 */
function preparePass(
  n: number,
  tA: Int32Array,
  tB: Int32Array,
  tCount: number,
  wA: Int32Array,
  wB: Int32Array,
  wCount: number,
  mirrorWeight: number,
): number {
  const window = (1 << (2 * h - 1)) - 1;
  const long = 1 << (h - 1);
  const below = long - 1; // bits under the squeezed one
  if (eastKey.length < tCount) {
    eastKey = new Int32Array(tA.length);
    eastResA = new Int32Array(tA.length);
    eastResB = new Int32Array(tA.length);
  }
  let count = 0;
  for (let i = 0; i < tCount; i++) {
    const a = tA[i] & window; // family A is listed in window bits, B raw (enumerateHalves)
    const b = tB[i] & window;
    if ((a | b) & long) continue;
    eastResA[count] = (a & below) | ((a >>> 1) & ~below);
    eastResB[count] = (b & below) | ((b >>> 1) & ~below);
    count++;
  }
  if (count === 0) return 0;
  const width = windowBits(n) - 1;
  const gBits = groupBits(width, count, 32);
  const shift = (width - gBits) >> 1; // the group field: the middle bits, the busiest ones
  const gMask = (1 << gBits) - 1;
  const lowMask = (1 << shift) - 1;
  const groups = 1 << (2 * gBits);
  const perGroup = perGroupCount.subarray(0, groups).fill(0);
  for (let i = 0; i < count; i++) {
    const a = eastResA[i];
    const b = eastResB[i];
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
  buildTables(count, eastKey, eastResA, eastResB, blocks);

  Object.assign(pass, { wA, wB, mirrorWeight, shift, gMask, gBits, lowMask, groups });
  return wCount;
}

/** Weight times the matches of probes from .. to - 1 of the pass prepared. */
function countProbes(from: number, to: number): number {
  // The probe side, mirrored: family A of the east meets family B of the west.
  const window = (1 << (2 * h - 1)) - 1;
  const long = 1 << (h - 1);
  const below = long - 1;
  const { wA, wB, mirrorWeight, shift, gMask, gBits, lowMask, groups } = pass;
  let total = 0;
  const t = tables;
  for (let i = from; i < to; i++) {
    const fa = wA[i] & window;
    const fb = wB[i] & window;
    // By the long diagonals the probe holds: the main one (r = c) is fa's, the other fb's.
    const shares = wA[i] >>> SHARES;
    const weight = fa & long ? (fb & long ? 4 : 2 * (shares & 3)) : fb & long ? 2 * (shares >>> 2) : mirrorWeight;
    if (weight === 0) continue;
    const a = (fb & below) | ((fb >>> 1) & ~below); // meets east family A
    const b = (fa & below) | ((fa >>> 1) & ~below); // meets east family B
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
    let matches = 0;
    // Every group g within `free`, from `free` down to 0.
    for (let g = free; ; g = (g - 1) & free) {
      const end = groupFirstBlock[g + 1] * TABLE_WORDS;
      for (let base = groupFirstBlock[g] * TABLE_WORDS; base < end; base += TABLE_WORDS) {
        const match = t[base + o0] & t[base + o1] & t[base + o2] & t[base + o3] & t[base + o4] & t[base + o5];
        if (match !== 0) matches += popcount(match);
      }
      if (g === 0) break;
    }
    total += weight * matches;
  }
  return total;
}

const slotInGroup = new Int32Array((1 << (2 * MAX_GROUP_BITS)) + 1);

/**
 * Fills the bit-sliced tables: east half j of a block is bit j of every
 * word, and word v of a chunk says "clear of the diagonals in v". Each half
 * sets its bit in the word of the complement of its own chunk value, and a
 * superset-OR transform over the chunk's 5 bits spreads it to every subset
 * of that. Empty slots set nothing, so they never match.
 */
function buildTables(count: number, key: Int32Array, resA: Int32Array, resB: Int32Array, blocks: number): void {
  const t = tables;
  t.fill(0, 0, blocks * TABLE_WORDS);
  slotInGroup.fill(0);
  for (let i = 0; i < count; i++) {
    const g = key[i];
    const slot = slotInGroup[g]++;
    const base = (groupFirstBlock[g] + (slot >>> 5)) * TABLE_WORDS;
    const bit = 1 << (slot & 31);
    const ra = ~resA[i];
    const rb = ~resB[i];
    t[base + (ra & CHUNK_MASK)] |= bit;
    t[base + 32 + ((ra >>> 5) & CHUNK_MASK)] |= bit;
    t[base + 64 + ((ra >>> 10) & CHUNK_MASK)] |= bit;
    t[base + 96 + (rb & CHUNK_MASK)] |= bit;
    t[base + 128 + ((rb >>> 5) & CHUNK_MASK)] |= bit;
    t[base + 160 + ((rb >>> 10) & CHUNK_MASK)] |= bit;
  }
  const end = blocks * TABLE_WORDS;
  for (let row = 0; row < end; row += 32) {
    for (let b = 1; b < 32; b <<= 1) {
      for (let v = 0; v < 32; v++) if ((v & b) === 0) t[row + v] |= t[row + (v | b)];
    }
  }
}
