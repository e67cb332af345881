// nqueens-wasm: count and list N-Queens solutions with a WebAssembly kernel,
// a pure TypeScript fallback, and a plain reference for cross-checks.
import { abortError, isAbortSignal, type AbortSignalLike } from './shared/abort.js';
import { toBoard } from './shared/board.js';
import { now } from './shared/slices.js';
import { MAX_THREADS } from './contract/environment.js';
import { checkAfter, checkPlaced } from './shared/placements.js';
import type { Subproblem } from './search/constellations.js';
import { ALGORITHMS, checkAlgorithm, type AlgorithmChoice, type AlgorithmName } from './run/algorithm.js';
import { hasDepth, methodForCount, planAlgorithm, type PlannedMethod } from './run/methods.js';
import {
  completionsByEngine,
  completionsOnCallingThread,
  countByEngine,
  countOnCallingThread,
  searchSubproblems,
  solutionSource,
} from './run/dispatch.js';
import { completionsProgress } from './run/completions-run.js';
import type { CompletionsProgress, Queen } from './completions/completion-types.js';
import { CPU_ENGINES, isCpuEngine, singleThreadReason, type CpuEngineChoice } from './run/engine-limits.js';
import { ENGINES, type EngineChoice, type EngineName } from './engines/engine-names.js';
import { MAX_DEPTH, type Unit } from './search/search-plan.js';
import type { PlanIdentity } from './contract/plan-identity.js';
import type { JoinUnit } from './join/join-plan.js';
import type { Progress } from './shared/progress.js';
import { ERROR_CODES, rangeError, typeError } from './shared/errors.js';
import { guardProgress } from './shared/progress-guard.js';
import { checkChoice, checkInteger, checkN, checkOptions, describe, type NumberArray } from './shared/validate.js';

export { toBoard };
export { ENGINES, type AbortSignalLike, type EngineChoice, type EngineName, type Progress };
export { ALGORITHMS, type AlgorithmChoice, type AlgorithmName };
export { JOIN_MAX_N } from './join/join-plan.js';
export { JOIN_AUTO_MAX_N, JOIN_AUTO_MIN_N } from './run/algorithm.js';
export { ERROR_CODES, type CodedError, type ErrorCode } from './shared/errors.js';
export { MAX_N, MIN_N } from './shared/validate.js';
export type { Subproblem, SubproblemCount } from './search/constellations.js';
export type { PlanIdentity, PlanMethod } from './contract/plan-identity.js';
export type { Unit } from './search/search-plan.js';
export type { JoinUnit } from './join/join-plan.js';
export { MAX_DEPTH } from './search/search-plan.js';
export { AUTO_THREADS_MIN_N, MAX_THREADS } from './contract/environment.js';
export { COMPLETIONS_THREADS_MIN_OPEN } from './completions/completion-types.js';
export type { CompletionsProgress, Queen };

export interface CountResult {
  readonly n: number;
  /** All solutions (OEIS A000170). */
  readonly total: bigint;
  /** Fundamental solutions, one per class under rotations and reflections (OEIS A002562). */
  readonly unique: bigint;
  /** The engine that actually ran: 'auto' resolves to 'wasm', or to 'js' where wasm is unavailable. */
  readonly engine: EngineName;
  /** The method that actually ran: the half-board 'join' or the row-by-row 'search'. */
  readonly algorithm: AlgorithmName;
  /** Threads that counted: 1 on the calling thread alone, else the workers, plus the calling thread where it counted beside them throughout (docs/threads.md). */
  readonly threads: number;
  /** Wall time of the count, in milliseconds. */
  readonly elapsedMs: number;
}

/** The engines that run on the calling thread or CPU workers: all but 'webgpu', which only count() takes. */
export type { CpuEngineChoice } from './run/engine-limits.js';

