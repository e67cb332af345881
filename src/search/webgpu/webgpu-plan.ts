// How the WebGPU engine cuts and sizes its work: a pure function of n and the
// adapter's limits, so it is tested without a GPU (test/webgpu-plan.test.ts).
//
// Two rules, from the n = 18 cliff on an H100 (issue 43): a unit is cut by
// the work it holds (its rows left), never by how many units there are, so a
// bigger board is refined deeper and its longest unit stays short; and a
// dispatch never holds fewer units than a GPU runs at once while work
// remains, with several dispatches queued so the GPU never waits on the host.
import { rangeError } from '../../shared/errors.js';
import { WORKGROUP_SIZE } from './webgpu-shader.js';
import { MAX_UNITS_PER_BRANCH } from './webgpu-units.js';

/** The adapter limits the plan respects (GPUSupportedLimits). */
export interface GpuPlanLimits {
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxStorageBufferBindingSize: number;
}

/** The WebGPU defaults every adapter gives at least. */
export const DEFAULT_LIMITS: GpuPlanLimits = { maxComputeWorkgroupsPerDimension: 65_535, maxStorageBufferBindingSize: 128 << 20 };

/**
 * Loop steps of one unit with this many rows left, measured with the
 * shader's loop on the CPU (test/fixtures/webgpu/cpu-twin.mjs) with no
 * lookahead, a bound for every lookahead (the engine's 1 takes 0.86x): mean
 * and largest. 11 and 12 rows: every unit at n = 17; 13: every unit at n = 18
 * (test/long/webgpu-long.test.ts checks those at n = 17). The watchdog model
 * of test/webgpu-plan.test.ts bounds a first dispatch and the longest unit
 * by them; dispatches are sized by their measured pace (nextDispatchUnits),
 * as the mean is far lower at larger n (12 rows: about 10,200 steps at
 * n = 19, 7,000 at 20, 4,500 at 21).
 */
export const UNIT_STEPS: Readonly<Record<number, { readonly mean: number; readonly max: number }>> = {
  11: { mean: 6_236, max: 30_831 },
  12: { mean: 44_861, max: 164_132 },
  13: { mean: 226_900, max: 876_192 },
};

/** Fewest and most rows a unit keeps (UNIT_STEPS has both ends and all between). */
const MIN_ROWS_LEFT = 11;
const MAX_ROWS_LEFT = 13;

/**
 * Invocations a GPU runs at once, at most, among today's largest: an H100
 * holds 132 SMs x 2,048 = 270,336. A dispatch is never smaller while work
 * remains, and the first ones hold this many (the GPU starts sooner than it
 * would after a bigger first batch, and no dispatch is larger before one
 * has been timed).
 */
export const GPU_FILL = 1 << 18;
/**
 * Invocations a dispatch starts, each taking units until none are left: half
 * of GPU_FILL, since an invocation's stack in workgroup memory (11 KiB per 64)
 * keeps an H100 SM to about 1,280 at once; every dispatch then holds at least
 * two units per invocation, so a lane whose unit ends early takes another.
 */
export const INVOCATIONS = GPU_FILL / 2;
/** Most units a dispatch grows to: 32 times GPU_FILL (its branches then take 32 MiB). */
const MAX_UNITS_PER_DISPATCH = 1 << 23;
/**
 * Units of rowsLeft rows per invocation that end each dispatch walked a row
 * finer (tailUnits): each is then about 6 units of a sixth of the work. Off:
 * the model of bench/gpu-tail.mjs (n = 20, the units' loop steps with the
 * CPU twin) had a tail of 2 per invocation raise the share of the GPU's
 * steps put to use from 0.97-0.98 to 0.99 at 64 units per invocation, but
 * on an H100 (2026-11-28, bench/gpu-layouts.mjs --ramp, 3 interleaved
 * rounds of n = 20) tails of 2 took 2,534-3,052 ms and tails of 4
 * 3,580-3,883, against 2,500-2,674 without. Plans may still ask for them.
 */
export const TAIL_PER_INVOCATION = 0;
/** Units a tail unit may become, that a dispatch keeps room for (a branch's units a row lower: 6.6 on average at n = 20). */
const TAIL_ROOM = 8;
/**
 * Most units (of rowsLeft rows and finer) a dispatch keeps room for, and a
 * plan may ask for: 33,554,432 (its branches then take 128 MiB, the
 * default storage binding; bench/gpu-layouts.mjs --plans times such plans).
 */
