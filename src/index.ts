// nqueens-wasm: count and list N-Queens solutions with a WebAssembly kernel,
// a pure TypeScript fallback, and a plain reference for cross-checks.
import { abortError, isAbortSignal } from './abort.js';
import { toBoard } from './board.js';
import { planSubproblems as plan, type Subproblem } from './constellations.js';
import {
  checkAfter,
  checkPlaced,
  fundamentalSolutions,
  openRows,
  placedForbid,
  referenceCompletions,
  referenceFiltered,
  runCompletions,
  type CompletionsProgress,
  type Queen,
} from './completions.js';
import { ENGINES, resolveKernel, resolveSearch, type EngineChoice, type EngineName, type Kernel } from './engines.js';
import { ERROR_CODES, rangeError, typeError } from './errors.js';
import { countReference, referenceSolutions } from './kernels/reference.js';
import { runPlan, type Progress } from './run.js';
import { countAll } from './tally.js';
import { checkChoice, checkInteger, checkN, checkOptions, describe } from './validate.js';

export { toBoard };
export { ENGINES, type EngineChoice, type EngineName, type Progress };
export { MAX_N, MIN_N } from './validate.js';
export type { Subproblem, SubproblemCount } from './constellations.js';
export { AUTO_THREADS_MIN_N } from './run.js';
export { COMPLETIONS_THREADS_MIN_OPEN } from './completions.js';
export type { CompletionsProgress, Queen };

/** Most worker threads one count may start. */
export const MAX_THREADS = 256;

export interface CountResult {
  readonly n: number;
  /** All solutions (OEIS A000170). */
  readonly total: bigint;
  /** Fundamental solutions, one per class under rotations and reflections (OEIS A002562). */
  readonly unique: bigint;
  /** The engine that actually ran: 'auto' resolves to 'wasm', or to 'js' where wasm is unavailable. */
  readonly engine: EngineName;
  /** Threads that counted: 1 on the calling thread, else the number of workers. */
  readonly threads: number;
  /** Wall time of the count, in milliseconds. */
  readonly elapsedMs: number;
}

export interface CountSyncOptions {
  /** 'auto' (default): wasm where it instantiates, else 'js'. */
  engine?: EngineChoice;
}

export interface CountOptions extends CountSyncOptions {
  /**
   * Worker threads (1 to 256). Default: one per core from n = 15 on, else the
   * calling thread, in slices that let the event loop run.
   */
  threads?: number;
  /** Called with progress at most every 100 ms, and once at the end. */
  onProgress?: (progress: Progress) => void;
  /** Aborting rejects the count with an AbortError and stops its workers. */
  signal?: AbortSignal;
}

export interface SolutionsOptions {
  /** Stop after this many placements (an integer >= 0). Default: all. */
  limit?: number;
  engine?: EngineChoice;
  /** Only the fundamental solutions: the lexicographically smallest of each class under the 8 symmetries (OEIS A002562). */
  unique?: boolean;
  /** Only the solutions containing these queens, [row, col] pairs (0-based, any order). Not with `unique`. */
  placed?: readonly Queen[];
  /** Only the solutions lexicographically greater than this placement (n columns, 0 to n-1; need not be a solution). */
  after?: readonly number[];
}

/** The result of countCompletions(): `total` solutions contain every placed queen. */
export interface CompletionsResult {
  readonly n: number;
  readonly total: bigint;
  readonly engine: EngineName;
  readonly threads: number;
  readonly elapsedMs: number;
}

export interface CompletionsOptions extends CountSyncOptions {
  /**
   * Worker threads (1 to 256). Default: one per core from 15 rows without a
   * queen (COMPLETIONS_THREADS_MIN_OPEN), else the calling thread, in slices.
   */
  threads?: number;
  /** Called with progress at most every 100 ms, and once at the end. */
  onProgress?: (progress: CompletionsProgress) => void;
  /** Aborting rejects with an AbortError and stops the workers. */
  signal?: AbortSignal;
}

const COUNT_SYNC_OPTIONS = ['engine'] as const;
const COUNT_OPTIONS = ['engine', 'threads', 'onProgress', 'signal'] as const;
const SOLUTIONS_OPTIONS = ['limit', 'engine', 'unique', 'placed', 'after'] as const;

