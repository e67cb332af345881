// The symmetry search's subproblem: the solutions that contain a given
// "border constellation", the four queens standing in row 0 (column a),
// row n-1 (column b), column 0 (row c) and column n-1 (row d). Every
// solution has exactly one queen on each border line, so the constellations
// split the whole search; the host keeps one constellation per D4 class and
// weights it. Here we only count completions of one constellation, skipping
// the rows the border queens already fill.
import { boardMask } from "./common";
import { countSimd, simdMinRows } from "./symmetry-simd";

// Per inner row k: the attacks of the border queens on it (u32) and the
// distance to the next inner row (u32).
const ROWS: usize = memory.data(32 * 8);
// One frame per inner row: avail, cols, ld, rd.
const STACK: usize = memory.data(32 * 16);
// For the symmetric (slow) path: the board row of each inner row, and
// placement[row] = column.
const INNER_ROW: usize = memory.data(32 * 4);
// The border queens' attacks per inner row, packed, for the SIMD search.
const INNER_ATTACKS: usize = memory.data(32 * 4);
const PLACEMENT: usize = memory.data(32 * 4);

let fixes: u64 = 0;

/**
 * For the last count with a non-zero `symmetries` mask: the number of pairs
 * (solution, symmetry in the mask) where the symmetry maps the solution to itself.
 */
export function lastFixes(): u64 {
  return fixes;
}

// @ts-ignore: decorator
@inline function diagonalAttacks(n: i32, row: i32, qr: i32, qc: i32): u32 {
  const dist = row - qr;
  let m: u32 = 0;
  const up = qc + dist;
  const down = qc - dist;
  if (up >= 0 && up < n) m |= 1 << up;
  if (down >= 0 && down < n) m |= 1 << down;
  return m;
}

/**
 * Fills ROWS for the constellation; returns the number of inner rows left to
 * search. The first `placed` inner rows already hold queens (a refined unit,
 * see src/plan.ts): they are skipped, and their diagonal attacks arrive as
 * `ld`/`rd`, the masks a top-down search would carry into the next inner row.
 */
function prepare(n: i32, a: i32, b: i32, c: i32, d: i32, placed: i32, ld: u32, rd: u32): i32 {
  let inner = 0;
  let previous = -1;
  let first = -1;
  for (let row = 1; row < n - 1; row++) {
    if (row == c || row == d) continue;
    if (placed > 0) {
      placed--;
      continue;
    }
    if (first < 0) first = row;
    const attacks =
      diagonalAttacks(n, row, 0, a) |
      diagonalAttacks(n, row, n - 1, b) |
      diagonalAttacks(n, row, c, 0) |
      diagonalAttacks(n, row, d, n - 1) |
      (ld << <u32>(row - first)) |
      (rd >> <u32>(row - first));
    store<u32>(ROWS + (<usize>inner << 3), attacks);
    store<i32>(INNER_ROW + (<usize>inner << 2), row);
    store<u32>(INNER_ATTACKS + (<usize>inner << 2), attacks);
    if (previous >= 0) store<u32>(ROWS + (<usize>(inner - 1) << 3), row - previous, 4);
    previous = row;
    inner++;
  }
  return inner;
}

/**
 * Counts the solutions containing the constellation (a, b, c, d), which the
 * host has checked to be non-attacking. `symmetries` is a bit mask of the
 * symmetries (numbered as in src/constellations.ts, 1..7) that map the
 * constellation to itself; when it is non-zero, lastFixes() afterwards tells
 * how often they map a solution to itself.
 * A refined unit passes `placed` > 0 inner rows already filled (top-down),
 * the columns they take (`cols`) and their diagonals as seen from the next
 * inner row (`ld`, `rd`); it must pass `symmetries` = 0.
 */
export function countConstellation(n: i32, a: i32, b: i32, c: i32, d: i32, symmetries: i32, placed: i32, cols: u32, ld: u32, rd: u32): u64 {
  const inner = prepare(n, a, b, c, d, placed, ld, rd);
  // Columns outside the board are marked used, so no separate mask is needed.
  const used: u32 = ~boardMask(n) | 1 | (1 << (n - 1)) | (1 << a) | (1 << b) | cols;
  if (symmetries != 0) return countSymmetric(n, a, b, c, d, inner, used, symmetries);
  if (inner == 0) return 1;
  // The SIMD build (see asconfig.json) prunes far more per node; it needs n <= 31 for its lane encoding.
  if (ASC_FEATURE_SIMD && n <= 31 && inner >= simdMinRows) return countSimd(n, inner, used, INNER_ATTACKS, INNER_ROW);
  return countInner(inner, used);
}