const MAX_UNIT_ROOM = 1 << 25;
/** Units per branch a big batch keeps room for: a branch averages 6 to 9 units at n = 16..21. */
const UNITS_PER_BRANCH_ROOM = 4;
/** Bytes a branch takes on the GPU: its four words (webgpu-units.ts). */
const BRANCH_BYTES = 16;

/**
 * Branches a dispatch of up to `units` units keeps room for: one per unit up
 * to GPU_FILL units (5 MiB with their first units), a quarter as many beyond
 * (40 MiB at the most units). A dispatch stops early where its branches run
 * out, so a plan with fewer units per branch is only cut finer.
 */
export function branchRoom(units: number): number {
  return Math.max(Math.min(units, GPU_FILL), Math.floor(units / UNITS_PER_BRANCH_ROOM));
}

/** Most units a dispatch may hold whose branches fit in one storage binding of `bytes`. */
function mostUnitsBound(bytes: number): number {
  const branches = Math.floor(bytes / BRANCH_BYTES);
  return branches >= GPU_FILL ? branches * UNITS_PER_BRANCH_ROOM : branches;
}

/**
 * GPU time a dispatch aims at, once one has been timed. A dispatch ends
 * with its slowest lanes while the rest idle, and the next one starts only
 * then: at n = 18..21 a dispatch of GPU_FILL to 382,912 units (2 to 3 per
 * invocation, an estimated 10 to 40 ms on an H100) leaves about half the
 * GPU idle in a model of its lanes, 8 units per invocation about a quarter,
 * 32 about a tenth (bench/gpu-schedule.mjs). On an H100 with the one-word
 * stack, dispatches aimed at 100 ms reached the 4,194,304 units they could
 * hold at n = 20 (32 units an invocation); 200 ms, with twice the units, is
 * still far under the ~2 s watchdogs, and abort never waits for a dispatch.
 */
export const DISPATCH_MS = 200;
/** Most GPU time a plan may aim a dispatch at: half a second, a quarter of the watchdogs. */
const MAX_DISPATCH_MS = 500;
/**
 * How many times the units of the last dispatch timed the next one may
 * hold. Dispatch k + 3 is sized when dispatch k is read back (three are in
 * flight), so at 2x the sizes went 262,144 x 3, 524,288 x 3, ... and at
 * n = 20 the first 15 dispatches, 24.4 million of its 75.2 million units,
 * held 2 to 32 units an invocation, where a dispatch keeps less of the GPU
 * busy (bench/gpu-tail.mjs); at 4x, 16.5 million in 9. A dispatch paced
 * from a smaller one takes at most plan.dispatchMs, since a bigger one
 * keeps more of the GPU busy (a unit costs it less); the cap bounds a
 * misjudged pace. Not yet timed on a GPU (2x was, on the H100).
 */
export const GROWTH = 4;
/** Most a plan may let dispatches grow at a step. */
const MAX_GROWTH = 16;
/** Most units per invocation a plan may walk finer at the end of a dispatch. */
const MAX_TAIL_PER_INVOCATION = 64;
/** Dispatches queued at once: one running, the next ones ready behind it. */
export const IN_FLIGHT = 3;
/** Most dispatches a plan given to the dispatch loop may queue (each holds its own buffers). */
const MAX_IN_FLIGHT = 16;

/**
 * The limits a device gets from requestDevice() without requiredLimits: the
 * defaults, or the adapter's where they are lower (the adapter's larger
 * limits are not the device's).
 */
export function deviceLimits(adapter: GpuPlanLimits): GpuPlanLimits {
  return {
    maxComputeWorkgroupsPerDimension: Math.min(adapter.maxComputeWorkgroupsPerDimension, DEFAULT_LIMITS.maxComputeWorkgroupsPerDimension),
    maxStorageBufferBindingSize: Math.min(adapter.maxStorageBufferBindingSize, DEFAULT_LIMITS.maxStorageBufferBindingSize),
  };
}

