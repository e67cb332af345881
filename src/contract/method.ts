// A counting method as everything above the kernels sees it: the runner and
// its workers, shards, checkpoints, subtotals and merge all take a Method and
// never ask which one it is. The symmetry search (src/search/search-method.ts),
// the half-board join (src/join/join-method.ts) and completions
// (src/completions/completions-method.ts) each implement it.

export { PLAN_FORMAT_VERSION, type MethodName, type PlanIdentity, type PlanMethod } from './plan-identity.js';
import { checkUnitId, type MethodName, type PlanIdentity } from './plan-identity.js';

/** Engines that count units on CPU threads. */
export type CpuEngine = 'auto' | 'wasm' | 'js';

/** What a unit's count adds: to the total, and to 8 x the unique count. */
interface Contribution {
  readonly total: bigint;
  readonly unique8: bigint;
}

/**
 * Counts one unit in pieces: yields the share of it done between pieces (0
 * to 1), returns its count. Declared as a method so that it is bivariant in
 * U: a method of any unit type is a Method, and each one gets back only the
 * units it made.
 */
export type UnitCounter<U> = { count(unit: U): Generator<number, bigint, undefined> }['count'];

/** Where a unit's saved count came from (a file's name) and the count. */
export type CountSource = (id: number) => { readonly name: string; readonly count: bigint };

/** A method's plan as the runner needs it: its units in order and their estimated work. */
interface MethodPlan<U> {
  readonly n: number;
  readonly units: number;
  /** The units from..to-1, in plan order, built as they are iterated. */
  unitsIn(from: number, to: number): Iterable<U>;
  /** The estimated share of the whole work in the largest unit (planUnits reports it). */
  readonly largestUnitShare: number;
  /** Estimated work of unit `id` and of the units from..to-1 (for progress and shards). */
  workOf(id: number): number;
  workIn(from: number, to: number): number;
}

/** The arithmetic of a method's counts: what each unit adds, and the whole's unique count. */
interface MethodTally {
  /** What unit `id`'s count adds. */
  contribution(id: number, count: bigint): Contribution;
  /** The unique count of the whole from its total and 8 x unique (exact once every unit is in). */
  uniqueOf(total: bigint, unique8: bigint): bigint;
  /** Whether the unique count is known only once every unit is in (the join's follows from the whole total). */
  readonly uniqueWithLastUnit: boolean;
}

/**
 * A method's units as numbers, `stride` a unit, so that a batch travels to a
 * worker as one Float64Array (off the heap) and the worker holds one unit
 * object at a time instead of a batch of thousands: deep plans (millions of
 * units) otherwise kept every thread's heap large with units in flight.
 */
export interface UnitCodec<U> {
  readonly stride: number;
  // Methods, not function properties, so that a codec of any unit type is a UnitCodec<never> (as UnitCounter is).
  write(unit: U, into: Float64Array, at: number): void;
  /** The unit at `at`; a RangeError if the numbers there are no unit's. */
  read(from: Float64Array, at: number): U;
}

/** How a method's units are counted: its kernel, on this thread or on workers. */
interface MethodExecution<U> {
  /** Its units' compact form for workers (its UnitCounting's), or undefined to send them as objects. */
  // Members a method may not need are present all the same (undefined), here and below: one left out would be read
  // from Object.prototype, where other code may have set that name.
  readonly codec: UnitCodec<U> | undefined;
  /** The name workers know it by (its UnitCounting's). */
  readonly name: MethodName;
  /** The compiled wasm module for an engine choice, or null for TypeScript; throws if 'wasm' is unavailable. */
  module(engine: CpuEngine): WebAssembly.Module | null;
  /** A counter on this thread, from `module` (null: TypeScript). Workers build theirs from the method's UnitCounting (src/run/counters.ts). */
  counter(module: WebAssembly.Module | null): UnitCounter<U>;
  /**
   * Whether the calling thread counts units while workers start: not where
   * one unit costs more than a worker's start-up, or cannot be split (abort
   * would wait for it).
   */
  readonly helps: boolean;
  /** Bytes of tables each thread that counts it holds (the join's; 0 for methods without tables). */
  readonly bytesPerThread: number;
  /** A unit each worker counts once before it says ready (the join: builds its tables), or undefined. */
  warm(): U | undefined;
  /**
   * For `workers` workers counting with `module`: another build of it and
   * one memory for all of them (the join's shared tables), or undefined to
   * give each worker `module` and a memory of its own.
   */
  readonly share: ((module: WebAssembly.Module | null, workers: number) => Promise<WorkerShare | undefined>) | undefined;
}

