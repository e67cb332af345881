// The units the WebGPU engine makes for n under its plan, batch by batch as
// it dispatches them: the batch sizes and the most rows any unit has left.
// Shared by test/webgpu-plan.test.ts and test/long/webgpu-long.test.ts.
import { planSubproblems } from '../dist/search/constellations.js';
import { planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { prepareSubproblems, UnitStream, UNIT_WORDS } from '../dist/search/webgpu/webgpu-units.js';

export function unitsOfPlan(n: number): { sizes: number[]; mostRows: number; done: boolean } {
  const plan = planGpuWork(n);
  const stream = new UnitStream(prepareSubproblems(n, planSubproblems(n)), plan.rowsLeft);
  const words = new Uint32Array(plan.unitsPerDispatch * UNIT_WORDS);
  const sizes: number[] = [];
  let mostRows = 0;
  for (let count = stream.fill(words); count > 0; count = stream.fill(words)) {
    sizes.push(count);
    for (let j = 0; j < count; j++) {
      const packed = words[j * UNIT_WORDS + 3];
      mostRows = Math.max(mostRows, (packed & 31) - ((packed >>> 5) & 31) + 1);
    }
  }
  return { sizes, mostRows, done: stream.done };
}