function checkEngine(engine: unknown): EngineChoice {
  return engine === undefined ? 'auto' : checkChoice(engine, 'options.engine', ENGINES);
}

function now(): number {
  return globalThis.performance ? performance.now() : Date.now();
}

function countOnThisThread(n: number, engine: EngineChoice): CountResult {
  const start = now();
  if (engine === 'reference') {
    const { total, unique } = countReference(n);
    return { n, total, unique, engine, threads: 1, elapsedMs: now() - start };
  }
  const kernel: Kernel = resolveKernel(engine);
  const { total, unique } = countAll(n, kernel);
  return { n, total, unique, engine: kernel.name, threads: 1, elapsedMs: now() - start };
}

/**
 * The symmetry search's independent subproblems for n, largest first: one
 * border constellation per symmetry class, with a deterministic `id` (its
 * position) and `weight` (solutions found in it stand for this many).
 */
export function planSubproblems(n: number): readonly Subproblem[] {
  return plan(checkN(n));
}

/**
 * Counts the solutions for an n x n board, blocking the calling thread.
 * Throws TypeError/RangeError for bad arguments.
 */
export function countSync(n: number, options?: CountSyncOptions): CountResult {
  checkN(n);
  const opts = checkOptions<CountSyncOptions>(options, 'countSync()', COUNT_SYNC_OPTIONS);
  return countOnThisThread(n, checkEngine(opts.engine));
}

/**
 * Counts the solutions for an n x n board. Rejects with TypeError/RangeError
 * for bad arguments.
 */
export async function count(n: number, options?: CountOptions): Promise<CountResult> {
  checkN(n);
  const { engine, threads, onProgress, signal } = checkCountOptions<Progress>(options, 'count()');
  if (signal?.aborted) throw abortError(signal);
  if (engine === 'reference') return countOnThisThread(n, engine);
  const start = now();
  const r = await runPlan({ n, subproblems: plan(n), engine, threads, onProgress, signal });
  return { n, total: r.total, unique: r.unique, engine: r.engine, threads: r.threads, elapsedMs: now() - start };
}

/**
 * The solutions as placements (placement[row] = column, 0-based) in
 * lexicographic order, produced lazily by the search itself. Options narrow
 * them: `placed` (containing these queens), `unique` (the fundamental
 * solutions, each the smallest of its class), `after` (greater than this
 * placement: the search starts there, for paging); all combine with `limit`
 * and each other, except `unique` with `placed` (a TypeError).
 */
export function solutions(n: number, options?: SolutionsOptions): IterableIterator<number[]> {
  checkN(n);
  const opts = checkOptions<SolutionsOptions>(options, 'solutions()', SOLUTIONS_OPTIONS);
  const limit = opts.limit === undefined ? Infinity : checkInteger(opts.limit, 'options.limit', 0, Infinity);
  const engine = checkEngine(opts.engine);
  if (opts.unique !== undefined && typeof opts.unique !== 'boolean') {
    throw typeError(`options.unique must be a boolean; got ${describe(opts.unique)}`);
  }
  const unique = opts.unique === true;
  const rows = opts.placed === undefined ? undefined : checkPlaced(n, opts.placed, 'options.placed');
  const after = opts.after === undefined ? undefined : checkAfter(n, opts.after);
  if (unique && rows) {
    throw typeError(
      'solutions(): options.unique and options.placed cannot be combined (a class representative need not contain the placed queens); ' +
        'use placed alone for every solution containing them',
      ERROR_CODES.INCOMPATIBLE_OPTIONS,
    );
  }
  let source: Iterator<number[]>;
  if (engine === 'reference') {
    source = unique || rows || after ? referenceFiltered(n, rows, unique, after) : referenceSolutions(n);
  } else {
    const kernel = resolveSearch(engine);
    source = unique ? fundamentalSolutions(kernel, n, after) : kernel.solutions(n, rows ? placedForbid(n, rows) : new Int32Array(n), after);
  }
  return take(source, limit);
}

