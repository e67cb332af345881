// The WebGPU engine's long checks without a GPU (npm run test:long): the
// default plan's dispatch loop on the stand-in device (dispatches run with
// the shader's loop on the CPU) at n = 15..17, the loop-step figures the plan
// is sized by, and the 847 million units (137 million branches) of n = 21.
import { describe, expect, it } from 'vitest';
import { planSubproblems } from '../../dist/search/constellations.js';
import { DEFAULT_LIMITS, UNIT_STEPS, planGpuWork } from '../../dist/search/webgpu/webgpu-plan.js';
import { countOnDevice } from '../../dist/search/webgpu/webgpu-run.js';
import type { GpuDeviceLike } from '../../dist/search/webgpu/webgpu-types.js';
import { prepareSubproblems, UnitBatch, UnitStream } from '../../dist/search/webgpu/webgpu-units.js';
import { searchUnitLikeShader } from '../fixtures/webgpu/cpu-twin.mjs';
import { createFakeDevice } from '../fixtures/webgpu/fake-device.mjs';
import { TOTAL, UNIQUE } from '../oeis.js';
import { unitsOfPlan } from '../webgpu-plan-units.js';

describe('the WebGPU engine, long checks on the CPU', () => {
  it.each([15, 16, 17])('n = %i with the default plan on the stand-in device: exact', async (n) => {
    const device = createFakeDevice();
    const r = await countOnDevice(n, device as unknown as GpuDeviceLike, DEFAULT_LIMITS);
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(device.log.errors).toEqual([]);
  });

  it.each([
    [11, 6_236],
    [12, 44_861],
  ])(
    "units of %i rows at n = 17 (mean %i): the largest and the mean loop steps are those of the plan test's watchdog model",
    (rowsLeft) => {
      const n = 17;
      const prepared = prepareSubproblems(n, planSubproblems(n));
      const stream = new UnitStream(prepared, rowsLeft);
      const batch = new UnitBatch(1 << 16);
      let units = 0;
      let steps = 0;
      let most = 0;
      for (let count = stream.fill(batch); count > 0; count = stream.fill(batch)) {
        for (let j = 0; j < count; j++) {
          const s = searchUnitLikeShader(batch, prepared.rowTable, j, rowsLeft - 2, 0).steps; // lookahead 0: a bound for every lookahead
          steps += s;
          most = Math.max(most, s);
        }
        units += count;
      }
      expect({ mean: Math.round(steps / units), max: most }).toEqual(UNIT_STEPS[rowsLeft]);
    },
  );

  it('n = 21: 847,466,213 units of at most 12 rows in 137,474,721 branches, dispatches full but the last', () => {
    const plan = planGpuWork(21);
    const { sizes, branches, mostRows, done } = unitsOfPlan(21);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(847_466_213);
    expect(branches).toBe(137_474_721);
    expect(sizes.slice(0, -1).every((size) => size <= plan.unitsPerDispatch && size > plan.unitsPerDispatch - 32)).toBe(true);
    expect(mostRows).toBe(12);
    expect(done).toBe(true);
  });
});
