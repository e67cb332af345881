// A JS number counts exactly only up to 2^53, and one subproblem can pass
// that for large n. Kernels count in a number and move it into a bigint
// before it gets near the limit; the check sits on the backtrack path, off
// the per-solution path.
/** Far below 2^53, and far above what one backtrack can add. A module constant: V8 folds it, not a static property. */
export const FLUSH_AT = 2 ** 50;

export class SafeCounter {
  private carried = 0n;

  /** Moves `count` into the bigint and returns the new running number (0). */
  flush(count: number): number {
    this.carried += BigInt(count);
    return 0;
  }

  total(count: number): bigint {
    return this.carried + BigInt(count);
  }
}