/** A counting method, as the runner takes it: its plan, its tally and its execution. */
export interface Method<U extends { readonly id: number } = { readonly id: number }>
  extends MethodPlan<U>, MethodTally, MethodExecution<U> {}

/**
 * What a method whose units go into files has besides (shards, checkpoints,
 * subtotals and merge take these; completions have none of it).
 */
export interface MethodFiles {
  /** Its plan's identity, which shards and checkpoints record. */
  readonly identity: PlanIdentity;
  /** Shard `index` of `count`: a contiguous run of units, balanced by estimated work (the search) or by number (the join). */
  shardRange(index: number, count: number): { from: number; to: number };
  /**
   * Why saved counts of every unit cannot be a count's parts (files are
   * refused with it), naming the file through `source`; undefined if they can.
   */
  checkParts(total: bigint, unique8: bigint, source: CountSource): string | undefined;
  /**
   * The most unit `id` can count, from what it can hold (its open rows): a
   * saved count above it is refused as no count's.
   */
  maxCount(id: number): bigint;
  /** The text of a subtotals file for the whole count. */
  subtotals(countOf: (id: number) => bigint): string;
  /** A whole count's unit counts as checkParts and subtotals read them, kept as they finish (CountParts). */
  countParts(): CountParts;
}

/**
 * A whole count's unit counts, kept as its checks and subtotals read them:
 * the search sums them per constellation, so a count holds memory by its
 * constellations, not by its units (millions in a deep plan); the join,
 * whose units are few, keeps one a unit.
 */
export interface CountParts {
  add(id: number, count: bigint): void;
  /** checkParts of the counts added (every unit's), which came from `name`. */
  check(total: bigint, unique8: bigint, name: string): string | undefined;
  subtotals(): string;
}

/** One memory for all of a count's workers (Method.share), and this worker's slot in it. */
export interface SharedSlot {
  readonly memory: WebAssembly.Memory;
  readonly slot: number;
}

/**
 * How a thread counts a method's units: a worker receives the method's name,
 * the compiled module and units, never the plan, and builds its counter
 * here. Each method folder exports its own; src/run/counters.ts lists them.
 */
export interface UnitCounting<U> {
  readonly name: MethodName;
  /** How its units travel packed (MethodExecution.codec), if they do. */
  readonly codec?: UnitCodec<U> | undefined;
  counter(n: number, module: WebAssembly.Module | null, share?: SharedSlot): UnitCounter<U>;
}

/** What Method.share gives the workers of one count. */
export interface WorkerShare {
  readonly module: WebAssembly.Module;
  readonly memory: WebAssembly.Memory;
  /** The count ended cleanly, every worker idle (none holds the lock or a pin in the memory): it may serve the next count (src/run/pool.ts). */
  release(): void;
}

/** What a plan class already has of a Method: its identity among it. */
interface PlanLike<U> extends PlanIdentity {
  readonly largestUnitShare: number;
  unitsIn(from: number, to: number): Iterable<U>;
  workOf(id: number): number;
  workIn(from: number, to: number): number;
  shardRange(index: number, count: number): { from: number; to: number };
}

/** A plan's own members as a Method's, bound to it. */
export function planMembers<U>(plan: PlanLike<U>) {
  return {
    n: plan.n,
    identity: identityOf(plan),
    units: plan.units,
    largestUnitShare: plan.largestUnitShare,
    unitsIn: (from: number, to: number) => plan.unitsIn(from, to),
    workOf: (id: number) => plan.workOf(id),
    workIn: (from: number, to: number) => plan.workIn(from, to),
    shardRange: (index: number, count: number) => plan.shardRange(index, count),
  };
}

/** A plan's identity alone, as files record it: its digest read from the plan when first asked for (the join makes its own then). */
function identityOf(plan: PlanIdentity): PlanIdentity {
  const { method, n, depth, formatVersion, units } = plan;
  return Object.freeze({
    method,
    n,
    depth,
    formatVersion,
    units,
    get digest(): string {
      return plan.digest;
    },
  });
}

