// nqueens-wasm: count and list N-Queens solutions with a WebAssembly kernel,
// a pure TypeScript fallback, and a plain reference for cross-checks.
import { abortError, isAbortSignal, type AbortSignalLike } from './abort.js';
import { toBoard } from './board.js';
import { planSubproblems as plan, type Subproblem } from './constellations.js';
import { ALGORITHMS, checkAlgorithm, resolveAlgorithm, type AlgorithmChoice, type AlgorithmName } from './algorithm.js';
import { countJoin, resolveJoinModule } from './join.js';
import { planJoin } from './kernels/join-plan.js';
import { ENGINES, type EngineChoice, type EngineName } from './engine-names.js';
import { resolveKernel, type Kernel } from './engines.js';
import { countReference, referenceSolutions } from './kernels/reference.js';
import { countWebGpu } from './kernels/webgpu.js';
import { runPlan, type Progress } from './run.js';
import { countAll } from './tally.js';
import { checkChoice, checkInteger, checkN, checkOptions, describe } from './validate.js';
import { rangeError, typeError } from './errors.js';

export { toBoard };
export { ENGINES, type AbortSignalLike, type EngineChoice, type EngineName, type Progress };
export { ALGORITHMS, type AlgorithmChoice, type AlgorithmName };
export { JOIN_MAX_N } from './kernels/join-plan.js';
export { ERROR_CODES, type CodedError, type ErrorCode } from './errors.js';
export { MAX_N, MIN_N } from './validate.js';
export type { Subproblem, SubproblemCount } from './constellations.js';
export { AUTO_THREADS_MIN_N } from './run.js';

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
  /** The method that actually ran: the half-board 'join' or the row-by-row 'search'. */
  readonly algorithm: AlgorithmName;
  /** Threads that counted: 1 on the calling thread, else the number of workers. */
  readonly threads: number;
  /** Wall time of the count, in milliseconds. */
  readonly elapsedMs: number;
}

export interface CountSyncOptions {
  /**
   * 'auto' (default): wasm where it instantiates, else 'js'. 'webgpu' counts
   * on the GPU, with count() only; where WebGPU is missing it rejects.
   */
  engine?: EngineChoice | undefined;
  /**
   * 'auto' (default): the method measured faster for this n whose tables fit;
   * 'join' joins half-boards (engines 'wasm' and 'js', n <= JOIN_MAX_N);
   * 'search' is the row-by-row symmetry search.
   */
  algorithm?: AlgorithmChoice | undefined;
}

export interface CountOptions extends CountSyncOptions {
  /**
   * Worker threads (1 to 256). Default: one per core from n = 15 on, else the
   * calling thread, in slices that let the event loop run.
   */
  threads?: number | undefined;
  /** Called with progress at most every 100 ms, and once at the end. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /**
   * An AbortSignal: aborting rejects the count with a DOMException named
   * 'AbortError' and stops its workers.
   */
  signal?: AbortSignalLike | undefined;
}

export interface SolutionsOptions {
  /** Stop after this many placements (an integer >= 0). Default: all. */
  limit?: number | undefined;
  engine?: EngineChoice | undefined;
}

const COUNT_SYNC_OPTIONS = ['engine', 'algorithm'] as const;
const COUNT_OPTIONS = ['engine', 'algorithm', 'threads', 'onProgress', 'signal'] as const;
const SOLUTIONS_OPTIONS = ['limit', 'engine'] as const;

function checkEngine(engine: unknown): EngineChoice {
  return engine === undefined ? 'auto' : checkChoice(engine, 'options.engine', ENGINES);
}

function now(): number {
  return globalThis.performance ? performance.now() : Date.now();
}

