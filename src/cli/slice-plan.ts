// What shards, checkpoints, merge and subtotals need of a plan, whatever its
// method: the symmetry search's constellations (src/search/search-plan.ts) or the
// half-board join's row splits (src/join/join-method.ts). Each method
// adapts its plan to this one interface; the slice machinery is written once
// against it. Plans of different methods have different digests, so their
// files never mix.
import type { AbortSignalLike } from '../shared/abort.js';
import { resolveKernel } from '../engines/engines.js';
import { joinCounter, resolveJoinModule } from '../join/join-module.js';
import { joinPlan, JoinPlan } from '../join/join-method.js';
import { constellationPlan, ConstellationPlan, countUnit, type PlanIdentity, type PlanMethod } from '../search/search-plan.js';
import { runJoinUnits, runPlan, type Already, type PlanResult, type Progress } from '../run/runner.js';
import { constellationSubtotals, joinSubtotals } from './subtotals.js';

export type CpuEngine = 'auto' | 'wasm' | 'js';

export interface SliceRunOptions {
  from: number;
  to: number;
  skip?: ((id: number) => boolean) | undefined;
  engine: CpuEngine;
  threads: number | undefined;
  signal?: AbortSignalLike | undefined;
  already?: Already | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Called as each unit finishes. */
  onUnit: (id: number, count: bigint) => void;
}

/** Where a merged unit's count came from. */
export type CountSource = (id: number) => { name: string; count: bigint };

export interface SlicePlan extends PlanIdentity {
  /** The plan behind it. */
  readonly base: ConstellationPlan | JoinPlan;
  /** Shard `index` of `count`: a contiguous run of units, balanced by estimated work. */
  shardRange(index: number, count: number): { from: number; to: number };
  workOf(id: number): number;
  workIn(from: number, to: number): number;
  /** What unit `id`'s count adds to the total and to 8 x the unique count. */
  contribution(id: number, count: bigint): { total: bigint; unique8: bigint };
  /** Counts the units from..to-1 (less the skipped) on the run machinery: this thread or workers. */
  run(options: SliceRunOptions): Promise<PlanResult>;
  /** A counter of single units on this thread (merge --verify). */
  recounter(engine: CpuEngine): (id: number) => bigint;
  /**
   * The unique count of the whole count (every unit in) from its total and
   * 8 x unique; `problem` says what no count can give (merge refuses it),
   * naming the file through `source` where it can.
   */
  wholeUnique(total: bigint, unique8: bigint, source: CountSource): { unique: bigint; problem?: string };
  /** The text of a subtotals file for the whole count. */
  subtotals(countOf: (id: number) => bigint): string;
}

/** What both plans already have alike. */
function shared(plan: ConstellationPlan | JoinPlan) {
  return {
    ...plan.identity(),
    base: plan,
    shardRange: (index: number, count: number) => plan.shardRange(index, count),
    workOf: (id: number) => plan.workOf(id),
    workIn: (from: number, to: number) => plan.workIn(from, to),
  };
}

function searchSlices(plan: ConstellationPlan): SlicePlan {
  return Object.freeze({
    ...shared(plan),
    contribution(id: number, count: bigint) {
      const i = plan.constellationIndex(id);
      const weighted = count * BigInt(plan.constellations[i].weight);
      return { total: plan.span(i).fixesUnit === id ? 0n : weighted, unique8: weighted };
    },
    run: (o: SliceRunOptions) => runPlan({ ...o, plan, onUnit: (unit, count) => o.onUnit(unit.id, count) }),
    recounter(engine: CpuEngine) {
      const kernel = resolveKernel(engine);
      return (id: number) => {
        const steps = countUnit(kernel, plan.n, plan.unit(id));
        let step = steps.next();
        while (!step.done) step = steps.next();
        return step.value;
      };
    },
    wholeUnique(_total: bigint, unique8: bigint, source: CountSource) {
      // Each symmetric constellation: its fixes must fit its solutions (each
      // solution is fixed by at most the h - 1 other elements of the
      // stabiliser), and solutions + fixes must divide by h (Burnside).
      for (let i = 0; i < plan.constellations.length; i++) {
        const span = plan.span(i);
        if (span.fixesUnit < 0) continue;
        let solutions = 0n;
        for (let id = span.first; id < span.fixesUnit; id++) solutions += source(id).count;
        const { name, count: fixes } = source(span.fixesUnit);
        const h = BigInt(plan.constellations[i].stabiliser);
        if (fixes > (h - 1n) * solutions || (solutions + fixes) % h !== 0n) {
          return {
            unique: 0n,
            problem: `${name}: unit ${span.fixesUnit} (the fixes of constellation ${i}, stabiliser ${h}) records ${fixes} fixes for ${solutions} solutions, which no count can give`,
          };
        }
      }
      if (unique8 % 8n !== 0n) return { unique: 0n, problem: `the unique counts do not add up to a whole number (${unique8} / 8)` };
      return { unique: unique8 / 8n };
    },
    subtotals: (countOf: (id: number) => bigint) => constellationSubtotals(plan, countOf),
  });
}

function joinSlices(plan: JoinPlan): SlicePlan {
  return Object.freeze({
    ...shared(plan),
    contribution: (id: number, count: bigint) => plan.contribution(id, count),
    run: (o: SliceRunOptions) => runJoinUnits({ ...o, n: plan.n, units: plan.list, onUnit: (unit, count) => o.onUnit(unit.id, count) }),
    recounter(engine: CpuEngine) {
      const module = resolveJoinModule(engine);
      const counter = joinCounter(module ? 'wasm' : 'js', module ?? undefined);
      return (id: number) => counter.countUnit(plan.n, plan.unit(id));
    },
    wholeUnique(total: bigint) {
      // Burnside: total + S180 + 2 x S90 is 8 x the number of classes.
      const { s180, s90 } = plan.symmetric();
      if ((total + s180 + 2n * s90) % 8n !== 0n) {
        return {
          unique: 0n,
          problem: `the total ${total} cannot be a count of n = ${plan.n}: with ${s180} half-turn and ${s90} quarter-turn symmetric solutions, Burnside's lemma gives no whole number of classes`,
        };
      }
      return { unique: plan.unique(total) };
    },
    subtotals: (countOf: (id: number) => bigint) => joinSubtotals(plan, countOf),
  });
}

const adapted = new WeakMap<object, SlicePlan>();

/** The slice view of a plan (cached per plan). */
export function slicePlanOf(plan: ConstellationPlan | JoinPlan | SlicePlan): SlicePlan {
  if (!(plan instanceof ConstellationPlan) && !(plan instanceof JoinPlan)) return plan;
  let slices = adapted.get(plan);
  if (!slices) {
    slices = plan instanceof JoinPlan ? joinSlices(plan) : searchSlices(plan);
    adapted.set(plan, slices);
  }
  return slices;
}

/** The plan of a method for n (depth: the search's refinement; the join has none, 0). */
export function slicePlan(method: PlanMethod, n: number, depth: number): SlicePlan {
  return slicePlanOf(method === 'join' ? joinPlan(n) : constellationPlan(n, depth));
}
