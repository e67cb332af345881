// The WebGPU engine's plan (src/search/webgpu/webgpu-plan.ts), without a GPU:
// for n = 16..21, how deep units are cut and how many go in a dispatch, and
// what that means for the longest unit and the longest dispatch on a big GPU
// (a model with stated numbers: deterministic, no timing). For n = 16..18 the
// units themselves are made and checked against the plan.
import { describe, expect, it } from 'vitest';
import { planSubproblems } from '../dist/search/constellations.js';
import {
  branchRoom,
  DEFAULT_LIMITS,
  DISPATCH_MS,
  GPU_FILL,
  GROWTH,
  INVOCATIONS,
  deviceLimits,
  nextDispatchUnits,
  SLOW_DISPATCH_MS,
  slowGpuUnits,
  UNIT_STEPS,
  planGpuWork,
  TAIL_PER_INVOCATION,
  tailUnits,
  unitRoom,
  type GpuWorkPlan,
} from '../dist/search/webgpu/webgpu-plan.js';
import { deepestInnerRows, prepareSubproblems } from '../dist/search/webgpu/webgpu-units.js';
import { unitsOfPlan } from './webgpu-plan-units.js';
import { range } from './oeis.js';

/**
 * The model, measured: the dispatch's INVOCATIONS run at once, each at
 * STEP_NS per loop step (one H100, 2026-11-27: n = 19's 1.3 x 10^11 steps,
 * sampled with the CPU twin, in about 1.2 s of GPU time; docs/engines.md).
 */
const STEP_NS = 1200;
/** A quarter of the ~2 s watchdogs. */
const DISPATCH_BUDGET_MS = 500;

/** Estimated ms of one of the first dispatches (before any is timed): its units' mean steps shared by the invocations, plus the longest unit at the end. */
function dispatchMs(plan: GpuWorkPlan): number {
  const { mean, max } = UNIT_STEPS[plan.rowsLeft];
  return (((plan.unitsPerDispatch * mean) / plan.invocations + max) * STEP_NS) / 1e6;
}

