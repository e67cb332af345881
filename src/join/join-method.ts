// The half-board join as a Method (src/contract/method.ts): its units as a plan
// with an identity, so that its shards and checkpoints go through the same
// machinery as the search's and never mix with them: the digest covers the
// method, and also the unit list itself (how the plan is made may change
// between versions; a changed list is a different plan).
//
// A unit is one row split (src/join/join-plan.ts); it adds weight x its
// count to the total and nothing to the unique count, which follows from the
// whole total by Burnside's lemma once every unit is in (`unique`). The
// join has no refinement depth: its identity records depth 0.
import { resolveWasm } from '../engines/wasm-loader.js';
import {
  factorial,
  planMembers,
  PLAN_FORMAT_VERSION,
  subtotalsHeader,
  type CountParts,
  type CpuEngine,
  type PlannedMethod,
  type PlanIdentity,
} from '../contract/method.js';
import { checkUnitId, identityText } from '../contract/plan-identity.js';
import { Digest, digest } from '../shared/digest.js';
import { oncePer } from '../shared/once-per.js';
import { VERSION } from '../shared/version.js';
import { joinCounting, joinUnitCounter } from './join-counter.js';
import { shareJoinTables } from './join-share.js';
import { compactPlanSteps, joinMemoryBytes, joinUnitAt, joinUnitWork, type CompactJoinPlan, type JoinUnit } from './join-plan.js';
import { classesTimesEight, countSymmetricSolutions, uniqueFromTotal } from '../shared/symmetric-solutions.js';

class JoinPlan implements PlanIdentity {
  readonly method = 'join' as const;
  readonly depth = 0;
  readonly formatVersion = PLAN_FORMAT_VERSION;
  readonly units: number;
  /** The units, in plan order, in typed arrays (unit objects are made as they are asked for). */
  readonly compact: CompactJoinPlan;
  /** The digest once made: only files need it, and at n = 23 it takes 0.3 s (0.8 s before 2026-11-28). */
  private readonly made: { digest?: string } = {};
  /** joinUnitWork of one pass, per cost. */
  readonly #workOfCost: Float64Array;

  /** The plan of n, of `plan`'s units (made in steps: compactPlanSteps). */
  constructor(
    readonly n: number,
    plan: CompactJoinPlan,
  ) {
    this.compact = plan;
    this.units = plan.units;
    this.#workOfCost = Float64Array.from({ length: 256 }, (_, cost) => joinUnitWork(n, cost, 1));
    Object.freeze(this);
  }

  /** The first unit's estimated share (the plan is largest first). */
  get largestUnitShare(): number {
    return this.units > 0 ? this.workOf(0) / this.compact.work : 0;
  }

  /** Over every unit's split, as `eastRows(base 36).centreRow.weight.mirrorWeight`, comma-separated. */
  get digest(): string {
    if (this.made.digest === undefined) {
      // Even n's units count with the transpose's test since 2026-11-26 (join-plan.ts): other counts, so another plan.
      const shares = this.n % 2 === 0 ? '|shares transpose' : '';
      this.made.digest = digest(`${identityText(this.method, this.n, 0, this.units)}${shares}|splits ${splitsHex(this.compact)}`);
    }
    return this.made.digest;
  }

  *unitsIn(from = 0, to = this.units): Generator<JoinUnit, void, undefined> {
    for (let id = from; id < to; id++) yield joinUnitAt(this.compact, id);
  }

  unit(id: number): JoinUnit {
    return joinUnitAt(this.compact, checkUnitId(id, this.units));
  }

  /** A unit's estimated work (joinUnitWork: its passes and its split's spread). */
  workOf(id: number): number {
    return this.#workOfCost[this.compact.cost[id]] * this.compact.mirrorWeight[id];
  }

  workIn(from: number, to: number): number {
    if (from <= 0 && to >= this.units) return this.compact.work; // a count's progress asks for the whole
    let work = 0;
    for (let id = Math.max(0, from); id < Math.min(to, this.units); id++) work += this.workOf(id);
    return work;
  }

