// Compiled by test/types.test.ts against the packed package, with no DOM lib,
// no @types, strict, exactOptionalPropertyTypes and skipLibCheck: false.
import {
  count,
  countCompletionsSync,
  countSync,
  ENGINES,
  ERROR_CODES,
  MAX_N,
  planSubproblems,
  planUnits,
  solutions,
  toBoard,
  type AbortSignalLike,
  type CodedError,
  type CountOptions,
  type CountResult,
  type EngineChoice,
  type ErrorCode,
  type PlacedQueens,
  type Progress,
  type SolutionsOptions,
} from 'nqueens-wasm';

// Options that may be undefined, as they often are when passed along.
function options(engine?: EngineChoice, threads?: number, signal?: AbortSignalLike): CountOptions {
  return { engine, threads, signal, onProgress: undefined };
}

export async function use(signal: AbortSignalLike): Promise<bigint> {
  const r: CountResult = await count(12, options('wasm', 2, signal));
  const engine: 'wasm' | 'js' | 'reference' | 'webgpu' = r.engine;
  const method: 'join' | 'search' = r.algorithm;
  const sync = countSync(8, { engine: undefined, algorithm: undefined });
  await count(12, { algorithm: 'join', engine: 'js' });
  const onProgress = (p: Progress): void => void p.fraction;
  await count(13, { threads: 2, onProgress, signal });
  const limit: SolutionsOptions = { limit: undefined, engine: 'js' };
  for (const placement of solutions(8, limit)) toBoard(placement).join('\n');
  const ids: number[] = planSubproblems(10).map((s) => s.id + s.weight);
  const codes: ErrorCode[] = Object.values(ERROR_CODES);
  const first: EngineChoice = ENGINES[0];
  void [engine, method, ids, codes, first, MAX_N];
  return r.total + sync.unique;
}

export function codeOf(error: unknown): ErrorCode | undefined {
  return error instanceof Error && 'code' in error ? (error as CodedError).code : undefined;
}

// @ts-expect-error an unknown engine is a type error
countSync(8, { engine: 'gpu' });
// @ts-expect-error threads are not an option of solutions()
solutions(8, { threads: 2 });
// @ts-expect-error countSync cannot use the GPU (count() only): the types refuse what the runtime refuses
countSync(8, { engine: 'webgpu' });
// @ts-expect-error solutions() lists, the GPU only counts
solutions(8, { engine: 'webgpu' });
// @ts-expect-error unique and placed do not combine (the smallest of a class need not contain the queens)
solutions(8, { unique: true, placed: [[0, 0]] });
// Either alone, or with undefined, is fine; so is every option set to undefined.
solutions(8, { unique: true, placed: undefined });
solutions(8, { unique: false, placed: [[0, 0]] });
solutions(8, { placed: [[0, 0]], after: undefined, limit: undefined, engine: undefined });
planUnits(16, { depth: undefined, parts: undefined, algorithm: undefined });
planUnits(16, { algorithm: 'join' }).unitsIn(0, 1);
// Lists of integers: arrays or typed arrays of numbers; array-likes are refused at run time, and by the types.
toBoard(new Int32Array([1, 3, 0, 2]));
solutions(4, { after: new Uint8Array([1, 3, 0, 2]) });
solutions(4, { placed: [Int32Array.of(0, 1)] });
countCompletionsSync(4, [[0, 1], Uint8Array.of(1, 3)]);
// A list held in a variable is inferred number[][]: taken too, as it is at run time.
const placedPairs = [
  [0, 3],
  [5, 7],
];
countCompletionsSync(20, placedPairs);
solutions(20, { placed: placedPairs, limit: 1 });
const namedPlaced: PlacedQueens = placedPairs;
void namedPlaced;
// @ts-expect-error a pair's entries are numbers
countCompletionsSync(4, [['0', 1]]);
// @ts-expect-error an array-like is no list the API takes
toBoard({ length: 1, 0: 0 });