describe('the WebGPU plan for n = 16..21', () => {
  const plans = range(16, 21).map((n) => [n, planGpuWork(n)] as const);

  it('is the same for the same n and limits', () => {
    for (const [n, plan] of plans) expect(planGpuWork(n, { ...DEFAULT_LIMITS })).toEqual(plan);
  });

  it('cuts bigger boards deeper: rows left grow with n, by at most one, and stay at 12 from n = 19', () => {
    expect(plans.map(([, p]) => p.rowsLeft)).toEqual([11, 11, 11, 12, 12, 12]);
    // Refined rows: the deepest subproblem's inner rows minus the rows a unit keeps.
    const refined = plans.map(([n, p]) => Math.max(...prepareSubproblems(n, planSubproblems(n)).innerRows) - p.rowsLeft);
    expect(refined).toEqual([2, 3, 4, 4, 5, 6]);
  });

  it.each(plans)('n = %i: the longest unit is estimated well under 2 s, and so is a whole first dispatch', (_n, plan) => {
    const longestMs = (UNIT_STEPS[plan.rowsLeft].max * STEP_NS) / 1e6;
    expect(longestMs).toBeLessThanOrEqual(300);
    expect(dispatchMs(plan)).toBeLessThanOrEqual(DISPATCH_BUDGET_MS);
  });

  it('never dispatches fewer units than a big GPU runs at once, whole workgroups, 3 queued, growing to 32 times that', () => {
    for (const [, plan] of plans) {
      expect(plan.unitsPerDispatch).toBe(GPU_FILL);
      expect(plan.maxUnitsPerDispatch).toBe(32 * GPU_FILL);
      expect(plan.dispatchMs).toBe(DISPATCH_MS);
      expect(plan.inFlight).toBe(3);
      // Each invocation takes two units or more, so a lane whose unit ends early takes another.
      expect(plan.invocations).toBe(INVOCATIONS);
      expect(plan.unitsPerDispatch / plan.invocations).toBeGreaterThanOrEqual(2);
    }
  });

  it('sizes the next dispatch by the pace of the last one timed: towards plan.dispatchMs, at most 4x, within the plan', () => {
    const plan = planGpuWork(20);
    expect(plan.growth).toBe(GROWTH);
    expect(GROWTH).toBe(4);
    expect(nextDispatchUnits(plan)).toBe(GPU_FILL); // none timed yet
    expect(nextDispatchUnits(plan, { units: GPU_FILL, ms: 10 })).toBe(4 * GPU_FILL); // 20x faster than aimed: 4x
    expect(nextDispatchUnits(plan, { units: GPU_FILL, ms: 80 })).toBe(655_360); // 2.5x faster: 2.5x
    expect(nextDispatchUnits({ ...plan, growth: 2 }, { units: GPU_FILL, ms: 10 })).toBe(2 * GPU_FILL);
    expect(nextDispatchUnits(plan, { units: 1_000_000, ms: 160 })).toBe(1_250_000); // at its pace, 200 ms
    expect(nextDispatchUnits(plan, { units: 8_000_000, ms: 50 })).toBe(plan.maxUnitsPerDispatch);
    expect(nextDispatchUnits(plan, { units: 400_000, ms: 450 })).toBe(GPU_FILL); // slower than aimed: back to the fewest
    expect(nextDispatchUnits(plan, { units: 100, ms: 0 })).toBe(GPU_FILL); // the last, small one, timed at 0 ms
    // Past SLOW_DISPATCH_MS (a GPU far slower than an H100): fewer, at its pace, down to an eighth of the fewest.
    expect(SLOW_DISPATCH_MS).toBe(500);
    expect(slowGpuUnits(plan)).toBe(GPU_FILL / 8);
    expect(nextDispatchUnits(plan, { units: GPU_FILL, ms: 500 })).toBe(GPU_FILL);
    expect(nextDispatchUnits(plan, { units: GPU_FILL, ms: 800 })).toBe(GPU_FILL / 4);
    expect(nextDispatchUnits(plan, { units: 1_000_000, ms: 2000 })).toBe(100_000);
    expect(nextDispatchUnits(plan, { units: GPU_FILL, ms: 10_000 })).toBe(GPU_FILL / 8);
    expect(slowGpuUnits({ ...plan, unitsPerDispatch: 64 })).toBe(64); // a whole branch (up to 32 units) twice over
    expect(slowGpuUnits({ ...plan, unitsPerDispatch: 1024 })).toBe(128);
    // Whatever the pace, a dispatch sized from a timed one takes at most plan.dispatchMs at that pace, or
    // (where its floor is more) as long as a dispatch of that floor.
    for (const units of [GPU_FILL, 777_777, 2_500_000, plan.maxUnitsPerDispatch]) {
      for (const ms of [0.5, 7, 33, 99, 100, 101, 450, 500, 501, 2000, 30_000]) {
        const next = nextDispatchUnits(plan, { units, ms });
        const least = ms > SLOW_DISPATCH_MS ? GPU_FILL / 8 : plan.unitsPerDispatch;
        expect(Number.isInteger(next)).toBe(true);
        expect(next).toBeGreaterThanOrEqual(least);
        expect(next).toBeLessThanOrEqual(Math.min(plan.maxUnitsPerDispatch, Math.max(least, plan.growth * units)));
        expect((next * ms) / units).toBeLessThanOrEqual(Math.max(plan.dispatchMs, (least * ms) / units) + 1e-9);
      }
    }
  });

  it('keeps the first dispatch under SLOW_DISPATCH_MS on the model GPU, so the floor never drops on it', () => {
    for (const n of range(16, 21)) expect(dispatchMs(planGpuWork(n))).toBeLessThan(SLOW_DISPATCH_MS);
  });

  it('walks no tail finer by default (slower on an H100), and where a plan asks for 2 per invocation, at most half a dispatch, with room', () => {
    expect(planGpuWork(20).tailPerInvocation).toBe(0);
    expect(tailUnits(planGpuWork(20), planGpuWork(20).maxUnitsPerDispatch)).toBe(0);
    const plan = { ...planGpuWork(20), tailPerInvocation: 2 };
    expect(tailUnits(plan, GPU_FILL)).toBe(GPU_FILL / 2); // the first dispatches: 2 units an invocation, half of them finer
    expect(tailUnits(plan, 4 * GPU_FILL)).toBe(2 * INVOCATIONS);
    expect(tailUnits(plan, plan.maxUnitsPerDispatch)).toBe(2 * INVOCATIONS); // 3% of the biggest
    expect(tailUnits({ ...plan, tailPerInvocation: 0 }, plan.maxUnitsPerDispatch)).toBe(0);
    expect(tailUnits(plan, 33)).toBe(16);
    // Room for 8 finer units each, within the storage binding of a dispatch's branches.
    expect(unitRoom(plan, GPU_FILL, DEFAULT_LIMITS)).toBe(GPU_FILL + 8 * (GPU_FILL / 2));
    expect(unitRoom(plan, plan.maxUnitsPerDispatch, DEFAULT_LIMITS)).toBe(plan.maxUnitsPerDispatch + 16 * INVOCATIONS);
    expect(unitRoom({ ...plan, tailPerInvocation: 0 }, GPU_FILL, DEFAULT_LIMITS)).toBe(GPU_FILL);
    for (const bytes of [1 << 20, 8 << 20, 128 << 20]) {
      const limits = { ...DEFAULT_LIMITS, maxStorageBufferBindingSize: bytes };
      const bounded = planGpuWork(20, limits);
      for (const units of [bounded.unitsPerDispatch, 777_777, bounded.maxUnitsPerDispatch].filter(
        (u) => u <= bounded.maxUnitsPerDispatch,
      )) {
        const room = unitRoom(bounded, units, limits);
        expect(room).toBeGreaterThanOrEqual(units);
        expect(branchRoom(room) * 16).toBeLessThanOrEqual(bytes);
      }
    }
  });

  it('keeps room for a branch per unit up to GPU_FILL units, and a quarter as many beyond', () => {
    expect(branchRoom(64)).toBe(64);
    expect(branchRoom(GPU_FILL)).toBe(GPU_FILL);
    expect(branchRoom(2 * GPU_FILL)).toBe(GPU_FILL);
    expect(branchRoom(16 * GPU_FILL)).toBe(4 * GPU_FILL); // 16 MiB of branches, 4 MiB of first units
  });

  it("stays within the adapter's limits: workgroups per dispatch, and the storage binding of a dispatch's branches", () => {
    const small = { maxComputeWorkgroupsPerDimension: 1024, maxStorageBufferBindingSize: 128 << 20 };
    expect(planGpuWork(21, small)).toMatchObject({
      invocations: 1024 * 64,
      unitsPerDispatch: GPU_FILL,
      maxUnitsPerDispatch: 32 * GPU_FILL,
    });
    // 1 MiB holds 65,536 branches: as many units, a branch's room each.
    const narrow = { maxComputeWorkgroupsPerDimension: 65_535, maxStorageBufferBindingSize: 1 << 20 };
    expect(planGpuWork(18, narrow)).toMatchObject({ unitsPerDispatch: 65_536, maxUnitsPerDispatch: 65_536, invocations: 65_536 });
    // 8 MiB holds 524,288 branches: four times as many units.
    const middle = { maxComputeWorkgroupsPerDimension: 65_535, maxStorageBufferBindingSize: 8 << 20 };
    expect(planGpuWork(18, middle)).toMatchObject({ unitsPerDispatch: GPU_FILL, maxUnitsPerDispatch: 1 << 21 });
    expect(branchRoom(1 << 21) * 16).toBe(8 << 20);
    expect(() => planGpuWork(18, { ...small, maxComputeWorkgroupsPerDimension: 0 })).toThrow(
      /limits\.maxComputeWorkgroupsPerDimension must be a positive integer, got 0/,
    );
    expect(() => planGpuWork(18, { ...small, maxStorageBufferBindingSize: Number.NaN })).toThrow(RangeError);
  });

  it('takes another cut of 11 to 13 rows left where asked (the dispatch log compares them)', () => {
    const sized = {
      unitsPerDispatch: GPU_FILL,
      maxUnitsPerDispatch: 32 * GPU_FILL,
      dispatchMs: DISPATCH_MS,
      invocations: INVOCATIONS,
      inFlight: 3,
      tailPerInvocation: TAIL_PER_INVOCATION,
      growth: GROWTH,
    };
    expect(planGpuWork(18, DEFAULT_LIMITS, 12)).toEqual({ rowsLeft: 12, ...sized });
    expect(planGpuWork(18, DEFAULT_LIMITS, 13)).toEqual({ rowsLeft: 13, ...sized });
    expect(planGpuWork(21, DEFAULT_LIMITS, 11)).toEqual({ rowsLeft: 11, ...sized });
    for (const bad of [10, 14, 12.5, Number.NaN]) {
      expect(() => planGpuWork(18, DEFAULT_LIMITS, bad)).toThrow(RangeError);
      expect(() => planGpuWork(18, DEFAULT_LIMITS, bad)).toThrow(`rowsLeft must be an integer from 11 to 13, got ${bad}`);
    }
  });

  it("plans with the device's limits: the defaults, or the adapter's where lower, never an adapter's larger ones", () => {
    const big = { maxComputeWorkgroupsPerDimension: 1 << 20, maxStorageBufferBindingSize: 2 ** 31 };
    expect(deviceLimits(big)).toEqual(DEFAULT_LIMITS);
    const low = { maxComputeWorkgroupsPerDimension: 4096, maxStorageBufferBindingSize: 1 << 24 };
    expect(deviceLimits(low)).toEqual(low);
  });

  // The units themselves, where making them is quick (n = 21's 847 million are in test:long), and the branches
  // the host sends for them (a unit per free square of its branch's row: about a seventh as many records).
  it.each([
    [16, 33_461, 3_964],
    [17, 357_689, 49_726],
    [18, 3_767_380, 584_169],
    [19, 6_654_788, 914_542],
    [20, 75_236_729, 11_331_538],
  ])('n = %i: %i units in %i branches, none with more rows left than planned; dispatches full but the last', (n, units, branchCount) => {
    const plan = planGpuWork(n);
    const { sizes, branches, mostRows, done } = unitsOfPlan(n);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(units);
    expect(branches).toBe(branchCount);
    // Whole branches only: a dispatch stops short of full only where the next branch (at most 32 units) would not fit.
    expect(sizes.slice(0, -1).every((size) => size <= plan.unitsPerDispatch && size > plan.unitsPerDispatch - 32)).toBe(true);
    expect(mostRows).toBe(plan.rowsLeft);
    expect(done).toBe(true);
  });
});

// The shader is compiled for the deepest subproblem before the subproblems are planned (webgpu-run.ts).
describe('the deepest subproblem, known before the plan', () => {
  it.each(range(1, 21))('n = %i: as deep as the deepest planSubproblems gives (at least a row)', (n) => {
    const deepest = planSubproblems(n).reduce((most, s) => Math.max(most, s.innerRows), 1);
    expect(deepestInnerRows(n)).toBe(deepest);
  });
});