export interface CountSyncOptions {
  /** 'auto' (default): wasm where it instantiates, else 'js'; or 'reference'. (The GPU is count()'s only.) */
  engine?: CpuEngineChoice | undefined;
  /**
   * 'auto' (default): the method measured faster for this n whose tables fit;
   * 'join' joins half-boards (engines 'wasm' and 'js', n <= JOIN_MAX_N);
   * 'search' is the row-by-row symmetry search.
   */
  algorithm?: AlgorithmChoice | undefined;
}

export interface CountOptions extends Omit<CountSyncOptions, 'engine'> {
  /**
   * 'auto' (default): wasm where it instantiates, else 'js'; 'reference';
   * or 'webgpu', the search on the GPU (where WebGPU is missing it rejects).
   */
  engine?: EngineChoice | undefined;
  /**
   * Worker threads (1 to 256). Default: one per core from n = 15 on, else the
   * calling thread, in slices that let the event loop run.
   */
  threads?: number | undefined;
  /** Called with progress at most every 100 ms, and once at the end. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * An AbortSignal: aborting rejects the count with the signal's reason (a
   * DOMException named 'AbortError' when it has none) and stops its workers.
   */
  signal?: AbortSignalLike | undefined;
}

interface SolutionsBaseOptions {
  /** Stop after this many placements (an integer >= 0, or Infinity: no limit). Default: all. */
  limit?: number | undefined;
  engine?: CpuEngineChoice | undefined;
  /** Only the solutions lexicographically greater than this placement (n columns, 0 to n-1; need not be a solution), an array or a typed array. */
  after?: readonly number[] | NumberArray | undefined;
}

/**
 * Queens already on the board, each a `[row, col]` pair: a tuple, an array
 * of numbers (as TypeScript infers `[[0, 3], [5, 7]]` held in a variable)
 * or a typed array; a pair of another length is refused at run time.
 */
export type PlacedQueens = readonly (Queen | readonly number[] | NumberArray)[];

/**
 * solutions()'s options: `unique` (only the fundamental solutions, the
 * lexicographically smallest of each class under the 8 symmetries, OEIS
 * A002562) or `placed` (only the solutions containing these queens, [row,
 * col] pairs, 0-based, any order), not both.
 */
export type SolutionsOptions = SolutionsBaseOptions &
  (
    | { unique?: false | undefined; placed?: PlacedQueens | undefined }
    | { unique: true; placed?: undefined }
    | { unique?: boolean | undefined; placed?: undefined }
  );

/** The result of countCompletions(): `total` solutions contain every placed queen. */
export interface CompletionsResult {
  readonly n: number;
  readonly total: bigint;
  readonly engine: EngineName;
  readonly threads: number;
  readonly elapsedMs: number;
}

export interface CompletionsOptions {
  /** 'auto' (default): wasm where it instantiates, else 'js'; or 'reference'. */
  engine?: CpuEngineChoice | undefined;
  /**
   * Worker threads (1 to 256). Default: one per core from 15 rows without a
   * queen (COMPLETIONS_THREADS_MIN_OPEN), else the calling thread, in slices.
   */
  threads?: number | undefined;
  /** Called with progress at most every 100 ms, and once at the end. */
  onProgress?: ((progress: CompletionsProgress) => void) | undefined;
  /** Aborting rejects with the signal's reason (an AbortError when it has none) and stops the workers. */
  signal?: AbortSignalLike | undefined;
}

const COUNT_SYNC_OPTIONS = ['engine', 'algorithm'] as const;
const COUNT_OPTIONS = ['engine', 'algorithm', 'threads', 'onProgress', 'signal'] as const;
const COMPLETIONS_SYNC_OPTIONS = ['engine'] as const;
const COMPLETIONS_OPTIONS = ['engine', 'threads', 'onProgress', 'signal'] as const;
const SOLUTIONS_OPTIONS = ['limit', 'engine', 'unique', 'placed', 'after'] as const;

/**
 * options.engine: any of ENGINES for count(), the CPU's alone where `cpuOnly`
 * (its RangeError lists only those; 'webgpu' itself passes, for the caller's
 * TypeError that says why it cannot run there).
 */
