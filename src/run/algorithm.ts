// Which method a count runs: 'auto' takes the one measured faster for that
// n, among those whose tables fit. Apart from ./methods.ts so that the
// public types (index.d.ts) reach no WebAssembly type.
import type { EngineChoice } from '../engines/engine-names.js';
import { checkJoinSize, JOIN_MAX_N } from '../join/join-plan.js';
import { ERROR_CODES, rangeError } from '../shared/errors.js';
import { checkChoice } from '../shared/validate.js';
import { ALGORITHMS, type AlgorithmChoice, type AlgorithmName } from '../contract/plan-identity.js';

export { ALGORITHMS, type AlgorithmChoice, type AlgorithmName };

/**
 * 'auto' runs the join from this n: measured on one thread against the
 * search in one process (2026-11-23), the join took 0.27x the search's time
 * at n = 16 on wasm and 0.49x in TypeScript, and less as n grows; below 16
 * it loses on one engine or the other at some n (wasm wins from 14, TS only
 * at 14 and 16), and the method must not depend on which engine 'auto'
 * finds, so that every shard of a count runs the same plan.
 */
export const JOIN_AUTO_MIN_N = 16;

/**
 * ... and up to this n, as far as it goes (JOIN_MAX_N): its quarter tables
 * are built per set of rows within QUARTER_CACHE_BYTES a thread, so memory
 * no longer grows out of reach with n, and sampled units project it 10x
 * faster than the search at n = 21 and 22, 20x at 23 (docs/benchmarks.md).
 */
export const JOIN_AUTO_MAX_N = JOIN_MAX_N;

export function checkAlgorithm(value: unknown): AlgorithmChoice {
  return value === undefined ? 'auto' : checkChoice(value, 'options.algorithm', ALGORITHMS);
}

/**
 * The method for a count. The join runs on the 'wasm' and 'js' engines only,
 * and only up to n = JOIN_MAX_N, where its tables fit: asking for more is a
 * RangeError before anything is allocated.
 */
export function resolveAlgorithm(n: number, engine: EngineChoice, choice: AlgorithmChoice): AlgorithmName {
  if (choice === 'search') return 'search';
  const joinable = engine === 'auto' || engine === 'wasm' || engine === 'js';
  if (choice === 'auto') return joinable && n >= JOIN_AUTO_MIN_N && n <= JOIN_AUTO_MAX_N ? 'join' : 'search';
  if (!joinable) {
    throw rangeError(
      `options.algorithm 'join' needs engine 'auto', 'wasm' or 'js'; engine '${engine}' runs the search only`,
      ERROR_CODES.OUT_OF_RANGE,
    );
  }
  checkJoinSize(n);
  return 'join';
}
