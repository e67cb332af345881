// Boards: LeetCode 51's format (one string per row, 'Q' for the queen), and
// how two queens attack each other.
import { typeError } from './errors.js';
import { checkInteger, describe, entry, listLength, MAX_N, type NumberArray } from './validate.js';

/** Draws a placement (placement[row] = column, 0-based) as rows of '.' and 'Q'. */
export function toBoard(placement: readonly number[] | NumberArray): string[] {
  const n = listLength(placement);
  if (n === undefined) throw typeError(`placement must be an array of column indices; got ${describe(placement)}`);
  checkInteger(n, 'placement.length', 1, MAX_N);
  const rows: string[] = [];
  for (let row = 0; row < n; row++) {
    const col = checkInteger(entry(placement, row), `placement[${row}]`, 0, n - 1);
    rows.push('.'.repeat(col) + 'Q' + '.'.repeat(n - 1 - col));
  }
  return rows;
}

/** How two queens ([row, col]) attack each other ('attack each other (same row)', …), or '' when they do not. */
export function queensConflict(a: readonly [number, number], b: readonly [number, number]): string {
  if (a[0] === b[0] && a[1] === b[1]) return 'are on the same square';
  if (a[0] === b[0]) return 'attack each other (same row)';
  if (a[1] === b[1]) return 'attack each other (same column)';
  if (Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1])) return 'attack each other (same diagonal)';
  return '';
}