export interface GpuWorkPlan {
  /** Most rows a unit has left to search: units are refined until they have no more. */
  readonly rowsLeft: number;
  /**
   * Units of the first dispatches, before one has been timed, and the fewest
   * a dispatch holds while work remains (only the last may hold fewer).
   */
  readonly unitsPerDispatch: number;
  /** Most units a dispatch grows to (nextDispatchUnits): what its buffers grow to hold. */
  readonly maxUnitsPerDispatch: number;
  /** GPU time, in ms, a dispatch aims at once one has been timed (nextDispatchUnits). */
  readonly dispatchMs: number;
  /**
   * Invocations per dispatch (a multiple of the workgroup size, at most
   * unitsPerDispatch): each takes units from the dispatch until none are left.
   */
  readonly invocations: number;
  /** Dispatches submitted before the host waits for the oldest. */
  readonly inFlight: number;
  /** Units per invocation that end each dispatch walked a row finer (tailUnits; 0: none). */
  readonly tailPerInvocation: number;
  /** Most times the units of the last dispatch timed that the next may hold (nextDispatchUnits). */
  readonly growth: number;
}

function checkLimit(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1) throw rangeError(`limits.${name} must be a positive integer, got ${String(value)}`);
}

/**
 * Rows a unit keeps at n (the benchmark's dispatch log tries others:
 * bench/gpu-dispatches.mjs). 11 up to n = 18: on the H100 n = 18 took 0.92 s
 * with 11 and 1.01 s with 12 (the private-stack shader, 2026-11-27), as a
 * dispatch lasts at least as long as its longest unit (30,831 steps at 11
 * rows, 164,132 at 12); its 3.8 million units take the host about 0.1 s,
 * overlapped. 12 from n = 19, where 11 would make 39 million. 13 would cut
 * n = 21's 847 million units (13 s of the host, overlapped) to 137 million,
 * but its longest unit would run about 1 s at the H100's measured 1.2 us a
 * step per invocation, too close to the ~2 s watchdogs.
 */
function defaultRowsLeft(n: number): number {
  return n <= 18 ? MIN_ROWS_LEFT : 12;
}

/**
 * The plan for n. Rows left grow with n, 11 then 12 (defaultRowsLeft; 13 where
 * asked), so the longest unit stays short (164,132 loop steps at 12 rows, at
 * n = 17) while the host makes and sums 3.8 to 847 million units at
 * n = 18..21. Dispatches start at GPU_FILL units and grow by their measured
 * pace towards DISPATCH_MS (nextDispatchUnits), within the limits.
 */
export function planGpuWork(n: number, limits: GpuPlanLimits = DEFAULT_LIMITS, rowsLeft = defaultRowsLeft(n)): GpuWorkPlan {
  checkLimit(limits.maxComputeWorkgroupsPerDimension, 'maxComputeWorkgroupsPerDimension');
  checkLimit(limits.maxStorageBufferBindingSize, 'maxStorageBufferBindingSize');
  if (!Number.isInteger(rowsLeft) || rowsLeft < MIN_ROWS_LEFT || rowsLeft > MAX_ROWS_LEFT) {
    throw rangeError(`rowsLeft must be an integer from ${MIN_ROWS_LEFT} to ${MAX_ROWS_LEFT}, got ${String(rowsLeft)}`);
  }
  const bound = mostUnitsBound(limits.maxStorageBufferBindingSize); // a dispatch's branches are one storage binding
  const wholeGroups = (units: number): number => Math.max(WORKGROUP_SIZE, Math.floor(units / WORKGROUP_SIZE) * WORKGROUP_SIZE);
  const maxUnitsPerDispatch = wholeGroups(Math.min(MAX_UNITS_PER_DISPATCH, bound));
  const unitsPerDispatch = Math.min(GPU_FILL, maxUnitsPerDispatch);
  const invocations = Math.min(INVOCATIONS, unitsPerDispatch, limits.maxComputeWorkgroupsPerDimension * WORKGROUP_SIZE);
  return {
    rowsLeft,
    unitsPerDispatch,
    maxUnitsPerDispatch,
    dispatchMs: DISPATCH_MS,
    invocations,
    inFlight: IN_FLIGHT,
    tailPerInvocation: TAIL_PER_INVOCATION,
    growth: GROWTH,
  };
}

/**
 * Of a dispatch of `units` units of plan.rowsLeft rows, how many end it
 * walked a row finer (UnitStream.fill's `tail`): plan.tailPerInvocation per
 * invocation, at most half the dispatch.
 */
export function tailUnits(plan: GpuWorkPlan, units: number): number {
  return Math.min(Math.floor(units / 2), plan.tailPerInvocation * plan.invocations);
}

