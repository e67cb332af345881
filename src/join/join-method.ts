// The half-board join's units as a plan with an identity, so that its
// shards and checkpoints go through the same machinery as the search's
// (src/search/search-plan.ts) and never mix with them: the digest covers the method, and
// also the unit list itself (planJoin may change between versions; a
// changed list is a different plan).
//
// A unit is one row split (src/join/join-plan.ts); it adds weight x its
// count to the total and nothing to the unique count, which follows from the
// whole total by Burnside's lemma once every unit is in (`unique`). The
// join has no refinement depth: its identity records depth 0.
import { digest } from '../shared/digest.js';
import { rangeError } from '../shared/errors.js';
import { countSymmetricSolutions, uniqueFromTotal } from './symmetric-solutions.js';
import { planJoin, type JoinUnit } from './join-plan.js';
import { PLAN_FORMAT_VERSION, type PlanIdentity } from '../search/search-plan.js';

export class JoinPlan implements PlanIdentity {
  readonly method = 'join' as const;
  readonly depth = 0;
  readonly formatVersion = PLAN_FORMAT_VERSION;
  readonly units: number;
  readonly digest: string;
  /** The units, in plan order (frozen). */
  readonly list: readonly JoinUnit[];

  constructor(readonly n: number) {
    const list = planJoin(n);
    list.forEach((u, i) => {
      if (u.id !== i) throw rangeError(`join plan for n = ${n}: unit ${i} has id ${u.id}`);
    });
    this.list = Object.freeze(list);
    this.units = list.length;
    const splits = digest(list.map((u) => `${u.eastRows.toString(36)}.${u.centreRow}.${u.weight}.${u.mirrorWeight}`).join(','));
    this.digest = digest(
      `nqueens-plan|format ${PLAN_FORMAT_VERSION}|method ${this.method}|n ${n}|depth 0|units ${this.units}|splits ${splits}`,
    );
    Object.freeze(this);
  }

  /** The identity alone, as recorded in files. */
  identity(): PlanIdentity {
    const { method, n, depth, formatVersion, units, digest } = this;
    return Object.freeze({ method, n, depth, formatVersion, units, digest });
  }

  unitsIn(from = 0, to = this.units): readonly JoinUnit[] {
    return this.list.slice(from, to);
  }

  unit(id: number): JoinUnit {
    if (!Number.isInteger(id) || id < 0 || id >= this.units) throw rangeError(`unit ${id} is not in this plan (0 to ${this.units - 1})`);
    return this.list[id];
  }

  /** Units are of about equal work (one split each): work is their number. */
  workOf(_id: number): number {
    return 1;
  }

  workIn(from: number, to: number): number {
    return Math.max(0, to - from);
  }

  /** Shard `index` of `count`: a contiguous run of units, balanced by number. */
  shardRange(index: number, count: number): { from: number; to: number } {
    return { from: Math.floor((this.units * index) / count), to: Math.floor((this.units * (index + 1)) / count) };
  }

  /** What unit `id`'s count adds: weight x count to the total, nothing to 8 x unique (see `unique`). */
  contribution(id: number, count: bigint): { total: bigint; unique8: bigint } {
    return { total: count * BigInt(this.list[id].weight), unique8: 0n };
  }

  /** The symmetric solutions that Burnside's lemma needs (a small search). */
  symmetric(): { s180: bigint; s90: bigint } {
    return countSymmetricSolutions(this.n);
  }

  /** The unique count of the whole, from its total (every unit in). */
  unique(total: bigint): bigint {
    return uniqueFromTotal(this.n, total, this.symmetric());
  }
}

const plans = new Map<number, JoinPlan>();

/** The join's plan for n (2 <= n <= JOIN_MAX_N); cached. */
export function joinPlan(n: number): JoinPlan {
  let plan = plans.get(n);
  if (!plan) {
    plan = new JoinPlan(n);
    plans.set(n, plan);
  }
  return plan;
}
