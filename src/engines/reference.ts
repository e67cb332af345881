// The textbook array backtracking the project started from: one queen per
// row, each candidate square checked against every queen above it. Sharing
// no code or trick with the fast kernels (no bit masks, no symmetry) makes it
// an independent check of them, and it is the benchmark's "before" row.
// Unique solutions are found by testing each solution against its seven
// images under the symmetries of the square.
import type { Progress } from '../shared/progress.js';
import { abortError, type AbortSignalLike } from '../shared/abort.js';
import { now, SLICE_MS, yieldToEventLoop } from '../shared/slices.js';

function isSafe(placement: Int32Array, row: number, col: number): boolean {
  for (let r = 0; r < row; r++) {
    const c = placement[r];
    if (c === col || row - r === Math.abs(col - c)) return false;
  }
  return true;
}

/** Walks the solutions in lexicographic order, one per next() call. */
export class ReferenceSearch {
  readonly placement: Int32Array;
  private row = 0;

  /** With `firstColumn`, only the solutions with their row-0 queen there. */
  constructor(
    readonly n: number,
    private readonly firstColumn?: number,
  ) {
    this.placement = new Int32Array(n);
    this.placement[0] = -1;
  }

  /** Advances to the next solution (then true, with it in `placement`) or to the end (false). */
  next(): boolean {
    const { n, placement } = this;
    let row = this.row;
    while (row >= 0) {
      let col = placement[row] + 1;
      if (row === 0 && this.firstColumn !== undefined) col = col <= this.firstColumn ? this.firstColumn : n;
      while (col < n && !isSafe(placement, row, col)) col++;
      if (col === n) {
        row--;
        continue;
      }
      placement[row] = col;
      if (row === n - 1) {
        this.row = row;
        return true;
      }
      row++;
      placement[row] = -1;
    }
    this.row = row;
    return false;
  }
}

/**
 * True if no symmetry of the square maps the solution to a lexicographically
 * smaller one, i.e. it is the representative of its class.
 */
export function isCanonical(placement: ArrayLike<number>, image: Int32Array = new Int32Array(placement.length)): boolean {
  const n = placement.length;
  for (let g = 1; g < 8; g++) {
    for (let r = 0; r < n; r++) {
      const c = placement[r];
      // Image of the queen (r, c) under symmetry g, written as image[row] = col.
      switch (g) {
        case 1:
          image[c] = n - 1 - r;
          break; // quarter turn
        case 2:
          image[n - 1 - r] = n - 1 - c;
          break; // half turn
        case 3:
          image[n - 1 - c] = r;
          break; // three-quarter turn
        case 4:
          image[r] = n - 1 - c;
          break; // mirror left-right
        case 5:
          image[n - 1 - r] = c;
          break; // mirror top-bottom
        case 6:
          image[c] = r;
          break; // transpose
        default:
          image[n - 1 - c] = n - 1 - r; // anti-transpose
      }
    }
    for (let r = 0; r < n; r++) {
      if (image[r] < placement[r]) return false;
      if (image[r] > placement[r]) break;
    }
  }
  return true;
}

export function countReference(n: number): { total: bigint; unique: bigint } {
  let total = 0;
  let unique = 0;
  const image = new Int32Array(n);
  const search = new ReferenceSearch(n);
  while (search.next()) {
    total++;
    if (isCanonical(search.placement, image)) unique++;
  }
  // Array backtracking cannot reach 2^53 solutions in any practical time.
  return { total: BigInt(total), unique: BigInt(unique) };
}

export function* referenceSolutions(n: number): Generator<number[], void, undefined> {
  const search = new ReferenceSearch(n);
  while (search.next()) yield Array.from(search.placement);
}

/**
 * The reference engine with `signal` and `onProgress`: it has no
 * subproblems, so it counts one row-0 column after another, yielding to the
 * event loop every SLICE_MS inside a column; progress is columns done.
 */
export async function runReference(
  n: number,
  options: { signal?: AbortSignalLike | undefined; onProgress?: ((p: Progress) => void) | undefined; progressIntervalMs?: number },
): Promise<{ total: bigint; unique: bigint }> {
  const { signal, onProgress } = options;
  const interval = options.progressIntervalMs ?? 100;
  const start = now();
  let total = 0;
  let unique = 0;
  let lastReport = -Infinity;
  const report = (finished: number, within: number, force: boolean): void => {
    const t = now();
    if (!onProgress || (!force && t - lastReport < interval)) return;
    lastReport = t;
    const fraction = finished === n ? 1 : Math.min(1, (finished + within) / n);
    onProgress({
      n,
      phase: 'counting',
      finished,
      units: n,
      subproblems: n,
      fraction,
      resumedFraction: 0,
      total: BigInt(total),
      unique: BigInt(unique),
      elapsedMs: t - start,
    });
  };
  const image = new Int32Array(n);
  let sliceStart = now();
  report(0, 0, true);
  for (let col = 0; col < n; col++) {
    const search = new ReferenceSearch(n, col);
    for (let found = 0; search.next(); found++) {
      total++;
      if (isCanonical(search.placement, image)) unique++;
      if ((found & 255) === 255 && now() - sliceStart > SLICE_MS) {
        // The share of this column done: how far its row-1 queen has moved.
        report(col, n > 1 ? search.placement[1] / n : 0, false);
        await yieldToEventLoop();
        if (signal?.aborted) throw abortError(signal);
        sliceStart = now();
      }
    }
    report(col + 1, 0, col + 1 === n);
    if (now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = now();
    }
    if (signal?.aborted) throw abortError(signal);
  }
  return { total: BigInt(total), unique: BigInt(unique) };
}
