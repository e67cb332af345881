// Placed queens and placements as arguments: checked and turned into a
// column per row, for solutions() and the completion counts alike.
import { ERROR_CODES, rangeError, typeError } from './errors.js';
import { queensConflict } from './board.js';
import { checkInteger, describe, entry, isRevokedProxy, listLength } from './validate.js';

/** A placed queen: [row, column], 0-based. */
type Queen = readonly [row: number, col: number];

/** placed[] as a column per row, -1 for rows without a queen. */
export type Rows = Int32Array;

/** A row or column: as every number the API takes, a fraction, NaN or an infinity is a RangeError, a non-number a TypeError. */
function coordinate(value: unknown, name: string, n: number): number {
  return checkInteger(value, name, 0, n - 1);
}

const show = (q: Queen): string => `[${q[0]}, ${q[1]}]`;

/**
 * Checks `placed` (an array of [row, col] pairs, any order) for an n x n
 * board: TypeError for wrong shapes and non-numbers, RangeError for
 * other non-integers and coordinates off the board, and RangeError (ATTACKING_QUEENS) naming both
 * queens when two share a square, a row, a column or a diagonal.
 */
export function checkPlaced(n: number, placed: unknown, name = 'placed'): Rows {
  if (isRevokedProxy(placed) || !Array.isArray(placed))
    throw typeError(`${name} must be an array of [row, col] pairs; got ${describe(placed)}`);
  // Index by index, so a hole (`new Array(1)`, `[q, , q]`) is refused as one, not skipped nor read from Array.prototype.
  const queens: Queen[] = [];
  // Its length read once (a Proxy could grow it at each read), and n + 1 queens at most: two of them share a row.
  // A Proxy of an array can answer any `length`: one that is no array length is refused, not read as no queens.
  const length = Math.min(checkInteger(placed.length as unknown, `${name}.length`, 0, 2 ** 32 - 1), n + 1);
  for (let i = 0; i < length; i++) {
    const q = entry(placed, i);
    // A pair is a list of numbers as any other: an array or a typed array of numbers.
    if (listLength(q) !== 2) throw typeError(`${name}[${i}] must be a [row, col] pair; got ${describe(q)}`);
    const pair = q as object;
    queens.push([coordinate(entry(pair, 0), `${name}[${i}][0] (a row)`, n), coordinate(entry(pair, 1), `${name}[${i}][1] (a column)`, n)]);
  }
  for (let i = 0; i < queens.length; i++) {
    for (let j = i + 1; j < queens.length; j++) {
      const [a, b] = [queens[i], queens[j]];
      const how = queensConflict(a, b);
      if (how) throw rangeError(`${name}: the queens ${show(a)} and ${show(b)} ${how}`, ERROR_CODES.ATTACKING_QUEENS);
    }
  }
  const rows = new Int32Array(n).fill(-1);
  for (const [r, c] of queens) rows[r] = c;
  return rows;
}

/**
 * Checks `after`: n integers in 0..n-1, as an array or a typed array of numbers (RangeError for the wrong length or
 * other numbers, TypeError for other types, array-likes and holes).
 */
export function checkAfter(n: number, after: unknown, name = 'options.after'): number[] {
  const length = listLength(after);
  if (length === undefined) {
    throw typeError(`${name} must be an array of ${n} columns (integers from 0 to ${n - 1}); got ${describe(after)}`);
  }
  // The length checked before any entry is read: `new Array(2 ** 32 - 1)` is refused at once.
  if (length !== n) throw rangeError(`${name} must have ${n} entries, one column per row; got ${describe(length)}`);
  const columns: number[] = [];
  for (let r = 0; r < n; r++) columns.push(coordinate(entry(after as object, r), `${name}[${r}]`, n));
  return columns;
}