function countOnThisThread(n: number, engine: Exclude<EngineChoice, 'webgpu'>, algorithm: AlgorithmName): CountResult {
  const start = now();
  if (engine === 'reference') {
    const { total, unique } = countReference(n);
    return { n, total, unique, engine, algorithm, threads: 1, elapsedMs: now() - start };
  }
  if (algorithm === 'join') {
    const module = resolveJoinModule(engine);
    const { total, unique } = countJoin(n, module ? 'wasm' : 'js');
    return { n, total, unique, engine: module ? 'wasm' : 'js', algorithm, threads: 1, elapsedMs: now() - start };
  }
  const kernel: Kernel = resolveKernel(engine);
  const { total, unique } = countAll(n, kernel);
  return { n, total, unique, engine: kernel.name, algorithm, threads: 1, elapsedMs: now() - start };
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
  const engine = checkEngine(opts.engine);
  const choice = checkAlgorithm(opts.algorithm);
  if (engine === 'webgpu') throw typeError("countSync() cannot use engine 'webgpu': WebGPU is asynchronous; use count()");
  return countOnThisThread(n, engine, resolveAlgorithm(n, engine, choice));
}

/**
 * Counts the solutions for an n x n board. Rejects with TypeError/RangeError
 * for bad arguments.
 */
export async function count(n: number, options?: CountOptions): Promise<CountResult> {
  checkN(n);
  const opts = checkOptions<CountOptions>(options, 'count()', COUNT_OPTIONS);
  const engine = checkEngine(opts.engine);
  const choice = checkAlgorithm(opts.algorithm);
  const threads = opts.threads === undefined ? undefined : checkInteger(opts.threads, 'options.threads', 1, MAX_THREADS);
  const { onProgress, signal } = opts;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw typeError(`options.onProgress must be a function; got ${describe(onProgress)}`);
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw typeError(`options.signal must be an AbortSignal; got ${describe(signal)}`);
  }
  const algorithm = resolveAlgorithm(n, engine, choice);
  if (signal?.aborted) throw abortError(signal);
  if (engine === 'reference') {
    if (threads !== undefined && threads > 1) {
      throw rangeError(`options.threads must be 1 with engine 'reference' (it has no subproblems to share); got ${threads}`);
    }
    return countOnThisThread(n, engine, algorithm);
  }
  const start = now();
  if (engine === 'webgpu') {
    if (threads !== undefined && threads > 1) {
      throw rangeError(`options.threads must be 1 with engine 'webgpu' (the GPU runs the whole count); got ${threads}`);
    }
    const { total, unique } = await countWebGpu(n, { signal, onProgress });
    return { n, total, unique, engine, algorithm, threads: 1, elapsedMs: now() - start };
  }
  const r =
    algorithm === 'join'
      ? await runPlan({ method: 'join', n, subproblems: planJoin(n), engine, threads, onProgress, signal })
      : await runPlan({ n, subproblems: plan(n), engine, threads, onProgress, signal });
  return { n, total: r.total, unique: r.unique, engine: r.engine, algorithm: r.method, threads: r.threads, elapsedMs: now() - start };
}

/**
 * The solutions as placements (placement[row] = column, 0-based) in
 * lexicographic order, produced lazily by the search itself.
 */
export function solutions(n: number, options?: SolutionsOptions): IterableIterator<number[]> {
  checkN(n);
  const opts = checkOptions<SolutionsOptions>(options, 'solutions()', SOLUTIONS_OPTIONS);
  const limit = opts.limit === undefined ? Infinity : checkInteger(opts.limit, 'options.limit', 0, Infinity);
  const engine = checkEngine(opts.engine);
  if (engine === 'webgpu') throw typeError("solutions() cannot use engine 'webgpu': it only counts; use 'auto', 'wasm', 'js' or 'reference'");
  const source = engine === 'reference' ? referenceSolutions(n) : resolveKernel(engine).solutions(n);
  return take(source, limit);
}

function* take(source: Iterator<number[]>, limit: number): Generator<number[], void, undefined> {
  for (let i = 0; i < limit; i++) {
    const next = source.next();
    if (next.done) return;
    yield next.value;
  }
}
