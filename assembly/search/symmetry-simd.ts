// The SIMD search for one constellation, used by the SIMD build. The open
// rows' attacked squares live in four i32x4 vectors (16 lanes, one row each),
// so after each queen one OR per vector updates every row at once, and two
// cheap tests prune whole subtrees: a row with no free square left (forward
// checking), and a free column that no open row can take. The search branches
// on the most constrained row (fewest free squares) in the top levels, where
// a good choice saves the most, and below them on the first open lane, which
// the lane order makes the row nearest the board's middle. The last two rows
// are settled without pushing.
//
// Lane encoding: bits 0..n-1 squares (1 = attacked or column taken), bits
// n..30 always set, bit 31 clear while the row is open; a filled row, or a
// lane beyond the inner rows, is all ones.
import { boardMask, diagonalAttacks } from "../shared/common";

/** Most rows the lanes can hold; the rows above them are searched plainly. */
const LANES: i32 = 16;
let laneRows: i32 = LANES;
/**
 * Fewer rows than this go to the plain search: filling the attack table
 * costs more than SIMD saves on small subproblems (break-even measured at
 * 10 to 11 rows left, n = 14).
 */
export let simdMinRows: i32 = 11;

/**
 * Test hook, exported by the bench/test build only (assembly/baseline/bench-entry.ts):
 * use SIMD from `minRows` rows left, holding at most `laneRows`
 * (2..16) of them in lanes, to exercise every path on small boards.
 */
export function setSimdTuning(laneRowsLimit: i32, minRows: i32): void {
  laneRows = laneRowsLimit < 2 ? 2 : laneRowsLimit > LANES ? LANES : laneRowsLimit;
  simdMinRows = minRows;
}

// [lane][col] -> the attacks of a queen at (lane, col) on all 16 lanes.
const ATTACKS: usize = memory.data(16 * 32 * 64, 16);
// One frame per level: the 16 lanes (64 bytes), then avail, cols, lane, open.
const FRAMES: usize = memory.data(18 * 80, 16);
const LANE_IDS: usize = memory.data<i32>([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], 16);
const SCRATCH: usize = memory.data(64, 16);
const OPEN_FULL: u32 = 0x7fffffff;
// Below this depth, branch on the first open row instead of the tightest.
const CHOOSE_TIGHTEST_ABOVE: i32 = 8;

// @ts-ignore: decorator
@inline function frameLane(fp: usize, lane: i32): u32 {
  return load<u32>(fp + (<usize>lane << 2));
}

// The constellation being counted, for the plain top part.
let boardSize: i32 = 0;
let topRows: i32 = 0;
let lanes: i32 = 0;
let attacksOf: usize = 0;
let rowsOf: usize = 0;
// Lane j holds inner row topRows + PERM[j]: the lane rows ordered from the
// board's middle outwards, so that "the first open lane" (the branching row
// below CHOOSE_TIGHTEST_ABOVE, and the tie-break of tightestLane) is a
// middle row; middle rows prune best (about 17% fewer nodes than top-down).
const PERM: usize = memory.data(16 * 4, 16);

// @ts-ignore: decorator
@inline function laneRow(j: i32): i32 {
  return topRows + load<i32>(PERM + (<usize>j << 2));
}

/** Distance of inner row topRows + p from the board's middle, doubled; ties: the upper row first. */
// @ts-ignore: decorator
@inline function middleKey(p: i32): i32 {
  return (abs(2 * innerRowOf(topRows + p) - (boardSize - 1)) << 5) | p;
}

// @ts-ignore: decorator
@inline function innerRowOf(k: i32): i32 {
  return load<i32>(rowsOf + (<usize>k << 2));
}

/**
 * Counts the completions given, per inner row k, its board row (rowOf, an
 * i32 per row) and the border queens' attacks on it (attacks, a u32 every 8
 * bytes: the row table of symmetry.ts). Needs n <= 31: bit 31 marks
 * an open lane. When more than 16 rows are left, the top ones are searched
 * plainly and the SIMD search runs below each of their placements.
 */