function checkEngine(engine: unknown, cpuOnly = false): EngineChoice {
  if (engine === undefined) return 'auto';
  return checkChoice(engine, 'options.engine', cpuOnly && engine !== 'webgpu' ? CPU_ENGINES : ENGINES);
}

/**
 * The symmetry search's independent subproblems for n, largest first: one
 * border constellation per symmetry class, with a deterministic `id` (its
 * position) and `weight` (solutions found in it stand for this many). A
 * fresh frozen array of frozen objects: nothing in it can change a count.
 */
export function planSubproblems(n: number): readonly Subproblem[] {
  return Object.freeze(searchSubproblems(checkN(n)).slice());
}

/** A count's plan: its identity, estimates, and its units (built lazily). */
export interface PlanInfo<U = Unit | JoinUnit> extends PlanIdentity {
  /** The method the plan belongs to: the search's constellations or the join's row splits. */
  readonly algorithm: AlgorithmName;
  /** The estimated share of the whole work in the largest unit (0 for a plan with no units). */
  readonly largestUnitShare: number;
  /** Whether a count's unique count comes only with its last unit (the join derives it from the whole total). */
  readonly uniqueWithLastUnit: boolean;
  /** The units from..to-1 (default: all), in order, built as they are iterated. */
  unitsIn(from?: number, to?: number): IterableIterator<U>;
  /** The units of shard `index` of `shards` (contiguous; the search's balanced by estimated work, the join's by unit count). */
  shard(index: number, shards: number): { readonly from: number; readonly to: number };
}

export interface PlanOptions {
  /**
   * Whose plan: 'auto' (default) the one count(n) runs with the same
   * algorithm option (the join's from n = JOIN_AUTO_MIN_N), 'search' or 'join'.
   */
  algorithm?: AlgorithmChoice | undefined;
  /** The search's queens placed below the border (0 to MAX_DEPTH). Default: enough for `parts`. Not with the join. */
  depth?: number | undefined;
  /** The parts the work is split into (threads or shards); sizes the search's default depth. Default 1; count() uses its threads, else 2. */
  parts?: number | undefined;
}

/**
 * The units of a count of n: the plan count(n) runs with the same
 * `algorithm` (docs/plans-and-shards.md): the search's subproblems refined to a
 * depth, or the join's row splits.
 */
export function planUnits(n: number, options: PlanOptions & { algorithm: 'search' }): PlanInfo<Unit>;
export function planUnits(n: number, options: PlanOptions & { algorithm: 'join' }): PlanInfo<JoinUnit>;
export function planUnits(n: number, options?: PlanOptions): PlanInfo;
export function planUnits(n: number, options?: PlanOptions): PlanInfo {
  checkN(n);
  const opts = checkOptions<PlanOptions>(options, 'planUnits()', ['algorithm', 'depth', 'parts']);
  const choice = checkAlgorithm(opts.algorithm);
  const algorithm = planAlgorithm(n, 'auto', choice, opts.depth);
  const parts = opts.parts === undefined ? 1 : checkInteger(opts.parts, 'options.parts', 1, Number.MAX_SAFE_INTEGER);
  // A depth of the wrong type is a TypeError whichever plan it is for.
  if (opts.depth !== undefined && typeof opts.depth !== 'number') checkInteger(opts.depth, 'options.depth', 0, MAX_DEPTH);
  if (!hasDepth(algorithm) && opts.depth !== undefined && opts.depth !== 0) {
    throw rangeError(`options.depth must be 0 or undefined for the ${algorithm}'s plan (it has no depth); got ${describe(opts.depth)}`);
  }
  const depth = opts.depth === undefined || !hasDepth(algorithm) ? undefined : checkInteger(opts.depth, 'options.depth', 0, MAX_DEPTH);
  // The units are the method's: the search's or the join's, as the overloads say.
  return planInfo(methodForCount(n, algorithm, parts, depth) as PlannedMethod<Unit | JoinUnit>, algorithm);
}

