// nqueens-wasm: count and list N-Queens solutions with a WebAssembly kernel,
// a pure TypeScript fallback, and a plain reference for cross-checks.
import { abortError, isAbortSignal } from './abort.js';
import { toBoard } from './board.js';
import { planSubproblems as plan, type Subproblem } from './constellations.js';
import { ENGINES, resolveKernel, type EngineChoice, type EngineName, type Kernel } from './engines.js';
import { countReference, referenceSolutions } from './kernels/reference.js';
import { constellationPlan, defaultDepth, MAX_DEPTH, type PlanIdentity, type Unit } from './plan.js';
import { runPlan, runReference, type Progress } from './run.js';
import { countAll } from './tally.js';
import { ERROR_CODES, rangeError, typeError } from './errors.js';
import { checkChoice, checkInteger, checkN, checkOptions, describe } from './validate.js';

export { toBoard };
export { ENGINES, type EngineChoice, type EngineName, type Progress };
export { MAX_N, MIN_N } from './validate.js';
export type { Subproblem, SubproblemCount } from './constellations.js';
export type { PlanIdentity, PlanMethod, Unit } from './plan.js';
export { MAX_DEPTH } from './plan.js';
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
}

const COUNT_SYNC_OPTIONS = ['engine'] as const;
const COUNT_OPTIONS = ['engine', 'threads', 'onProgress', 'signal'] as const;
const SOLUTIONS_OPTIONS = ['limit', 'engine'] as const;

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
 * position) and `weight` (solutions found in it stand for this many). A
 * fresh frozen array of frozen objects: nothing in it can change a count.
 */
export function planSubproblems(n: number): readonly Subproblem[] {
  return Object.freeze(plan(checkN(n)).slice());
}

/** A refined plan: its identity, estimates, and its units (built lazily). */
export interface PlanInfo extends PlanIdentity {
  /** The estimated share of the whole work in the largest unit. */
  readonly largestUnitShare: number;
  /** The units from..to-1 (default: all), in order, built as they are iterated. */
  unitsIn(from?: number, to?: number): IterableIterator<Unit>;
  /** The units of shard `index` of `count` (contiguous, balanced by estimated work). */
  shard(index: number, count: number): { readonly from: number; readonly to: number };
}

export interface PlanOptions {
  /** Queens placed below the border (0 to MAX_DEPTH). Default: enough for `parts`. */
  depth?: number;
  /** The parts the work is split into (threads or shards); sizes the default depth. Default 1. */
  parts?: number;
}

/** The units of a count of n: the subproblems refined to a depth (see README, "Plans"). */
export function planUnits(n: number, options?: PlanOptions): PlanInfo {
  checkN(n);
  const opts = checkOptions<PlanOptions>(options, 'planUnits()', ['depth', 'parts']);
  const parts = opts.parts === undefined ? 1 : checkInteger(opts.parts, 'options.parts', 1, Number.MAX_SAFE_INTEGER);
  const depth = opts.depth === undefined ? defaultDepth(n, parts) : checkInteger(opts.depth, 'options.depth', 0, MAX_DEPTH);
  const p = constellationPlan(n, depth);
  const info = p.identity();
  return Object.freeze({
    ...info,
    largestUnitShare: p.largestUnitWork / p.work,
    unitsIn: (from = 0, to = p.units) => p.unitsIn(checkInteger(from, 'from', 0, p.units), checkInteger(to, 'to', 0, p.units)),
    shard: (index: number, count: number) => {
      checkInteger(count, 'count', 1, Number.MAX_SAFE_INTEGER);
      return Object.freeze(p.shardRange(checkInteger(index, 'index', 0, count - 1), count));
    },
  });
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
  const opts = checkOptions<CountOptions>(options, 'count()', COUNT_OPTIONS);
  const engine = checkEngine(opts.engine);
  const threads = opts.threads === undefined ? undefined : checkInteger(opts.threads, 'options.threads', 1, MAX_THREADS);
  const { onProgress, signal } = opts;
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw typeError(`options.onProgress must be a function; got ${describe(onProgress)}`);
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw typeError(`options.signal must be an AbortSignal; got ${describe(signal)}`);
  }
  if (signal?.aborted) throw abortError(signal);
  const start = now();
  if (engine === 'reference') {
    if (threads !== undefined && threads > 1) {
      throw rangeError(`options.threads must be 1 with engine 'reference' (it has no subproblems to share); got ${threads}`, ERROR_CODES.OUT_OF_RANGE);
    }
    const { total, unique } = await runReference(n, { signal, onProgress });
    return { n, total, unique, engine, threads: 1, elapsedMs: now() - start };
  }
  const units = constellationPlan(n, defaultDepth(n, threads ?? 2));
  const r = await runPlan({ plan: units, engine, threads, onProgress, signal });
  return { n, total: r.total, unique: r.unique, engine: r.engine, threads: r.threads, elapsedMs: now() - start };
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