export function countSimd(n: i32, inner: i32, used: u32, attacks: usize, rowOf: usize): u64 {
  if (inner == 1) return <u64>popcnt(~(used | load<u32>(attacks)) & boardMask(n));
  boardSize = n;
  lanes = inner < laneRows ? inner : laneRows;
  topRows = inner - lanes;
  attacksOf = attacks;
  rowsOf = rowOf;
  // Insertion sort of the lane rows by middleKey.
  for (let j = 0; j < lanes; j++) {
    const key = middleKey(j);
    let i = j - 1;
    while (i >= 0 && middleKey(load<i32>(PERM + (<usize>i << 2))) > key) {
      store<i32>(PERM + (<usize>(i + 1) << 2), load<i32>(PERM + (<usize>i << 2)));
      i--;
    }
    store<i32>(PERM + (<usize>(i + 1) << 2), j);
  }
  for (let j = 0; j < lanes; j++) {
    const rj = innerRowOf(laneRow(j));
    for (let col = 0; col < n; col++) {
      const base = ATTACKS + (<usize>((j << 5) | col) << 6);
      // Entries for lanes past `lanes` are never read: those lanes stay all ones.
      for (let l = 0; l < lanes; l++) {
        let m: u32 = 0xffffffff;
        if (l != j) m = (1 << col) | diagonalAttacks(n, innerRowOf(laneRow(l)), rj, col);
        store<u32>(base + (<usize>l << 2), m);
      }
    }
  }
  return searchTop(0, used, 0, 0);
}

/** The plain DFS over the top rows; ld and rd are the attacks on inner row k. */
function searchTop(k: i32, cols: u32, ld: u32, rd: u32): u64 {
  if (k == topRows) {
    // Load each lane with everything that attacks its row so far.
    const row = innerRowOf(k);
    for (let j = 0; j < 16; j++) {
      let state: u32 = 0xffffffff;
      if (j < lanes) {
        const kj = laneRow(j);
        const dist = <u32>(innerRowOf(kj) - row);
        state = (cols | (ld << dist) | (rd >> dist) | load<u32>(attacksOf + (<usize>kj << 3))) & OPEN_FULL;
      }
      store<u32>(FRAMES + (<usize>j << 2), state);
    }
    return search(lanes, cols);
  }
  const shift = <u32>(innerRowOf(k + 1) - innerRowOf(k));
  let avail = ~(cols | ld | rd | load<u32>(attacksOf + (<usize>k << 3)));
  let count: u64 = 0;
  while (avail != 0) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    count += searchTop(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >> shift);
  }
  return count;
}

/** The open lane with the fewest free squares (ties: the lowest lane). Not inlined: it is called from two places. */
function tightestLane(fp: usize): i32 {
  // key = (free squares - 1) << 4 | lane; a closed lane has no free square, so its key wraps to the top.
  const one = i32x4.splat(1);
  let k0 = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(v128.not(v128.load(fp)))));
  let k1 = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(v128.not(v128.load(fp, 16)))));
  let k2 = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(v128.not(v128.load(fp, 32)))));
  let k3 = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(v128.not(v128.load(fp, 48)))));
  k0 = v128.or(i32x4.shl(i32x4.sub(k0, one), 4), v128.load(LANE_IDS));
  k1 = v128.or(i32x4.shl(i32x4.sub(k1, one), 4), v128.load(LANE_IDS, 16));
  k2 = v128.or(i32x4.shl(i32x4.sub(k2, one), 4), v128.load(LANE_IDS, 32));
  k3 = v128.or(i32x4.shl(i32x4.sub(k3, one), 4), v128.load(LANE_IDS, 48));
  let m = i32x4.min_u(i32x4.min_u(k0, k1), i32x4.min_u(k2, k3));
  m = i32x4.min_u(m, i32x4.shuffle(m, m, 2, 3, 0, 1));
  m = i32x4.min_u(m, i32x4.shuffle(m, m, 1, 0, 3, 2));
  return i32x4.extract_lane(m, 0) & 15;
}

