// The WebGPU engine's shader layouts compared on a real GPU, for a visit to a
// GPU machine (bench/gpu-device.sh): the shader's lookahead (0 to 3 rows
// below a queen checked before it is pushed; 0 is the default), each with the
// stack in workgroup memory and the plan's invocations. (Where the stack lives
// and how many invocations take units were compared on an H100 on
// 2026-11-27: docs/engines.md; `--stacks` runs those layouts again.) For each
// n, every layout counts in turn on one device, for ROUNDS rounds
// (interleaved, so a clock change hits them alike). One JSON line per count:
//   { n, stackPlace, invocations, lookahead, rowsLeft, ms, exact, dispatches }
// ms: from the call to the result, the pipeline's compile included.
//   node bench/gpu-layouts.mjs FROM TO [ROUNDS] [--stacks]   (after npm run build; Node with `webgpu`)
import { requestGpuDevice } from '../dist/search/webgpu/webgpu-device.js';
import { deviceLimits, planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { TOTAL } from './oeis-totals.mjs';

const [from, to, rounds = 2] = process.argv
  .slice(2, 5)
  .filter((arg) => !arg.startsWith('--'))
  .map(Number);
const stacks = process.argv.includes('--stacks');
const session = await requestGpuDevice();
const limits = deviceLimits(session.adapter.limits);
try {
  for (let n = from; n <= to; n++) {
    const plan = planGpuWork(n, limits);
    /** @type {{ stackPlace: 'private' | 'workgroup', invocations: number, lookahead: number }[]} */
    const layouts = stacks
      ? [
          { stackPlace: 'private', invocations: plan.unitsPerDispatch, lookahead: 0 },
          { stackPlace: 'private', invocations: plan.invocations, lookahead: 0 },
          { stackPlace: 'workgroup', invocations: plan.unitsPerDispatch, lookahead: 0 },
          { stackPlace: 'workgroup', invocations: plan.invocations, lookahead: 0 },
          { stackPlace: 'workgroup', invocations: plan.invocations / 2, lookahead: 0 },
        ]
      : [0, 1, 2, 3].map((lookahead) => ({ stackPlace: 'workgroup', invocations: plan.invocations, lookahead }));
    for (let round = 0; round < rounds; round++) {
      for (const { stackPlace, invocations, lookahead } of layouts) {
        let dispatches = 0;
        const start = performance.now();
        const { total } = await countOnDevice(n, session.device, limits, {
          plan: { ...plan, invocations },
          stackPlace,
          lookahead,
          onDispatch: () => dispatches++,
        });
        const ms = Math.round((performance.now() - start) * 10) / 10;
        console.log(
          JSON.stringify({ n, stackPlace, invocations, lookahead, rowsLeft: plan.rowsLeft, ms, exact: total === TOTAL[n], dispatches }),
        );
      }
    }
  }
} finally {
  session.close();
}