function planInfo<U extends { readonly id: number }>(m: PlannedMethod<U>, algorithm: AlgorithmName): PlanInfo<U> {
  return Object.freeze({
    ...m.identity,
    algorithm,
    largestUnitShare: m.largestUnitShare,
    uniqueWithLastUnit: m.uniqueWithLastUnit,
    // `to` from `from` on: swapped arguments are an error, not an empty run (Array.slice's answer).
    unitsIn: (from = 0, to = m.units) => {
      const start = checkInteger(from, 'from', 0, m.units);
      return iterate(m.unitsIn(start, checkInteger(to, 'to', start, m.units)));
    },
    // Named `shards`, not `count`: a message about `count` would read as the function.
    shard: (index: number, shards: number) => {
      checkInteger(shards, 'shards', 1, Number.MAX_SAFE_INTEGER);
      return Object.freeze(m.shardRange(checkInteger(index, 'index', 0, shards - 1), shards));
    },
  });
}

/** The plan's units, each frozen (the search's are already; the join's are made fresh, and a caller gets them as they are). */
function* iterate<U>(units: Iterable<U>): Generator<U, void, undefined> {
  for (const unit of units) yield Object.freeze(unit);
}

/**
 * Counts the solutions for an n x n board, blocking the calling thread.
 * Throws TypeError/RangeError for bad arguments.
 */
export function countSync(n: number, options?: CountSyncOptions): CountResult {
  checkN(n);
  const opts = checkOptions<CountSyncOptions>(options, 'countSync()', COUNT_SYNC_OPTIONS);
  const engine = checkEngine(opts.engine, true);
  const choice = checkAlgorithm(opts.algorithm);
  if (!isCpuEngine(engine)) throw typeError("countSync() cannot use engine 'webgpu': WebGPU is asynchronous; use count()");
  const start = now();
  const r = countOnCallingThread(n, engine, choice);
  return { n, total: r.total, unique: r.unique, engine: r.engine, algorithm: r.algorithm, threads: r.threads, elapsedMs: now() - start };
}

/**
 * Counts the solutions for an n x n board. Rejects with TypeError/RangeError
 * for bad arguments.
 */
export async function count(n: number, options?: CountOptions): Promise<CountResult> {
  checkN(n);
  // A throw or rejected promise from onProgress rejects the count (src/shared/progress-guard.ts).
  const guard = guardProgress(checkCountOptions<Progress>(options, 'count()', COUNT_OPTIONS));
  try {
    await Promise.resolve(); // onProgress is first called after count() has returned its promise
    const { engine, threads, onProgress, signal, algorithm } = guard.options;
    const start = now();
    const r = await countByEngine(n, { engine, algorithm, threads, onProgress, signal });
    const result = {
      n,
      total: r.total,
      unique: r.unique,
      engine: r.engine,
      algorithm: r.algorithm,
      threads: r.threads,
      elapsedMs: now() - start,
    };
    await guard.finish();
    return result;
  } catch (error) {
    throw guard.failure(error);
  } finally {
    guard.release();
  }
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
  const engine = checkEngine(opts.engine, true);
  if (!isCpuEngine(engine))
    throw typeError("solutions() cannot use engine 'webgpu': it only counts; use 'auto', 'wasm', 'js' or 'reference'");
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
  const source = solutionSource(n, engine, { rows, unique, after });
  return take(source, limit);
}

/** count()'s and countCompletions()'s options once checked. */
interface CheckedCountOptions<P> {
  engine: EngineChoice;
  algorithm: AlgorithmChoice;
  threads?: number;
  onProgress?: ((progress: P) => void) | undefined;
  signal?: AbortSignalLike | undefined;
}

/** count()'s options (countCompletions() takes the same): TypeError/RangeError for bad ones. */
const WEBGPU_COUNTS_BOARDS_ONLY = "engine 'webgpu' counts whole boards only; count completions with 'auto', 'wasm', 'js' or 'reference'";