/** A method whose units go into files: shards, checkpoints, subtotals and merge take these. */
export type PlannedMethod<U extends { readonly id: number } = { readonly id: number }> = Method<U> & MethodFiles;

/**
 * A unit counted in one piece, in the shape of a UnitCounter: it yields once
 * (its share done, 1) before returning, so the runner and the workers can
 * report and let the event loop run between such units too.
 */
export function* onePiece(count: bigint): Generator<number, bigint, undefined> {
  yield 1;
  return count;
}

/** A unit in hand and the share of it done, between two of its pieces. */
interface UnitStep<U> {
  readonly unit: U;
  readonly share: number;
}

/**
 * The one loop that drives units' counters on a thread (the runner's, a
 * worker's, a whole count's): counts the units `next` gives until it gives
 * none, calls `record` as each ends, and yields between pieces so that the
 * caller may report or pause. The counter is made at the first unit.
 */
export function* countUnits<U>(
  counterOf: () => UnitCounter<U>,
  next: () => U | undefined,
  record: (unit: U, count: bigint) => void,
): Generator<UnitStep<U>, void, undefined> {
  let counter: UnitCounter<U> | undefined;
  for (let unit = next(); unit !== undefined; unit = next()) {
    counter ??= counterOf();
    const steps = counter(unit);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        record(unit, step.value);
        break;
      }
      yield { unit, share: step.value };
    }
  }
}

/** The next of `units` each call, undefined once they are done. */
export function taker<U>(units: Iterable<U>): () => U | undefined {
  const it = units[Symbol.iterator]();
  return () => {
    const r = it.next();
    return r.done ? undefined : r.value;
  };
}

/**
 * Runs a unit counter to its end on this thread, calling `between` (if
 * any) between its pieces (countSync calls it per unit: nothing allocated here).
 */
export function countWhole<U>(counter: UnitCounter<U>, unit: U, between?: () => void): bigint {
  const steps = counter(unit);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    between?.();
  }
}

/**
 * Counts every unit of a method on this thread, blocking (countSync): the
 * total, and the unique count from its parts.
 */
export function countOnThread<U extends { readonly id: number }>(
  method: Method<U>,
  module: WebAssembly.Module | null,
): { total: bigint; unique: bigint } {
  let total = 0n;
  let unique8 = 0n;
  const add = (unit: U, count: bigint): void => {
    const c = method.contribution(unit.id, count);
    total += c.total;
    unique8 += c.unique8;
  };
  // Nothing happens between pieces here: each unit runs whole (one generator less per unit than countUnits).
  const counter = method.counter(module);
  for (const unit of method.unitsIn(0, method.units)) add(unit, countWhole(counter, unit));
  return { total, unique: method.uniqueOf(total, unique8) };
}

/** The first line of a subtotals file: the version and the plan it belongs to, labelled with its method's `name`, as files label plans. */
export function subtotalsHeader(name: MethodName, plan: PlanIdentity, version: string): string {
  return `# nqueens-subtotals: nqueens-wasm ${version}, n = ${plan.n}, plan ${name} depth ${plan.depth} digest ${plan.digest}`;
}

/** n! as a bigint (0! = 1). */
export function factorial(n: number): bigint {
  let f = 1n;
  for (let k = 2n; k <= BigInt(n); k++) f *= k;
  return f;
}

/**
 * Why a saved count of unit `id` cannot be one (it is above what the unit
 * can hold); undefined if it can be. Checkpoints and shards both ask here.
 */
export function implausibleCount(method: PlannedMethod, id: number, count: bigint): string | undefined {
  const most = method.maxCount(id);
  return count > most ? `unit ${id} records ${count} solutions, more than it can hold (at most ${most})` : undefined;
}

/** Counts single units of a method on this thread, by id (merge --verify). */
export function recounter<U extends { readonly id: number }>(
  method: Method<U>,
  engine: CpuEngine,
  between: () => void = () => undefined,
): (id: number) => bigint {
  const counter = method.counter(method.module(engine));
  return (id) => {
    const [unit] = method.unitsIn(checkUnitId(id, method.units), id + 1);
    // `between` runs between the unit's pieces (each at most tens of milliseconds).
    return countWhole(counter, unit, between);
  };
}
