// Beyond counting: completions of a partly filled board, fundamental
// solutions, and paging: the row
// restrictions handed to the search kernels (src/completions/open-rows.ts,
// assembly/completions/open-rows.ts), and the split of a completion count
// into units (src/run/completions-run.ts runs them).
import type { OpenRowsKernel } from './open-rows-kernel.js';
import { isCanonical, ReferenceSearch } from '../engines/reference.js';
import { boardMask } from '../shared/board-mask.js';
import { popcount } from '../shared/bits.js';
import type { Rows } from '../shared/placements.js';
import type { CompletionUnit, CompletionsProgress, Queen } from './completion-types.js';

export type { CompletionsProgress, Queen };
export type { Rows } from '../shared/placements.js';

/** The squares of row r that the placed queens attack (their own rows: every square but the queen's). */
function attacked(n: number, rows: Rows, r: number): number {
  const own = rows[r];
  if (own >= 0) return boardMask(n) & ~(1 << own);
  let m = 0;
  for (let q = 0; q < n; q++) {
    const c = rows[q];
    if (c < 0) continue;
    const d = Math.abs(q - r);
    m |= (1 << c) | (c + d < 32 ? 1 << (c + d) : 0) | (c - d >= 0 ? 1 << (c - d) : 0);
  }
  return m & boardMask(n);
}

/** Per-row restrictions for the enumeration: placed rows keep only their queen, others lose the attacked squares. */
export function placedForbid(n: number, rows: Rows): Int32Array {
  const forbid = new Int32Array(n);
  for (let r = 0; r < n; r++) forbid[r] = attacked(n, rows, r);
  return forbid;
}

/** The rows without a queen and the columns still allowed in each. */
export function openRows(n: number, rows: Rows): { rows: number[]; allow: number[] } {
  const open: number[] = [];
  const allow: number[] = [];
  for (let r = 0; r < n; r++) {
    if (rows[r] >= 0) continue;
    open.push(r);
    allow.push(boardMask(n) & ~attacked(n, rows, r));
  }
  return { rows: open, allow };
}

// ---- Fundamental solutions ------------------------------------------------

/**
 * The fundamental solutions (one per class under the 8 symmetries, the
 * lexicographically smallest member) in lexicographic order, after `after`
 * if given. The smallest member's row-0 column a is at most the row-0 column
 * of each of its images, which are the distances of the four border queens
 * from the corners; so for each a from 0 to (n-1)/2 the search only keeps
 * border squares at least a from every corner, then tests each solution
 * against its 7 images.
 */
export function* fundamentalSolutions(kernel: OpenRowsKernel, n: number, after?: readonly number[]): Generator<number[], void, undefined> {
  const mask = boardMask(n);
  const image = new Int32Array(n);
  for (let a = after ? after[0] : 0; a <= (n - 1) >> 1; a++) {
    const near = mask & ~(((1 << a) - 1) | (((1 << a) - 1) << (n - a))); // columns a..n-1-a
    const forbid = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      // Column 0 and n-1 only in rows a..n-1-a.
      if (r < a || r > n - 1 - a) forbid[r] |= 1 | (1 << (n - 1));
    }
    forbid[0] |= mask & ~(1 << a);
    forbid[n - 1] |= mask & ~near;
    const from = after && a === after[0] ? after : undefined;
    const source = kernel.solutions(n, forbid, from);
    for (let next = source.next(); !next.done; next = source.next()) {
      if (isCanonical(next.value, image)) yield next.value;
    }
  }
}

// ---- The reference engine -------------------------------------------------

/** The reference backtracking's solutions with the placed rows fixed: it shares no code with the kernels (and enumerates the earlier ones for `after`). */
export function* referenceFiltered(
  n: number,
  rows: Rows | undefined,
  unique: boolean,
  after: readonly number[] | undefined,
): Generator<number[], void, undefined> {
  const search = new ReferenceSearch(n, rows); // only the boards that hold the placed queens
  const image = new Int32Array(n);
  while (search.next()) {
    const p = search.placement;
    if (after) {
      let r = 0;
      while (r < n && p[r] === after[r]) r++;
      if (r === n || p[r] < after[r]) continue;
    }
    if (unique && !isCanonical(p, image)) continue;
    yield Array.from(p);
  }
}

// ---- Counting completions -------------------------------------------------

/**
 * Splits a completion count into independent units: the most constrained
 * open row of each unit is expanded into its placements (as the kernel
 * would), level by level, until there are at least `target` units or
 * nothing is left to split. Dead ends are dropped on the way; the units
 * come largest first.
 */
export function splitCompletions(open: { rows: number[]; allow: number[] }, target: number): CompletionUnit[] {
  let units: { rows: number[]; allow: number[] }[] = [open];
  while (units.length < target) {
    const next: typeof units = [];
    let split = false;
    for (const u of units) {
      if (u.rows.length <= 1) {
        next.push(u);
        continue;
      }
      split = true;
      let best = 0;
      for (let i = 1; i < u.rows.length; i++) if (popcount(u.allow[i]) < popcount(u.allow[best])) best = i;
      const r = u.rows[best];
      for (let avail = u.allow[best]; avail !== 0;) {
        const bit = avail & -avail;
        avail ^= bit;
        const rows: number[] = [];
        const allow: number[] = [];
        let alive = true;
        for (let i = 0; i < u.rows.length && alive; i++) {
          if (i === best) continue;
          const d = Math.abs(u.rows[i] - r);
          const a = u.allow[i] & ~(bit | (bit << d) | (bit >>> d));
          rows.push(u.rows[i]);
          allow.push(a);
          alive = a !== 0;
        }
        if (alive) next.push({ rows, allow });
      }
    }
    units = next;
    if (!split) break;
  }
  // Largest first (by the log of the naive tree size), as the pool hands work out in list order.
  const size = (u: { allow: number[] }): number => u.allow.reduce((sum, a) => sum + Math.log2(popcount(a)), 0);
  const sized = units.map((u) => ({ u, size: size(u) })).sort((a, b) => b.size - a.size);
  return sized.map(({ u }, id) => ({ id, rows: u.rows, allow: u.allow }));
}

/**
 * The reference backtracking over the boards that hold the placed queens
 * (its walk with those rows fixed, counted by tally()): a count can stop
 * after any number of steps (a slice of the calling thread's time) and go
 * on where it stopped.
 */
export class ReferenceCompletions extends ReferenceSearch {
  /** The first two rows without a queen, whose columns tell how far the walk is. */
  private readonly open: number[] = [];

  constructor(n: number, rows: Rows) {
    super(n, rows);
    for (let r = 0; r < n && this.open.length < 2; r++) if (rows[r] < 0) this.open.push(r);
  }

  /** About how far the walk is, 0 to 1, from the columns of its first two open rows (not monotonic as it backtracks). */
  fraction(): number {
    const { n, placement, open } = this;
    if (this.ended) return 1;
    if (open.length === 0) return 0;
    const first = Math.max(0, placement[open[0]]);
    const second = open.length > 1 ? Math.max(0, placement[open[1]]) / n : 0;
    return Math.min(1, (first + second) / n);
  }
}

/** Counts completions with the reference backtracking, at once: placed rows are fixed, the rest tried square by square. */
export function referenceCompletions(n: number, rows: Rows): bigint {
  const walk = new ReferenceCompletions(n, rows);
  walk.tally(Infinity);
  return BigInt(walk.found);
}
