// Run by test/dawn/dawn.test.ts as
//   node --expose-gc --import ./test/dawn/use-dawn.mjs test/dawn/dawn-child.mjs MODE
// with `webgpu` resolved to the real Dawn binding. Prints one JSON line per finding.
// MODE 'adapter': the adapter Dawn gives here (or null), then exits.
// MODE 'count': counts with engine 'webgpu' through the package while garbage is collected every
//   millisecond, holding nothing of Dawn itself: n = 1..MAX one after another, two counts at once, a count
//   with progress, and one aborted mid-way. It then returns, and the process must exit by itself.
// MODE 'wide': n = 1..12 on one device with the shader that restores the left diagonals' lost bits (as it is
//   from n - 2 + rows left >= 32), its table pair carried and not, with its indexes carried and going back
//   over empty rows, and in small dispatches ending in finer units; n = 12 in workgroups of 32, then exits.
// MODE 'dropped': the control: a device whose instance nobody holds, used after a collection. Real Dawn
//   crashes or hangs there (the bug of issue 43), which shows that 'count' proves something.
import { smallPlan } from '../fixtures/webgpu/small-plan.mjs';

const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const mode = process.argv[2];
const collect = () => globalThis.gc();
/** Dawn's binding, named in a variable: the type check runs before test/dawn is installed. */
const DAWN = /** @type {string} */ ('webgpu');

if (mode === 'adapter') {
  const { create } = await import(DAWN);
  const adapter = await create([]).requestAdapter();
  const info = adapter?.info;
  say({ adapter: adapter ? [info.vendor, info.device || info.architecture, info.description].filter(Boolean).join(' ') : null });
} else if (mode === 'dropped') {
  const { create } = await import(DAWN);
  const adapter = await create([]).requestAdapter();
  const device = await adapter.requestDevice(); // the instance is unreachable from here on
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const module = device.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' });
  await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  say({ survived: true });
  device.destroy();
} else if (mode === 'wide') {
  const dist = new URL('../../dist/', import.meta.url);
  const { requestGpuDevice } = await import(new URL('search/webgpu/webgpu-device.js', dist).href);
  const { deviceLimits } = await import(new URL('search/webgpu/webgpu-plan.js', dist).href);
  const { countOnDevice } = await import(new URL('search/webgpu/webgpu-run.js', dist).href);
  const session = await requestGpuDevice();
  const limits = deviceLimits(session.adapter.limits);
  // Dispatches of 64 to 512 units growing up to 4x a step, each ending in 64 units' worth walked a row finer, as the
  // engine's plans do.
  const TAILED = smallPlan({ rowsLeft: 6, maxUnitsPerDispatch: 512, tailPerInvocation: 1, growth: 4 });
  for (let n = 1; n <= 12; n++) {
    const r = await countOnDevice(n, session.device, limits, { layout: { boardSize: 32 } });
    const carried = await countOnDevice(n, session.device, limits, { layout: { boardSize: 32, carryPair: true } });
    const tailed = await countOnDevice(n, session.device, limits, { plan: TAILED });
    const indexed = await countOnDevice(n, session.device, limits, { layout: { boardSize: 32, carryIndexes: true, backOver: true } });
    say({ n, total: String(r.total), carried: String(carried.total), tailed: String(tailed.total), indexed: String(indexed.total) });
  }
  const small = await countOnDevice(12, session.device, limits, { layout: { workgroupSize: 32 } });
  say({ workgroupsOf32: String(small.total) });
  session.close();
} else if (mode === 'count') {
  const max = Number(process.argv[3]);
  const dist = new URL('../../dist/', import.meta.url);
  const { count } = await import(new URL('index.js', dist).href);
  const { holdsNodeGpu } = await import(new URL('search/webgpu/webgpu-device.js', dist).href);
  const pressure = setInterval(collect, 1);
  const show = (r) => ({ total: String(r.total), unique: String(r.unique), engine: r.engine });
  for (let n = 1; n <= max; n++) say({ n, ...show(await count(n, { engine: 'webgpu' })) });
  const both = await Promise.all([count(max - 1, { engine: 'webgpu' }), count(max, { engine: 'webgpu' })]);
  say({ together: both.map((r) => String(r.total)) });

  const seen = [];
  const withProgress = await count(max, { engine: 'webgpu', onProgress: (p) => seen.push(p) });
  const last = seen.at(-1);
  say({
    progress: {
      total: String(withProgress.total),
      calls: seen.length,
      lastFraction: last?.fraction,
      lastTotal: String(last?.total),
      rising: seen.every((p, i) => i === 0 || (p.fraction >= seen[i - 1].fraction && p.total >= seen[i - 1].total)),
    },
  });

  // Aborted at its first progress report, while dispatches are queued on the device.
  const controller = new AbortController();
  let reports = 0;
  const aborted = await count(15, {
    engine: 'webgpu',
    signal: controller.signal,
    onProgress: () => {
      reports++;
      controller.abort();
    },
  }).then(
    (r) => ({ settled: 'resolved', total: String(r.total) }),
    (error) => ({ settled: 'rejected', name: error.name }),
  );
  say({ aborted: { ...aborted, reports } });
  clearInterval(pressure);
  // The lease ends once the device reports itself lost, a few turns after each count.
  for (let turn = 0; turn < 200 && holdsNodeGpu(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  say({ heldAfter: holdsNodeGpu() });
  process.on('exit', (code) => say({ exited: code }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