/** The SIMD search over the lanes loaded in the first frame. */
function search(inner: i32, used: u32): u64 {
  let open: u32 = (1 << inner) - 1;
  let count: u64 = 0;
  let fp = FRAMES;
  let depth = 0;
  const lastPush = inner - 2;
  let cols = used;
  let lane = tightestLane(fp);
  open ^= 1 << lane;
  let avail = ~frameLane(fp, lane) & OPEN_FULL;
  const full = i32x4.splat(OPEN_FULL);
  while (true) {
    if (avail != 0) {
      const bit = avail & (0 - avail);
      avail ^= bit;
      const t = ATTACKS + (<usize>((lane << 5) | ctz(bit)) << 6);
      const n0 = v128.or(v128.load(fp), v128.load(t));
      const n1 = v128.or(v128.load(fp, 16), v128.load(t, 16));
      const n2 = v128.or(v128.load(fp, 32), v128.load(t, 32));
      const n3 = v128.or(v128.load(fp, 48), v128.load(t, 48));
      // A row left with no free square, or a free column no row can take: prune.
      const dead = v128.or(v128.or(i32x4.eq(n0, full), i32x4.eq(n1, full)), v128.or(i32x4.eq(n2, full), i32x4.eq(n3, full)));
      let blocked = v128.and(v128.and(n0, n1), v128.and(n2, n3));
      blocked = v128.and(blocked, i32x4.shuffle(blocked, blocked, 2, 3, 0, 1));
      blocked = v128.and(blocked, i32x4.shuffle(blocked, blocked, 1, 0, 3, 2));
      const nc = cols | bit;
      if (v128.any_true(dead) || (<u32>i32x4.extract_lane(blocked, 0) & ~nc) != 0) continue;
      if (depth == lastPush) {
        // One row left, not dead, and its one free column is open: a solution.
        count++;
        continue;
      }
      if (depth == lastPush - 1) {
        // Two rows (l1, l2) and two free columns (x < y) left: try both pairings.
        v128.store(SCRATCH, n0);
        v128.store(SCRATCH, n1, 16);
        v128.store(SCRATCH, n2, 32);
        v128.store(SCRATCH, n3, 48);
        const l1 = ctz(open);
        const l2 = ctz(open & (open - 1));
        const f1 = ~load<u32>(SCRATCH + (<usize>l1 << 2));
        const f2 = ~load<u32>(SCRATCH + (<usize>l2 << 2));
        const free = ~nc;
        const x = free & (0 - free);
        const y = free ^ x;
        const xHitsL2 = load<u32>(ATTACKS + (<usize>((l1 << 5) | ctz(x)) << 6) + (<usize>l2 << 2));
        const yHitsL2 = load<u32>(ATTACKS + (<usize>((l1 << 5) | ctz(y)) << 6) + (<usize>l2 << 2));
        const xy = u32((f1 & x) != 0) & u32((f2 & y) != 0) & u32((xHitsL2 & y) == 0);
        const yx = u32((f1 & y) != 0) & u32((f2 & x) != 0) & u32((yHitsL2 & x) == 0);
        count += <u64>(xy + yx);
        continue;
      }
      store<u32>(fp, avail, 64);
      store<u32>(fp, cols, 68);
      store<i32>(fp, lane, 72);
      store<u32>(fp, open, 76);
      fp += 80;
      v128.store(fp, n0);
      v128.store(fp, n1, 16);
      v128.store(fp, n2, 32);
      v128.store(fp, n3, 48);
      cols = nc;
      depth++;
      lane = depth < CHOOSE_TIGHTEST_ABOVE ? tightestLane(fp) : ctz(open);
      open ^= 1 << lane;
      avail = ~frameLane(fp, lane) & OPEN_FULL;
    } else {
      if (depth == 0) break;
      fp -= 80;
      depth--;
      avail = load<u32>(fp, 64);
      cols = load<u32>(fp, 68);
      lane = load<i32>(fp, 72);
      open = load<u32>(fp, 76);
    }
  }
  return count;
}
