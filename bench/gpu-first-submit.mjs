// How long a WebGPU count keeps the GPU waiting at its start: from the call
// to its first dispatch's submission, on a stand-in device (no GPU; the
// host's share only), in a fresh process after a count of n = 8 as
// `npm run bench:gpu` does, so the JIT is as cold as a program's first big
// count finds it. It then times the steps before that submission one by
// one, again cold in a process of its own. One JSON line:
//   { n, firstSubmitMs, planSubproblemsMs, prepareMs, firstFillMs }
//   node bench/gpu-first-submit.mjs [N]   (after npm run build; pin it: taskset -c 1)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { branchRoom, DEFAULT_LIMITS, planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { planSubproblems } from '../dist/search/constellations.js';
import { prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';
import { createFakeDevice } from '../test/fixtures/webgpu/fake-device.mjs';

const n = Number(process.argv[2] ?? 18);
const part = process.argv[3];
const round = (ms) => Math.round(ms * 10) / 10;
/** The stand-in device, as the engine's type for a device. */
const standIn = () =>
  /** @type {import('../dist/search/webgpu/webgpu-types.js').GpuDeviceLike & ReturnType<typeof createFakeDevice>} */ (
    /** @type {unknown} */ (createFakeDevice())
  );
await countOnDevice(8, standIn(), DEFAULT_LIMITS); // as bench:gpu opens the GPU

if (part === 'submit') {
  const device = standIn();
  const stop = new AbortController();
  let firstSubmitMs;
  const start = performance.now();
  device.queue.submit = () => {
    firstSubmitMs ??= performance.now() - start;
    stop.abort(); // the host's start is all that is timed
  };
  await countOnDevice(n, device, DEFAULT_LIMITS, { signal: stop.signal }).catch(() => undefined);
  console.log(JSON.stringify({ firstSubmitMs: round(firstSubmitMs) }));
} else if (part === 'steps') {
  const plan = planGpuWork(n);
  let at = performance.now();
  const lap = () => round(-at + (at = performance.now()));
  const subproblems = planSubproblems(n);
  const planSubproblemsMs = lap();
  const stream = new UnitStream(prepareSubproblems(n, subproblems, 'lazy'), plan.rowsLeft);
  const prepareMs = lap();
  stream.fill(new UnitBatch(plan.unitsPerDispatch, branchRoom(plan.unitsPerDispatch)));
  console.log(JSON.stringify({ planSubproblemsMs, prepareMs, firstFillMs: lap() }));
} else {
  // Each part in a fresh process: both cold.
  const run = (which) => {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(n), which], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout);
  };
  console.log(JSON.stringify({ n, ...run('submit'), ...run('steps') }));
}