function countInner(inner: i32, used: u32): u64 {
  let count: u64 = 0;
  let sp = STACK;
  let row = ROWS;
  const last = ROWS + (<usize>(inner - 1) << 3);
  let cols = used;
  let ld: u32 = 0;
  let rd: u32 = 0;
  let avail = ~(cols | load<u32>(row));
  while (true) {
    if (row == last) {
      count += <u64>popcnt(avail);
      avail = 0;
    }
    if (avail != 0) {
      const bit = avail & (0 - avail);
      avail ^= bit;
      store<u32>(sp, avail);
      store<u32>(sp, cols, 4);
      store<u32>(sp, ld, 8);
      store<u32>(sp, rd, 12);
      sp += 16;
      const shift = load<u32>(row, 4);
      row += 8;
      cols |= bit;
      ld = (ld | bit) << shift;
      rd = (rd | bit) >> shift;
      avail = ~(cols | ld | rd | load<u32>(row));
    } else {
      if (sp == STACK) break;
      sp -= 16;
      row -= 8;
      avail = load<u32>(sp);
      cols = load<u32>(sp, 4);
      ld = load<u32>(sp, 8);
      rd = load<u32>(sp, 12);
    }
  }
  return count;
}

// The rare constellations with a non-trivial stabiliser: a plain recursive
// search that keeps the placement, so each solution can be tested against
// the symmetries that fix its constellation.
let size: i32 = 0;
let innerRows: i32 = 0;
let symmetryMask: i32 = 0;

function countSymmetric(n: i32, a: i32, b: i32, c: i32, d: i32, inner: i32, used: u32, symmetries: i32): u64 {
  size = n;
  innerRows = inner;
  symmetryMask = symmetries;
  fixes = 0;
  store<i32>(PLACEMENT, a);
  store<i32>(PLACEMENT + (<usize>(n - 1) << 2), b);
  store<i32>(PLACEMENT + (<usize>c << 2), 0);
  store<i32>(PLACEMENT + (<usize>d << 2), n - 1);
  return searchSymmetric(0, used, 0, 0);
}

function searchSymmetric(k: i32, cols: u32, ld: u32, rd: u32): u64 {
  if (k == innerRows) {
    for (let g = 1; g < 8; g++) {
      if ((symmetryMask >> g) & 1 && isFixedBy(g)) fixes++;
    }
    return 1;
  }
  const entry = ROWS + (<usize>k << 3);
  const row = load<i32>(INNER_ROW + (<usize>k << 2));
  const shift = load<u32>(entry, 4);
  let avail = ~(cols | ld | rd | load<u32>(entry));
  let count: u64 = 0;
  while (avail != 0) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    store<i32>(PLACEMENT + (<usize>row << 2), ctz(bit));
    count += searchSymmetric(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >> shift);
  }
  return count;
}

// @ts-ignore: decorator
@inline function placed(row: i32): i32 {
  return load<i32>(PLACEMENT + (<usize>row << 2));
}

/** Does symmetry g (1..7, as in src/constellations.ts) map the placement to itself? */
function isFixedBy(g: i32): bool {
  const m = size - 1;
  for (let r = 0; r <= m; r++) {
    const c = placed(r);
    // The image of the queen (r, c) must be a queen too.
    let ok: bool;
    switch (g) {
      case 1: ok = placed(c) == m - r; break; // quarter turn: (c, m-r)
      case 2: ok = placed(m - r) == m - c; break; // half turn
      case 3: ok = placed(m - c) == r; break; // three-quarter turn
      case 4: ok = c == m - c; break; // mirror left-right: (r, m-c)
      case 5: ok = placed(m - r) == c; break; // mirror top-bottom
      case 6: ok = placed(c) == r; break; // transpose
      default: ok = placed(m - c) == m - r; // anti-transpose
    }
    if (!ok) return false;
  }
  return true;
}
