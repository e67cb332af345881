// The textbook array backtracking the project started from: one queen per
// row, each candidate square checked against every queen above it. Sharing
// no code or trick with the fast kernels (no bit masks, no symmetry) makes it
// an independent check of them, and it is the benchmark's "before" row.
// Unique solutions are found by testing each solution against its seven
// images under the symmetries of the square.
import type { Progress } from '../shared/progress.js';
import type { AbortSignalLike } from '../shared/abort.js';
import { inSlices, now } from '../shared/slices.js';

/** Whether a queen at (row, col) is safe from the queens placement[0..row - 1] above it. */
function isSafe(placement: Int32Array, row: number, col: number): boolean {
  for (let r = 0; r < row; r++) {
    const c = placement[r];
    if (c === col || row - r === Math.abs(col - c)) return false;
  }
  return true;
}

/**
 * Walks the solutions in lexicographic order, one per next() call; with
 * `fixed` (a column per row, -1 where free), only the boards that have a
 * queen on each fixed square, the rest tried square by square: the count
 * of a row-0 column, and of a board's completions (src/completions/).
 */
export class ReferenceSearch {
  readonly placement: Int32Array;
  /** Solutions met by tally(). */
  found = 0;
  private row = 0;
  private readonly fixed: Int32Array;
  /** Steps the last advance() took. */
  private taken = 0;

  constructor(
    readonly n: number,
    fixed?: Int32Array,
  ) {
    this.placement = new Int32Array(n).fill(-1);
    this.fixed = fixed ?? this.placement.slice();
  }

  /** Whether the walk has ended (no solution left). */
  get ended(): boolean {
    return this.row < 0;
  }

  /** Advances to the next solution (then true, with it in `placement`) or to the end (false). */
  next(): boolean {
    return this.advance(Infinity) === FOUND;
  }

  /** Counts the solutions met in at most `steps` steps into `found`; returns whether the walk has ended. */
  tally(steps: number): boolean {
    for (let left = steps; left > 0; left -= this.taken) {
      const step = this.advance(left);
      if (step !== FOUND) return step === ENDED;
      this.found++;
    }
    return this.ended;
  }

  /**
   * Advances by at most `steps` rows placed or left: to the next solution
   * (FOUND, with it in `placement`), to the end (ENDED), or to where the
   * steps ran out (PAUSED: the next call goes on from there), so that a
   * caller can stop between steps however rare the solutions are.
   */
  advance(steps: number): Step {
    const { n, placement, fixed } = this;
    let row = this.row;
    for (let s = 0; row >= 0; s++) {
      if (s >= steps) {
        this.row = row;
        return PAUSED;
      }
      let col = placement[row] + 1;
      const at = fixed[row];
      if (at >= 0) col = col <= at && isSafe(placement, row, at) ? at : n;
      else while (col < n && !isSafe(placement, row, col)) col++;
      if (col === n) {
        placement[row] = -1; // left: the share of a walk done reads the rows above (fraction())
        row--;
        continue;
      }
      placement[row] = col;
      if (row === n - 1) {
        this.row = row;
        this.taken = s + 1;
        return FOUND;
      }
      row++;
    }
    this.row = row;
    return ENDED;
  }
}

/** Row 0's queen at `col`, every other row free: ReferenceSearch's `fixed` for one column of a count. */
function inColumn(n: number, col: number): Int32Array {
  const fixed = new Int32Array(n).fill(-1);
  fixed[0] = col;
  return fixed;
}

/** What ReferenceSearch.advance() came to. */
type Step = typeof FOUND | typeof ENDED | typeof PAUSED;
const FOUND = 0;
const ENDED = 1;
const PAUSED = 2;

/** Rows placed or left a step (between two looks at the clock): well under a slice, however rare the solutions. */
const STEPS_PER_LOOK = 4096;

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
 * The reference engine with `signal` and `onProgress`, in slices on the
 * calling thread (inSlices, as count() makes its plan): it has no
 * subproblems, so it counts one row-0 column after another; progress is
 * columns done.
 */
export function runReference(
  n: number,
  options: { signal?: AbortSignalLike | undefined; onProgress?: ((p: Progress) => void) | undefined },
): Promise<{ total: bigint; unique: bigint }> {
  const steps = referenceSteps(n, options.onProgress);
  return inSlices(steps, options.signal);
}

/** The reference count of n in steps, reporting at most every 100 ms: its start, then a step where its first slice waits its turn. */
function* referenceSteps(n: number, onProgress: ((p: Progress) => void) | undefined): Generator<void, { total: bigint; unique: bigint }> {
  const start = now();
  let total = 0;
  let unique = 0;
  let lastReport = -Infinity;
  const report = (finished: number, within: number, force: boolean): void => {
    const t = now();
    if (!onProgress || (!force && t - lastReport < REFERENCE_PROGRESS_MS)) return;
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
    // From the callback's end, as the other engines (src/run/run-progress.ts): a slow one slows the reports, not the count.
    lastReport = now();
  };
  const image = new Int32Array(n);
  report(0, 0, true);
  // The first slice waits its turn too, as the other engines' do: counts that start at once each counted one in the same turn.
  yield;
  for (let col = 0; col < n; col++) {
    const search = new ReferenceSearch(n, inColumn(n, col));
    // A step ends every 256 solutions and wherever the advance ran out: a slice ends on time even at n = 32,
    // where the first solution of a column is billions of steps away.
    for (let step; (step = search.advance(STEPS_PER_LOOK)) !== ENDED;) {
      if (step === FOUND) {
        total++;
        if (isCanonical(search.placement, image)) unique++;
      }
      if (step === PAUSED || (total & 255) === 0) {
        // The share of this column done: how far its row-1 queen has moved (-1 before its first square).
        report(col, n > 1 ? Math.max(0, search.placement[1]) / n : 0, false);
        yield;
      }
    }
    report(col + 1, 0, col + 1 === n);
    yield;
  }
  return { total: BigInt(total), unique: BigInt(unique) };
}

/** The least time between two progress reports of the reference engine's counts. */
export const REFERENCE_PROGRESS_MS = 100;
