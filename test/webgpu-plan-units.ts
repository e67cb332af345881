// The units the WebGPU engine makes for n under its plan, batch by batch as
// it dispatches them: the batch sizes, their branches, and the most rows any
// unit has left. Shared by test/webgpu-plan.test.ts and test/long/webgpu-long.test.ts.
import { planSubproblems } from '../dist/search/constellations.js';
import { planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { BRANCH_WORDS, prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';

export function unitsOfPlan(n: number): { sizes: number[]; branches: number; mostRows: number; done: boolean } {
  const plan = planGpuWork(n);
  const stream = new UnitStream(prepareSubproblems(n, planSubproblems(n)), plan.rowsLeft);
  const batch = new UnitBatch(plan.unitsPerDispatch);
  const sizes: number[] = [];
  let branches = 0;
  let mostRows = 0;
  for (let count = stream.fill(batch); count > 0; count = stream.fill(batch)) {
    sizes.push(count);
    branches += batch.branchCount;
    for (let b = 0; b < batch.branchCount; b++) {
      const packed = batch.branches[b * BRANCH_WORDS + 3];
      // A branch's units search the rows below its own (a branch on the last row: that row alone).
      mostRows = Math.max(mostRows, Math.max(1, (packed & 31) - ((packed >>> 5) & 31)));
    }
  }
  return { sizes, branches, mostRows, done: stream.done };
}
