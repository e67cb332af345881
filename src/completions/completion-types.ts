// The public types of countCompletions(), apart from its code so that the
// published index.d.ts reaches no WebAssembly types.

/** A placed queen: [row, column], 0-based. */
export type Queen = readonly [row: number, col: number];

/** Open rows of a partly filled board (rows[i] may use the columns in allow[i]); its completions are counted. */
export interface CompletionUnit {
  readonly id: number;
  readonly rows: readonly number[];
  readonly allow: readonly number[];
}

export interface CompletionsProgress {
  readonly n: number;
  /** Units finished so far, and how many there are. */
  readonly finished: number;
  readonly units: number;
  /** @deprecated The old name of `units`, kept for compatibility. */
  readonly subproblems: number;
  /** The share of the units done, 0 to 1; exactly 1 at the end. */
  readonly fraction: number;
  /** Completions counted so far. */
  readonly total: bigint;
  readonly elapsedMs: number;
}

/**
 * From this many open rows on, countCompletions uses a worker per core
 * unless told otherwise (as count() does from n = 15); fewer open rows
 * finish faster than workers start.
 */
export const COMPLETIONS_THREADS_MIN_OPEN = 15;
