// The symmetry search's subproblem: the solutions that contain a given
// "border constellation", the four queens standing in row 0 (column a),
// row n-1 (column b), column 0 (row c) and column n-1 (row d). Every
// solution has exactly one queen on each border line, so the constellations
// split the whole search; the host keeps one constellation per D4 class and
// weights it. Here we count the completions of one constellation, skipping
// the rows the border queens already fill, and, for the rare constellations
// a symmetry maps to themselves, the solutions that symmetry maps to
// themselves (countConstellationFixes).
import { boardMask, diagonalAttacks } from "../shared/common";
import { countSimd, simdMinRows } from "./symmetry-simd";

// Per inner row k: the attacks of the border queens on it (u32) and the
// distance to the next inner row (u32). The SIMD search reads the attacks too.
const ROWS: usize = memory.data(32 * 8);
// One frame per inner row: avail, cols, ld, rd.
const STACK: usize = memory.data(32 * 16);
// The board row of each inner row, and, for the fixes search, placement[row] = column.
const INNER_ROW: usize = memory.data(32 * 4);
const PLACEMENT: usize = memory.data(32 * 4);

/**
 * Fills ROWS and INNER_ROW for the constellation; returns the number of inner
 * rows left to search. The first `placed` inner rows already hold queens (a
 * refined plan unit, see src/search/search-plan.ts): they are skipped, and their diagonal
 * attacks arrive as `ld`/`rd`, the masks a top-down search would carry into
 * the next inner row.
 */
function prepare(n: i32, a: i32, b: i32, c: i32, d: i32, placed: i32 = 0, ld: u32 = 0, rd: u32 = 0): i32 {
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
    if (previous >= 0) store<u32>(ROWS + (<usize>(inner - 1) << 3), row - previous, 4);
    previous = row;
    inner++;
  }
  return inner;
}

/** Columns taken by the border queens; columns outside the board count as taken, so no separate mask is needed. */
// @ts-ignore: decorator
@inline function usedColumns(n: i32, a: i32, b: i32): u32 {
  return ~boardMask(n) | 1 | (1 << (n - 1)) | (1 << a) | (1 << b);
}

/**
 * Counts the solutions containing the constellation (a, b, c, d), which the
 * host has checked to be non-attacking. A refined plan unit passes `placed`
 * inner rows already filled (top-down), the columns they take (`cols`) and
 * their diagonals as seen from the next inner row (`ld`, `rd`); 0s for none.
 */
export function countConstellation(n: i32, a: i32, b: i32, c: i32, d: i32, placed: i32, cols: u32, ld: u32, rd: u32): u64 {
  const inner = prepare(n, a, b, c, d, placed, ld, rd);
  if (inner == 0) return 1;
  const used = usedColumns(n, a, b) | cols;
  // The SIMD build (see asconfig.json) prunes far more per node; it needs n <= 31 for its lane encoding.
  if (ASC_FEATURE_SIMD && n <= 31 && inner >= simdMinRows) return countSimd(n, inner, used, ROWS, INNER_ROW);
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

// The fixes of the rare constellations with a non-trivial stabiliser, the
// same design as src/search/symmetry.ts. `symmetries` has bit g set when
// symmetry g (1..7, numbered as in src/search/constellations.ts) maps the
// constellation to itself; the result is the number of pairs (solution,
// symmetry g in the mask) where g maps the solution to itself. Only a turn
// can fix a solution of n > 1 (a reflection maps some queen onto a square it
// attacks), and whatever a quarter turn fixes, the half turn fixes too. So
// one search over the half-turn-symmetric placements (every row below the
// middle is forced by its mirror) finds them all; the quarter turns are
// checked on each.
const TURNS: i32 = 0b1110;
let size: i32 = 0;
let innerRows: i32 = 0;
/** Fixes added by each half-turn-symmetric solution, and by each one a quarter turn fixes too. */
let perHalfTurnFix: u64 = 0;
let perQuarterTurnFix: u64 = 0;

export function countConstellationFixes(n: i32, a: i32, b: i32, c: i32, d: i32, symmetries: i32): u64 {
  // n = 1: the one solution is fixed by every symmetry.
  if (n == 1) return <u64>popcnt(symmetries & 0xfe);
  const turns = symmetries & TURNS;
  if (turns == 0) return 0;
  size = n;
  innerRows = prepare(n, a, b, c, d);
  perHalfTurnFix = <u64>((turns >> 2) & 1);
  perQuarterTurnFix = <u64>(((turns >> 1) & 1) + ((turns >> 3) & 1));
  store<i32>(PLACEMENT, a);
  store<i32>(PLACEMENT + (<usize>(n - 1) << 2), b);
  store<i32>(PLACEMENT + (<usize>c << 2), 0);
  store<i32>(PLACEMENT + (<usize>d << 2), n - 1);
  return searchHalfTurn(0, usedColumns(n, a, b), 0, 0);
}

// @ts-ignore: decorator
@inline function placed(row: i32): i32 {
  return load<i32>(PLACEMENT + (<usize>row << 2));
}

function searchHalfTurn(k: i32, cols: u32, ld: u32, rd: u32): u64 {
  if (k == innerRows) return perHalfTurnFix + (perQuarterTurnFix != 0 && isFixedByQuarterTurn() ? perQuarterTurnFix : 0);
  const entry = ROWS + (<usize>k << 3);
  const row = load<i32>(INNER_ROW + (<usize>k << 2));
  const mirror = size - 1 - row;
  let avail = ~(cols | ld | rd | load<u32>(entry));
  // The half turn maps (mirror, c) to (row, n - 1 - c); the middle row of odd n maps to itself.
  if (mirror < row) avail &= 1 << (size - 1 - placed(mirror));
  else if (mirror == row) avail &= 1 << (size >> 1);
  const shift = load<u32>(entry, 4);
  let fixes: u64 = 0;
  while (avail != 0) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    store<i32>(PLACEMENT + (<usize>row << 2), ctz(bit));
    fixes += searchHalfTurn(k + 1, cols | bit, (ld | bit) << shift, (rd | bit) >> shift);
  }
  return fixes;
}

/** Does the quarter turn, (r, c) -> (c, n - 1 - r), map the placement to itself? */
function isFixedByQuarterTurn(): bool {
  const m = size - 1;
  for (let r = 0; r <= m; r++) {
    if (placed(placed(r)) != m - r) return false;
  }
  return true;
}
