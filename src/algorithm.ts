// Which counting method runs: the row-by-row symmetry search, or the
// half-board join (src/join.ts). 'auto' takes the one measured faster for
// that n, among those whose tables fit.
import { ERROR_CODES, rangeError } from './errors.js';
import type { EngineChoice } from './engine-names.js';
import { checkJoinSize, JOIN_MAX_N } from './kernels/join-plan.js';
import { checkChoice } from './validate.js';

export const ALGORITHMS = ['auto', 'join', 'search'] as const;
export type AlgorithmChoice = (typeof ALGORITHMS)[number];
export type AlgorithmName = Exclude<AlgorithmChoice, 'auto'>;

/**
 * The board sizes where the join beat the search on one thread in
 * `npm run bench:peers` (bench/peers/README.md). None yet: on 2026-11-23 the
 * wasm join took about the search's time at n = 16 to 18, so 'auto' keeps
 * the search, which also gives progress inside every unit.
 */
const JOIN_FASTER_FROM_N = Infinity;

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
  if (choice === 'auto') return joinable && n >= JOIN_FASTER_FROM_N && n <= JOIN_MAX_N ? 'join' : 'search';
  if (!joinable) {
    throw rangeError(
      `options.algorithm 'join' needs engine 'auto', 'wasm' or 'js'; engine '${engine}' runs the search only`,
      ERROR_CODES.OUT_OF_RANGE,
    );
  }
  checkJoinSize(n);
  return 'join';
}
