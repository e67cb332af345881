// The WebGPU engine's shader layouts compared on a real GPU, for a visit to a
// GPU machine (bench/gpu-device.sh): where the stack lives ('workgroup' or
// 'private') and how many invocations a dispatch starts (each takes units
// until none are left; as many as units is one unit each). For each n, every
// layout counts in turn on one device, for ROUNDS rounds (interleaved, so a
// clock change hits them alike). One JSON line per count:
//   { n, stackPlace, invocations, rowsLeft, ms, exact, dispatches }
// ms: from the call to the result, the pipeline's compile included.
//   node bench/gpu-layouts.mjs FROM TO [ROUNDS]   (after npm run build; Node with `webgpu`)
import { requestGpuDevice } from '../dist/search/webgpu/webgpu-device.js';
import { deviceLimits, planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { TOTAL } from './oeis-totals.mjs';

const [from, to, rounds = 2] = process.argv.slice(2, 5).map(Number);
const session = await requestGpuDevice();
const limits = deviceLimits(session.adapter.limits);
try {
  for (let n = from; n <= to; n++) {
    const plan = planGpuWork(n, limits);
    /** @type {{ stackPlace: 'private' | 'workgroup', invocations: number }[]} */
    const layouts = [
      { stackPlace: 'private', invocations: plan.unitsPerDispatch },
      { stackPlace: 'private', invocations: plan.invocations },
      { stackPlace: 'workgroup', invocations: plan.unitsPerDispatch },
      { stackPlace: 'workgroup', invocations: plan.invocations },
      { stackPlace: 'workgroup', invocations: plan.invocations / 2 },
    ];
    for (let round = 0; round < rounds; round++) {
      for (const { stackPlace, invocations } of layouts) {
        let dispatches = 0;
        const start = performance.now();
        const { total } = await countOnDevice(n, session.device, limits, {
          plan: { ...plan, invocations },
          stackPlace,
          onDispatch: () => dispatches++,
        });
        const ms = Math.round((performance.now() - start) * 10) / 10;
        console.log(JSON.stringify({ n, stackPlace, invocations, rowsLeft: plan.rowsLeft, ms, exact: total === TOTAL[n], dispatches }));
      }
    }
  }
} finally {
  session.close();
}
