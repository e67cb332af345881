// The plans tests look into, made through the entry points that counts use:
// a count's method (methodForCount) for its units, identity, shards and
// what each unit's count adds, and the search's plan as its method's steps
// make it (searchPlanSteps), for tests that look at its constellations.
// Test code, so it is not shipped.
import { methodForCount } from '../dist/run/methods.js';
import { searchPlanSteps, type ConstellationPlan, type Unit } from '../dist/search/search-plan.js';
import { finish } from '../dist/shared/slices.js';
import type { PlannedMethod } from '../dist/contract/method.js';
import type { JoinUnit } from '../dist/join/join-plan.js';

/** The join's method for n, as a count at once makes it (its plan cached). */
export function joinPlan(n: number): PlannedMethod<JoinUnit> {
  return methodForCount(n, 'join', 1) as PlannedMethod<JoinUnit>;
}

/** The search's method for n at `depth`, as a count at once makes it (its plan cached). */
export function searchPlan(n: number, depth: number): PlannedMethod<Unit> {
  return methodForCount(n, 'search', 1, depth) as PlannedMethod<Unit>;
}

/** The search's plan for n at `depth` itself (cached): the one searchPlan's method counts. */
export function constellationPlan(n: number, depth: number): ConstellationPlan {
  return finish(searchPlanSteps(n, 1, depth));
}

/** Unit `id` of a plan's method. */
export function unitOf<U>(plan: { unitsIn(from: number, to: number): Iterable<U> }, id: number): U {
  const [unit] = plan.unitsIn(id, id + 1);
  return unit;
}

/** Every unit of the join's plan for n, in plan order. */
export function planJoin(n: number): JoinUnit[] {
  const plan = joinPlan(n);
  return [...plan.unitsIn(0, plan.units)];
}

/** Every unit of a plan's method, in plan order, built as they are iterated. */
export function* unitsOf<U>(plan: {
  readonly units: number;
  unitsIn(from: number, to: number): Iterable<U>;
}): Generator<U, void, undefined> {
  yield* plan.unitsIn(0, plan.units);
}