/** count()'s options (countCompletions() takes the same): TypeError/RangeError for bad ones. */
function checkCountOptions<P>(
  options: unknown,
  fn: string,
): { engine: EngineChoice; threads?: number; onProgress?: (progress: P) => void; signal?: AbortSignal } {
  const opts = checkOptions<{ engine: unknown; threads: unknown; onProgress: unknown; signal: unknown }>(options, fn, COUNT_OPTIONS);
  const engine = checkEngine(opts.engine);
  const threads = opts.threads === undefined ? undefined : checkInteger(opts.threads, 'options.threads', 1, MAX_THREADS);
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') {
    throw typeError(`options.onProgress must be a function; got ${describe(opts.onProgress)}`);
  }
  if (opts.signal !== undefined && !isAbortSignal(opts.signal)) {
    throw typeError(`options.signal must be an AbortSignal; got ${describe(opts.signal)}`);
  }
  if (engine === 'reference' && threads !== undefined && threads > 1) {
    throw rangeError(`options.threads must be 1 with engine 'reference' (it has no subproblems to share); got ${threads}`);
  }
  return { engine, threads, onProgress: opts.onProgress as ((progress: P) => void) | undefined, signal: opts.signal as AbortSignal | undefined };
}

/**
 * Counts the solutions that contain every queen in `placed` ([row, col]
 * pairs, 0-based, any order), blocking the calling thread. Throws
 * TypeError/RangeError for bad arguments; RangeError naming both queens
 * when two placed queens attack each other.
 */
export function countCompletionsSync(n: number, placed: readonly Queen[], options?: CountSyncOptions): CompletionsResult {
  checkN(n);
  const rows = checkPlaced(n, placed);
  const opts = checkOptions<CountSyncOptions>(options, 'countCompletionsSync()', COUNT_SYNC_OPTIONS);
  const engine = checkEngine(opts.engine);
  if (placed.length === 0) return withoutUnique(countSync(n, { engine }));
  const start = now();
  if (engine === 'reference') return { n, total: referenceCompletions(n, rows), engine, threads: 1, elapsedMs: now() - start };
  const kernel = resolveSearch(engine);
  const open = openRows(n, rows);
  return { n, total: kernel.countOpenRows(open.rows, open.allow), engine: kernel.name, threads: 1, elapsedMs: now() - start };
}

/**
 * Counts the solutions that contain every queen in `placed`. Takes count()'s
 * options; rejects with TypeError/RangeError for bad arguments, and with a
 * RangeError naming both queens when two placed queens attack each other.
 */
export async function countCompletions(n: number, placed: readonly Queen[], options?: CompletionsOptions): Promise<CompletionsResult> {
  checkN(n);
  const rows = checkPlaced(n, placed);
  const { engine, threads, onProgress, signal } = checkCountOptions<CompletionsProgress>(options, 'countCompletions()');
  if (signal?.aborted) throw abortError(signal);
  if (placed.length === 0) {
    const progress = onProgress && ((p: Progress) => onProgress({ n, finished: p.finished, subproblems: p.subproblems, fraction: p.fraction, total: p.total, elapsedMs: p.elapsedMs }));
    return withoutUnique(await count(n, { engine, threads, signal, onProgress: progress }));
  }
  const start = now();
  if (engine === 'reference') {
    const total = referenceCompletions(n, rows);
    onProgress?.({ n, finished: 1, subproblems: 1, fraction: 1, total, elapsedMs: now() - start });
    return { n, total, engine, threads: 1, elapsedMs: now() - start };
  }
  const r = await runCompletions({ n, rows, engine, threads, signal, onProgress });
  return { n, total: r.total, engine: r.engine, threads: r.threads, elapsedMs: now() - start };
}

function withoutUnique(r: CountResult): CompletionsResult {
  return { n: r.n, total: r.total, engine: r.engine, threads: r.threads, elapsedMs: r.elapsedMs };
}

function* take(source: Iterator<number[]>, limit: number): Generator<number[], void, undefined> {
  for (let i = 0; i < limit; i++) {
    const next = source.next();
    if (next.done) return;
    yield next.value;
  }
}
