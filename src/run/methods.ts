// Which method counts: the algorithm a count of n resolves to (./algorithm.ts),
// and the planned method for it or for the plan a file names. The one place
// that chooses; everything after takes a Method (src/contract/method.ts).
import { joinMethodSteps } from '../join/join-method.js';
import { searchMethodSteps } from '../search/search-method.js';
import { MAX_DEPTH } from '../search/search-plan.js';
import { finish } from '../shared/slices.js';
import { JOIN_MAX_N, PLAN_STEP } from '../join/join-plan.js';
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
 * holds more than 1/8 of a part; `depth` overrides it), its plan made at
 * once: countSync, planUnits and the CLI.
 */
export function methodForCount(n: number, algorithm: AlgorithmName, parts: number, depth?: number): PlannedMethod {
  return finish(methodSteps(n, algorithm, parts, depth));
}

/**
 * methodForCount(n, algorithm, parts) made in small steps, for count() to
 * make in slices (inSlices); counts at once make one between them.
 */
export function methodForCountSteps(n: number, algorithm: AlgorithmName, parts: number): Generator<void, PlannedMethod, undefined> {
  // The join's plan is the same for any parts; the search's depth follows from them.
  const key = algorithm === 'join' ? `join ${n}` : `search ${n} ${parts}`;
  return sharedMake(key, () => methodSteps(n, algorithm, parts, undefined, PLAN_STEP));
}

/**
 * A method's plan made in steps, through its one entry point: the join's
 * `perStep` units a step (by default at once), the search's at `depth` or
 * at the default depth for `parts`.
 */
function methodSteps(
  n: number,
  algorithm: AlgorithmName,
  parts: number,
  depth?: number,
  perStep?: number,
): Generator<void, PlannedMethod, undefined> {
  return algorithm === 'join' ? joinMethodSteps(n, perStep) : searchMethodSteps(n, parts, depth);
}

/** A plan being made in steps for counts at once, and how many of them hold it. */
interface Make {
  readonly steps: Iterator<void, PlannedMethod>;
  holders: number;
}

/** The plans being made for counts (methodForCountSteps), by what they are made for. */
const making = new Map<string, Make>();

/**
 * The steps of `key`'s plan, shared by the counts making it at once, each
 * step taken by whichever has its turn; `begin()`'s steps where none is
 * being made. A make that no count holds any longer (each aborted, so its
 * steps were closed) is dropped half made, where it stayed until the next
 * count of that n finished it (2 MB at n = 32); one that throws is begun
 * again by the next count's step.
 */
function* sharedMake(key: string, begin: () => Iterator<void, PlannedMethod>): Generator<void, PlannedMethod, undefined> {
  let held: Make | undefined;
  try {
    for (;;) {
      const make = making.get(key) ?? { steps: begin(), holders: 0 };
      if (make !== held) {
        release(key, held);
        make.holders++;
        held = make;
      }
      // Taken out while it steps: one that throws, or ends, is no longer being made (the others find the plan made).
      making.delete(key);
      const step = make.steps.next();
      if (step.done) return step.value;
      making.set(key, make);
      yield;
    }
  } finally {
    release(key, held);
  }
}

/** A count lets go of `make`; the last to hold it drops it. */
function release(key: string, make: Make | undefined): void {
  if (make && --make.holders === 0 && making.get(key) === make) making.delete(key);
}