function checkCountOptions<P>(options: unknown, fn: string, allowed: readonly string[], cpuOnly = false): CheckedCountOptions<P> {
  const opts = checkOptions<{ engine: unknown; algorithm: unknown; threads: unknown; onProgress: unknown; signal: unknown }>(
    options,
    fn,
    allowed,
  );
  const engine = checkEngine(opts.engine, cpuOnly);
  const algorithm = checkAlgorithm(opts.algorithm);
  const threads = opts.threads === undefined ? undefined : checkInteger(opts.threads, 'options.threads', 1, MAX_THREADS);
  if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') {
    throw typeError(`options.onProgress must be a function; got ${describe(opts.onProgress)}`);
  }
  if (opts.signal !== undefined && !isAbortSignal(opts.signal)) {
    throw typeError(`options.signal must be an AbortSignal; got ${describe(opts.signal)}`);
  }
  // Where the CPU's engines alone count ('webgpu' passed for the caller's TypeError), that TypeError says why, not a word on threads.
  const why = cpuOnly && !isCpuEngine(engine) ? undefined : singleThreadReason(engine);
  if (why !== undefined && threads !== undefined && threads > 1) {
    throw rangeError(`options.threads must be 1 with engine '${engine}' (${why}); got ${threads}`);
  }
  return {
    engine,
    algorithm,
    threads,
    onProgress: opts.onProgress as ((progress: P) => void) | undefined,
    signal: opts.signal as AbortSignalLike | undefined,
  };
}

/**
 * Counts the solutions that contain every queen in `placed` ([row, col]
 * pairs, 0-based, any order), blocking the calling thread. Throws
 * TypeError/RangeError for bad arguments; RangeError naming both queens
 * when two placed queens attack each other.
 */
export function countCompletionsSync(n: number, placed: PlacedQueens, options?: Pick<CompletionsOptions, 'engine'>): CompletionsResult {
  checkN(n);
  const rows = checkPlaced(n, placed);
  const opts = checkOptions<CountSyncOptions>(options, 'countCompletionsSync()', COMPLETIONS_SYNC_OPTIONS);
  const engine = checkEngine(opts.engine, true);
  if (!isCpuEngine(engine)) throw typeError(WEBGPU_COUNTS_BOARDS_ONLY);
  // From the queens checked, not `placed` again (a Proxy could answer otherwise the second time).
  if (rows.every((c) => c < 0)) return withoutUnique(countSync(n, { engine }));
  const start = now();
  const r = completionsOnCallingThread(n, rows, engine);
  return { n, total: r.total, engine: r.engine, threads: 1, elapsedMs: now() - start };
}

/**
 * Counts the solutions that contain every queen in `placed`. Takes count()'s
 * options; rejects with TypeError/RangeError for bad arguments, and with a
 * RangeError naming both queens when two placed queens attack each other.
 */
export async function countCompletions(n: number, placed: PlacedQueens, options?: CompletionsOptions): Promise<CompletionsResult> {
  checkN(n);
  const rows = checkPlaced(n, placed);
  const guard = guardProgress(checkCountOptions<CompletionsProgress>(options, 'countCompletions()', COMPLETIONS_OPTIONS, true));
  try {
    await Promise.resolve(); // onProgress is first called after countCompletions() has returned its promise
    const { engine, threads, onProgress, signal } = guard.options;
    if (!isCpuEngine(engine)) throw typeError(WEBGPU_COUNTS_BOARDS_ONLY);
    if (signal?.aborted) throw abortError(signal);
    if (rows.every((c) => c < 0)) {
      const progress = onProgress && ((p: Progress) => onProgress(completionsProgress(p)));
      const whole = withoutUnique(await count(n, { engine, threads, signal, onProgress: progress }));
      await guard.finish();
      return whole;
    }
    const start = now();
    const r = await completionsByEngine(n, rows, { engine, threads, signal, onProgress });
    const result = { n, total: r.total, engine: r.engine, threads: r.threads, elapsedMs: now() - start };
    await guard.finish();
    return result;
  } catch (error) {
    throw guard.failure(error);
  } finally {
    guard.release();
  }
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