  /** Shard `index` of `count`: a contiguous run of units, balanced by number. */
  shardRange(index: number, count: number): { from: number; to: number } {
    return { from: Math.floor((this.units * index) / count), to: Math.floor((this.units * (index + 1)) / count) };
  }

  /** What unit `id`'s count adds: weight x count to the total, nothing to 8 x unique (see `unique`). */
  contribution(id: number, count: bigint): { total: bigint; unique8: bigint } {
    return { total: count * BigInt(this.compact.weight[id]), unique8: 0n };
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

/** Characters of the splits' text digested at once. */
const DIGEST_CHUNK = 8192;

/**
 * The digest of every unit's split, as `eastRows(base 36).centreRow.weight.mirrorWeight`,
 * comma-separated: the text (ASCII) written into bytes and digested a chunk
 * at a time (0.36 s at n = 23, where a string a unit took 0.81 s).
 */
function splitsHex(plan: CompactJoinPlan): string {
  const splits = new Digest();
  const text = new Uint8Array(DIGEST_CHUNK + 64); // room for the unit that crosses the chunk's end
  const decoder = new TextDecoder();
  let at = 0;
  for (let i = 0; i < plan.units; i++) {
    if (i > 0) text[at++] = COMMA;
    at = writeNumber(text, at, plan.eastRows[i], 36);
    text[at++] = DOT;
    at = writeNumber(text, at, plan.centreRow[i], 10);
    text[at++] = DOT;
    at = writeNumber(text, at, plan.weight[i], 10);
    text[at++] = DOT;
    at = writeNumber(text, at, plan.mirrorWeight[i], 10);
    if (at >= DIGEST_CHUNK || i === plan.units - 1) {
      splits.update(decoder.decode(text.subarray(0, at)));
      at = 0;
    }
  }
  return splits.hex();
}

const [COMMA, DOT, MINUS] = [',', '.', '-'].map((c) => c.charCodeAt(0));

/** Writes an integer (|value| < 2^31) as `value.toString(radix)` does, from `at`; returns where it ends. */
function writeNumber(text: Uint8Array, at: number, value: number, radix: number): number {
  if (value < 0) text[at++] = MINUS;
  let rest = Math.abs(value);
  let end = at + 1;
  for (let power = radix; power <= rest; power *= radix) end++;
  for (let i = end - 1; i >= at; i--) {
    const digit = rest % radix;
    text[i] = digit < 10 ? 48 + digit : 87 + digit; // '0'-'9', then 'a'-'z'
    rest = (rest / radix) | 0;
  }
  return end;
}

/** The join's plans by n (1 <= n <= JOIN_MAX_N): each made once, and immutable. */
const plans = new Map<number, JoinPlan>();

/**
 * The join's plan for n made in steps of `perStep` (compactPlanSteps: by
 * default long ones); the first made is every caller's.
 */
function* joinPlanSteps(n: number, perStep?: number): Generator<void, JoinPlan, undefined> {
  const made = plans.get(n);
  if (made) return made;
  const plan = new JoinPlan(n, yield* compactPlanSteps(n, perStep));
  if (!plans.has(n)) plans.set(n, plan);
  return plans.get(n)!;
}

/**
 * Largest n at which the calling thread counts join units while workers
 * start: its tables take 5 ms to build at n = 16 and 15 ms at 17, against
 * 30 ms for a worker to start; 50 ms at 18 and 350 ms at 20 (2-core AMD
 * EPYC VM, Node 20).
 */
const JOIN_HELP_MAX_N = 17;

/**
 * The join's Method for n, its plan made in steps of `perStep` units (by
 * default at once; PLAN_STEP for count(), which makes it in slices: n =
 * 23's held the event loop 0.4 s). The one entry point of its plan that
 * the run layer drives.
 */
export function* joinMethodSteps(n: number, perStep?: number): Generator<void, PlannedMethod<JoinUnit>, undefined> {
  return methodOf(yield* joinPlanSteps(n, perStep));
}

// Made once per plan (plans are cached and immutable).
const methodOf = oncePer((plan: JoinPlan): PlannedMethod<JoinUnit> => {
  const { n } = plan;
  const mostSolutions = factorial(n >> 1) ** 2n;
  return Object.freeze({
    name: joinCounting.name,
    ...planMembers(plan),
    contribution: (id: number, count: bigint) => plan.contribution(id, count),
    uniqueOf: (total: bigint) => plan.unique(total),
    uniqueWithLastUnit: true,
    checkParts: (total: bigint) => checkParts(plan, total),
    // A split's solutions pair an east half (h queens in h columns) with a west half: at most h! x h!.
    maxCount: () => mostSolutions,
    subtotals: (countOf: (id: number) => bigint) => subtotals(plan, countOf),
    countParts: () => unitParts(plan),
    module: (engine: CpuEngine) => resolveWasm('join', engine),
    counter: (module: WebAssembly.Module | null) => joinUnitCounter(n, module),
    codec: undefined,
    bytesPerThread: joinMemoryBytes(n),
    helps: n <= JOIN_HELP_MAX_N,
    // The last unit is among the smallest (the plan is largest first).
    warm: () => (plan.units > 0 ? plan.unit(plan.units - 1) : undefined),
    // One worker shares with no one: it gets `module` itself, so no shared build is compiled, and an idle
    // worker keeps its instance and tables for the next count of n (as idle workers on a spare shared memory do).
    share: (module: WebAssembly.Module | null, workers: number) =>
      workers > 1 ? shareJoinTables(module, n, workers) : Promise.resolve(undefined),
  });
});

/** Burnside: 8 x the number of classes is a whole number (classesTimesEight). */
function checkParts(plan: JoinPlan, total: bigint): string | undefined {
  const symmetric = plan.symmetric();
  if (classesTimesEight(plan.n, total, symmetric) % 8n === 0n) return undefined;
  const { s180, s90 } = symmetric;
  return `the total ${total} cannot be a count of n = ${plan.n}: with ${s180} half-turn and ${s90} quarter-turn symmetric solutions, Burnside's lemma gives no whole number of classes`;
}

/**
 * A whole count's parts: a count a unit (677,294 units at n = 24, the
 * join's largest), each at most maxCount, (12!)^2 < 2^64.
 */
function unitParts(plan: JoinPlan): CountParts {
  const counts = new BigUint64Array(plan.units);
  return {
    add: (id, count) => void (counts[id] = count),
    check: (total) => checkParts(plan, total),
    subtotals: () => subtotals(plan, (id) => counts[id]),
  };
}

/** One line per unit (row split). */
function subtotals(plan: JoinPlan, countOf: (id: number) => bigint): string {
  const { s180, s90 } = plan.symmetric();
  const lines = [
    subtotalsHeader(joinCounting.name, plan, VERSION),
    '# One line per row split, one per class under the north-south and east-west mirrors: split (row 0 first: E, the',
    '# queen stands in the east half, columns 0..n/2-1; W, the west half; C, the centre column, odd n), weight (splits in',
    '# the class), solutions of the split.',
    plan.n === 1
      ? '# total = sum of weight x solutions; unique = total (Burnside: the one board is fixed by all 8 symmetries).'
      : `# total = sum of weight x solutions; unique = (total + ${s180} + 2 x ${s90}) / 8 (Burnside: half- and quarter-turn symmetric solutions).`,
    'id split weight solutions',
  ];
  for (const u of plan.unitsIn()) {
    let split = '';
    for (let row = 0; row < plan.n; row++) split += row === u.centreRow ? 'C' : (u.eastRows >>> row) & 1 ? 'E' : 'W';
    lines.push(`${u.id} ${split} ${u.weight} ${countOf(u.id)}`);
  }
  return lines.join('\n') + '\n';
}