/**
 * Units a dispatch of `units` keeps room for, its tail's finer units
 * included: at least `units`, and within the storage binding of its
 * branches. Where a tail outgrows it, the dispatch ends sooner.
 */
export function unitRoom(plan: GpuWorkPlan, units: number, limits: GpuPlanLimits): number {
  const most = Math.min(MAX_UNIT_ROOM, mostUnitsBound(limits.maxStorageBufferBindingSize));
  return Math.max(units, Math.min(most, units + TAIL_ROOM * tailUnits(plan, units)));
}

/**
 * Units for the next dispatch, given the last one timed (its units, and its
 * ms on the GPU): as many as would take plan.dispatchMs at that pace, but at
 * most plan.growth times as many as it held (so no dispatch outgrows a
 * timed one by more than that, whatever the GPU), and from
 * plan.unitsPerDispatch (slowGpuUnits after a dispatch that took more than
 * SLOW_DISPATCH_MS) to plan.maxUnitsPerDispatch. Before any is timed,
 * plan.unitsPerDispatch.
 */
export function nextDispatchUnits(plan: GpuWorkPlan, timed?: { readonly units: number; readonly ms: number }): number {
  if (!timed) return plan.unitsPerDispatch;
  const paced = timed.ms > 0 ? (timed.units * plan.dispatchMs) / timed.ms : Infinity;
  const units = Math.floor(Math.min(plan.maxUnitsPerDispatch, plan.growth * timed.units, paced));
  return Math.max(timed.ms > SLOW_DISPATCH_MS ? slowGpuUnits(plan) : plan.unitsPerDispatch, units);
}

/**
 * A dispatch timed at more than this took a GPU far slower than an H100
 * (where one of plan.unitsPerDispatch units is estimated under 0.3 s at
 * n = 16..21: test/webgpu-plan.test.ts): the next may hold fewer units than
 * plan.unitsPerDispatch, down to slowGpuUnits, so its dispatches stay under
 * the ~2 s watchdogs. Never on an H100, which the floor keeps full.
 */
export const SLOW_DISPATCH_MS = MAX_DISPATCH_MS;
/** Fewest units a dispatch shrinks to after a slow one: an eighth of plan.unitsPerDispatch (32,768), at least 64. */
export function slowGpuUnits(plan: GpuWorkPlan): number {
  return Math.min(plan.unitsPerDispatch, Math.max(2 * MAX_UNITS_PER_BRANCH, Math.floor(plan.unitsPerDispatch / 8)));
}

/**
 * Refuses a plan the dispatch loop cannot run exactly (the loop's `plan`
 * option, for tests and benchmarks, skips planGpuWork): a dispatch of no
 * invocations would search nothing and leave its sums as they were, one of
 * fewer than 32 units might not hold a whole branch, one of more than
 * 33,554,432 units or than its branches' storage binding holds would not
 * fit its buffers, one aimed past half a second nears the watchdogs, and a stack deeper than
 * 13 rows left outgrows the 16 KiB of workgroup memory a device has by
 * default (11 rows of 64 x 16 bytes at 13).
 */
export function checkGpuWorkPlan(plan: GpuWorkPlan, limits: GpuPlanLimits): void {
  const bounds: Record<keyof GpuWorkPlan, readonly [number, number]> = {
    rowsLeft: [1, MAX_ROWS_LEFT],
    unitsPerDispatch: [MAX_UNITS_PER_BRANCH, MAX_UNITS_PER_DISPATCH],
    maxUnitsPerDispatch: [plan.unitsPerDispatch, Math.min(MAX_UNIT_ROOM, mostUnitsBound(limits.maxStorageBufferBindingSize))],
    dispatchMs: [1, MAX_DISPATCH_MS],
    invocations: [1, limits.maxComputeWorkgroupsPerDimension * WORKGROUP_SIZE],
    inFlight: [1, MAX_IN_FLIGHT],
    tailPerInvocation: [0, MAX_TAIL_PER_INVOCATION],
    growth: [1, MAX_GROWTH],
  };
  for (const [field, [least, most]] of Object.entries(bounds)) {
    const value = plan[field as keyof GpuWorkPlan];
    if (!Number.isInteger(value) || value < least || value > most) {
      throw rangeError(`plan.${field} must be an integer from ${least} to ${most}, got ${String(value)}`);
    }
  }
}
