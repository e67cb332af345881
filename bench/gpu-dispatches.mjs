// The WebGPU engine's dispatches on a real GPU, for a visit to a GPU machine
// (bench/gpu-device.sh). For each n, and each rows-left cut it is given (the
// plan's own by default), one JSON line:
//   { n, rowsLeft, deviceMs, compileMs, hostMs, ms, exact, count, slowest, dispatches }
// deviceMs: adapter and device on a fresh instance; compileMs: the search's
// pipeline alone, on that device; hostMs: the CPU's share alone (the plan,
// and making every unit, finer tails where the plan has them, in the largest dispatches,
// with no GPU); ms: the whole
// count on another fresh device, from the call to the result, its
// dispatches as [units, ms from submission to read-back, ms on the GPU as the
// engine times it].
//   node bench/gpu-dispatches.mjs FROM TO [ROWS,ROWS...]   (after npm run build; Node with `webgpu`)
import { planSubproblems } from '../dist/search/constellations.js';
import { requestGpuDevice } from '../dist/search/webgpu/webgpu-device.js';
import { branchRoom, deviceLimits, planGpuWork, tailUnits, unitRoom } from '../dist/search/webgpu/webgpu-plan.js';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { unitSearchShader } from '../dist/search/webgpu/webgpu-shader.js';
import { prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';
import { TOTAL } from './oeis-totals.mjs';

const [from, to] = process.argv.slice(2, 4).map(Number);
const cuts = process.argv[4]?.split(',').map(Number);
const round = (ms) => Math.round(ms * 10) / 10;

/** The host's share of a count with `plan`: every unit's branch made, in dispatch-sized batches. */
function hostMs(n, plan, limits) {
  const start = performance.now();
  const stream = new UnitStream(prepareSubproblems(n, planSubproblems(n)), plan.rowsLeft);
  const most = plan.maxUnitsPerDispatch;
  const room = unitRoom(plan, most, limits);
  const batch = new UnitBatch(room, branchRoom(room));
  // As the engine: the first dispatch without a finer tail, the rest with one.
  for (let tail = 0; stream.fill(batch, most, tail) > 0; tail = tailUnits(plan, most));
  return round(performance.now() - start);
}

for (let n = from; n <= to; n++) {
  for (const rowsLeft of cuts ?? [undefined]) {
    let start = performance.now();
    const probe = await requestGpuDevice();
    const deviceMs = round(performance.now() - start);
    const limits = deviceLimits(probe.adapter.limits);
    const plan = planGpuWork(n, limits, rowsLeft);
    start = performance.now();
    await probe.device.createComputePipelineAsync({
      layout: 'auto',
      compute: { module: probe.device.createShaderModule({ code: unitSearchShader(plan.rowsLeft) }), entryPoint: 'main' },
    });
    const compileMs = round(performance.now() - start);
    probe.close();
    const host = hostMs(n, plan, limits);

    const dispatches = [];
    start = performance.now();
    const session = await requestGpuDevice();
    let total;
    try {
      ({ total } = await countOnDevice(n, session.device, limits, {
        plan,
        onDispatch: (d) => dispatches.push([d.units, round(d.ms), round(d.gpuMs)]),
      }));
    } finally {
      session.close();
    }
    const ms = round(performance.now() - start);
    const slowest = Math.max(...dispatches.map(([, t]) => t));
    const line = { n, rowsLeft: plan.rowsLeft, deviceMs, compileMs, hostMs: host, ms, exact: total === TOTAL[n] };
    console.log(JSON.stringify({ ...line, count: dispatches.length, slowest, dispatches }));
  }
}
