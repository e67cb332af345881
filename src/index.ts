// nqueens-wasm: count and list N-Queens solutions with a WebAssembly kernel,
// a pure TypeScript fallback, and a plain reference for cross-checks.
import { toBoard } from './board.js';
import { ENGINES, resolveKernel, type EngineChoice, type EngineName, type Kernel } from './engines.js';
import { countReference, referenceSolutions } from './kernels/reference.js';
import { countAll } from './tally.js';
import { checkChoice, checkInteger, checkN, checkOptions } from './validate.js';

export { toBoard };
export { ENGINES, type EngineChoice, type EngineName };
export { MAX_N, MIN_N } from './validate.js';

export interface CountResult {
  readonly n: number;
  /** All solutions (OEIS A000170). */
  readonly total: bigint;
  /** Fundamental solutions, one per class under rotations and reflections (OEIS A002562). */
  readonly unique: bigint;
  /** The engine that actually ran: 'auto' resolves to 'wasm', or to 'js' where wasm is unavailable. */
  readonly engine: EngineName;
  /** Wall time of the count, in milliseconds. */
  readonly elapsedMs: number;
}

export interface CountSyncOptions {
  /** 'auto' (default): wasm where it instantiates, else 'js'. */
  engine?: EngineChoice;
}

export type CountOptions = CountSyncOptions;

export interface SolutionsOptions {
  /** Stop after this many placements (an integer >= 0). Default: all. */
  limit?: number;
  engine?: EngineChoice;
}

const COUNT_SYNC_OPTIONS = ['engine'] as const;
const COUNT_OPTIONS = ['engine'] as const;
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
    return { n, total, unique, engine, elapsedMs: now() - start };
  }
  const kernel: Kernel = resolveKernel(engine);
  const { total, unique } = countAll(n, kernel);
  return { n, total, unique, engine: kernel.name, elapsedMs: now() - start };
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
  return countOnThisThread(n, checkEngine(opts.engine));
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
