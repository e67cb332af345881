// Which method counts: the algorithm a count of n resolves to (./algorithm.ts),
// and the planned method for it or for the plan a file names. The one place
// that chooses; everything after takes a Method (src/contract/method.ts).
import { joinMethod, joinMethodSteps } from '../join/join-method.js';
import { searchMethod } from '../search/search-method.js';
import { defaultDepthSteps, MAX_DEPTH } from '../search/search-plan.js';
import { finish } from '../shared/slices.js';
import { JOIN_MAX_N } from '../join/join-plan.js';
import type { EngineChoice } from '../engines/engine-names.js';
import { resolveAlgorithm, type AlgorithmChoice, type AlgorithmName } from './algorithm.js';
import type { PlanIdentity, PlannedMethod } from '../contract/method.js';

export type { CpuEngine, Method, PlanIdentity, PlanMethod, PlannedMethod } from '../contract/method.js';
export { implausibleCount, PLAN_FORMAT_VERSION, recounter } from '../contract/method.js';

export { ALGORITHMS, checkAlgorithm, JOIN_AUTO_MAX_N, JOIN_AUTO_MIN_N, resolveAlgorithm } from './algorithm.js';
export { CPU_ENGINES } from './engine-limits.js';
export type { AlgorithmChoice, AlgorithmName } from './algorithm.js';

/**
 * The algorithm of a plan asked for with `choice` and perhaps a depth: as a
 * count of n resolves it, except that a depth (which refines the search's
 * plan) makes 'auto' mean the search.
 */
export function planAlgorithm(n: number, engine: EngineChoice, choice: AlgorithmChoice, depth: number | undefined): AlgorithmName {
  return resolveAlgorithm(n, engine, choice === 'auto' && depth !== undefined ? 'search' : choice);
}

/** Whether an algorithm's plan is refined to a depth: the search's is; the join's row splits have none (depth 0). */
export function hasDepth(algorithm: AlgorithmName): boolean {
  return algorithm === 'search';
}

/** A plan's name in messages: "join", or the search's "depth d". */
export function planLabel(plan: PlanIdentity): string {
  return plan.method === 'join' ? 'join' : `depth ${plan.depth}`;
}

/**
 * The labels of plans in files: the method's name, and 'constellations', the
 * search's in files written before the word was settled (still read; a
 * file's own checks cover the label it was written with).
 */
const PLAN_LABELS: Readonly<Record<AlgorithmName | 'constellations', AlgorithmName>> = {
  search: 'search',
  join: 'join',
  constellations: 'search',
};

/**
 * The algorithm and depth of a plan as a file records it (`method`,
 * `depth`), or undefined where it names no algorithm's plan or a depth its
 * plans cannot have: a file's header is input, and this reads it.
 */
export function recordedPlan(
  plan: { method?: unknown; depth?: unknown } | undefined,
): { algorithm: AlgorithmName; depth: number } | undefined {
  const algorithm =
    typeof plan?.method === 'string' && Object.hasOwn(PLAN_LABELS, plan.method)
      ? PLAN_LABELS[plan.method as keyof typeof PLAN_LABELS]
      : undefined;
  const depth = plan?.depth;
  if (algorithm === undefined || typeof depth !== 'number' || !Number.isInteger(depth)) return undefined;
  const deepest = hasDepth(algorithm) ? MAX_DEPTH : 0;
  return depth >= 0 && depth <= deepest ? { algorithm, depth } : undefined;
}

/**
 * What an algorithm asks of a count: the engines that run it (undefined:
 * every one) and the largest n it counts (the join's tables fit up to
 * JOIN_MAX_N), so that callers can word a refusal without naming methods.
 */
export function algorithmLimits(algorithm: AlgorithmChoice): { readonly engines?: readonly EngineChoice[]; readonly maxN: number } {
  return algorithm === 'join' ? { engines: ['auto', 'wasm', 'js'], maxN: JOIN_MAX_N } : { maxN: Infinity };
}

/** Whether this version makes a plan of n with that algorithm (the join's tables fit up to JOIN_MAX_N). */
export function makesPlan(algorithm: AlgorithmName, n: number): boolean {
  return n <= algorithmLimits(algorithm).maxN;
}

/** The method of a plan recorded in a file (recordedPlan): the search's constellations at `depth`, or the join (depth 0). */
export function plannedMethod(algorithm: AlgorithmName, n: number, depth: number): PlannedMethod {
  return methodForCount(n, algorithm, 1, depth);
}

/**
 * The method a count of n runs for a resolved algorithm, split for `parts`
 * threads or shards (the search refines its plan to a depth where no unit
 * holds more than 1/8 of a part; `depth` overrides it).
 */
export function methodForCount(n: number, algorithm: AlgorithmName, parts: number, depth?: number): PlannedMethod {
  return algorithm === 'join' ? joinMethod(n) : searchMethod(n, depth ?? finish(defaultDepthSteps(n, parts)));
}

/** methodForCount(n, algorithm, parts) made in steps, for count() to make in slices (inSlices). */
export function* methodForCountSteps(n: number, algorithm: AlgorithmName, parts: number): Generator<void, PlannedMethod, undefined> {
  return algorithm === 'join' ? yield* joinMethodSteps(n) : searchMethod(n, yield* defaultDepthSteps(n, parts));
}
