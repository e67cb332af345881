// The WebGPU engine's dispatches on a real GPU, for a visit to a GPU machine
// (bench/gpu-device.sh): for each n, the count's time and exactness, and its
// dispatches (units, ms from submission to read-back) as one JSON line.
//   node bench/gpu-dispatches.mjs FROM TO      (after npm run build; Node with `webgpu`)
import { countWebGpu } from '../dist/search/webgpu/webgpu.js';
import { TOTAL } from './oeis-totals.mjs';

const [from, to] = process.argv.slice(2, 4).map(Number);
for (let n = from; n <= to; n++) {
  const dispatches = [];
  const start = performance.now();
  const { total } = await countWebGpu(n, { onDispatch: (d) => dispatches.push([d.units, Math.round(d.ms * 10) / 10]) });
  const ms = Math.round(performance.now() - start);
  const slowest = Math.max(...dispatches.map(([, t]) => t));
  console.log(JSON.stringify({ n, ms, exact: total === TOTAL[n], count: dispatches.length, slowest, dispatches }));
}
