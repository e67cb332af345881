// The WebGPU engine's shader layouts compared on a real GPU, for a visit to a
// GPU machine (bench/gpu-device.sh): the shader's lookahead (1 to 3 rows
// below a queen checked before it is pushed; 2 is the default) and
// workgroups of 64 (the default) or 32, and the table's pair carried
// (ShaderLayout.carryPair), each with the stack in workgroup
// memory and the plan's invocations. (Where the stack lives and how many
// invocations take units were compared on an H100 on 2026-11-27:
// docs/engines.md; `--stacks` runs those layouts again.) For each n, every
// layout counts in turn on one device, for ROUNDS rounds (interleaved, so a
// clock change hits them alike). `--sizes` compares the dispatches' sizes
// instead: growth towards 200 ms a dispatch (the default), towards 100 ms
// with at most 4,194,304 units (the default until 2026-11-27), and towards
// 400 ms. `--ramp` compares how dispatches end and grow (webgpu-plan.ts,
// TAIL_PER_INVOCATION and GROWTH): finer tails of 2 units per invocation
// and growth up to 4x a step (the defaults), no tails, tails of 4, growth
// up to 2x, and neither (the dispatches timed on the H100 on 2026-11-27).
// `--plans` compares the plan (no finer tails since 2026-11-28) with
// dispatches of up to 16,777,216 units aimed at 400 ms (fewer dispatches,
// so fewer ends where lanes idle: each waits for its longest unit), units
// of 13 rows left (a sixth as many for the host to make: at n = 21 the
// H100 idled in stretches, 2026-11-28), and below n = 21 also growth up
// to 2x, dispatches of up to 33,554,432 units aimed at 500 ms, and the
// 16,777,216 with first dispatches of 1,048,576 units (made while the
// shader compiles), and the plan with such first dispatches. `--groups`
// compares workgroups of 64, 128 and 256 invocations, and 128 with twice
// the plan's invocations. `--backs` compares steps that go back over every
// row with no square left (ShaderLayout.backOver) with steps that go back
// one row, and back-over with lookahead 3 and 1 and the pair carried.
// `--indexes` compares the loop's indexes computed from the row at each
// access (the engine) with indexes carried from step to step
// (ShaderLayout.carryIndexes), with and without the table's pair carried.
// One JSON line per count:
//   { n, layout, stackPlace, invocations, lookahead, workgroupSize, carryPair, backOver, carryIndexes, dispatchMs, maxUnits, tailPerInvocation, growth, rowsLeft, ms, exact, dispatches, largest, slowestMs }
// ms: from the call to the result, the pipeline's compile included; slowestMs: the most GPU time a dispatch took (onDispatch's gpuMs).
//   node bench/gpu-layouts.mjs FROM TO [ROUNDS] [--stacks | --sizes | --ramp | --plans | --groups | --backs | --indexes]   (after npm run build; Node with `webgpu`)
import { requestGpuDevice } from '../dist/search/webgpu/webgpu-device.js';
import { deviceLimits, planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { TOTAL } from './oeis-totals.mjs';

const [from, to, rounds = 2] = process.argv
  .slice(2, 5)
  .filter((arg) => !arg.startsWith('--'))
  .map(Number);
const stacks = process.argv.includes('--stacks');
const sizes = process.argv.includes('--sizes');
const ramp = process.argv.includes('--ramp');
const plans = process.argv.includes('--plans');
const groups = process.argv.includes('--groups');
const backs = process.argv.includes('--backs');
const indexes = process.argv.includes('--indexes');
const session = await requestGpuDevice();
const limits = deviceLimits(session.adapter.limits);

/** The layouts to compare at n: a label, and what each changes from the engine's own plan and shader. */
function layoutsOf(plan, n) {
  const at = (label, change) => ({
    label,
    stackPlace: 'workgroup',
    lookahead: 2,
    workgroupSize: 64,
    carryPair: false,
    backOver: undefined, // the engine's, as carryIndexes
    carryIndexes: undefined,
    plan,
    ...change,
  });
  if (stacks) {
    // Dispatches of a fixed size, so that 'one unit each' holds for every dispatch, as on the visits before growth.
    plan = { ...plan, maxUnitsPerDispatch: plan.unitsPerDispatch };
    return [
      at('private, one unit each', { stackPlace: 'private', lookahead: 0, plan: { ...plan, invocations: plan.unitsPerDispatch } }),
      at('private', { stackPlace: 'private', lookahead: 0 }),
      at('workgroup, one unit each', { lookahead: 0, plan: { ...plan, invocations: plan.unitsPerDispatch } }),
      at('workgroup', { lookahead: 0 }),
      at('workgroup, half the invocations', { lookahead: 0, plan: { ...plan, invocations: plan.invocations / 2 } }),
    ];
  }
  if (sizes) {
    return [
      at('grow to 200 ms', {}),
      at('grow to 100 ms, at most 4,194,304', {
        plan: { ...plan, dispatchMs: 100, maxUnitsPerDispatch: Math.min(1 << 22, plan.maxUnitsPerDispatch) },
      }),
      at('grow to 400 ms', { plan: { ...plan, dispatchMs: 400 } }),
    ];
  }
  if (plans) {
    const big = { ...plan, maxUnitsPerDispatch: 1 << 24, dispatchMs: 400 };
    const candidates = [
      at('the plan', {}),
      at('up to 16,777,216 units, 400 ms', { plan: big }),
      at('13 rows left', { plan: planGpuWork(n, limits, 13) }),
    ];
    if (n >= 21) return candidates; // a count of 20 s or more: the three most wanted, once
    return [
      ...candidates,
      at('growth up to 2x', { plan: { ...plan, growth: 2 } }),
      at('up to 33,554,432 units, 500 ms', { plan: { ...plan, maxUnitsPerDispatch: 1 << 25, dispatchMs: 500 } }),
      at('up to 16,777,216 units, 400 ms, the first 1,048,576', { plan: { ...big, unitsPerDispatch: 1 << 20 } }),
      at('the first 1,048,576', { plan: { ...plan, unitsPerDispatch: 1 << 20 } }),
    ];
  }
  if (indexes) {
    return [
      at('indexes from the row (the engine)', {}),
      at('indexes carried', { carryIndexes: true }),
      at('indexes carried, table pair carried', { carryIndexes: true, carryPair: true }),
    ];
  }
  if (backs) {
    return [
      at('back over every empty row', { backOver: true }),
      at('back one row a step', { backOver: false }),
      at('back over, lookahead 3', { backOver: true, lookahead: 3 }),
      at('back over, lookahead 1', { backOver: true, lookahead: 1 }),
      at('back over, table pair carried', { backOver: true, carryPair: true }),
    ];
  }
  if (groups) {
    return [
      ...[64, 128, 256].map((workgroupSize) => at(`workgroups of ${workgroupSize}`, { workgroupSize })),
      at('workgroups of 128, twice the invocations', { workgroupSize: 128, plan: { ...plan, invocations: 2 * plan.invocations } }),
    ];
  }
  if (ramp) {
    return [
      at('finer tails of 2 an invocation, growth up to 4x', { plan: { ...plan, tailPerInvocation: 2 } }),
      at('no finer tails', { plan: { ...plan, tailPerInvocation: 0 } }),
      at('finer tails of 4 an invocation', { plan: { ...plan, tailPerInvocation: 4 } }),
      at('growth up to 2x', { plan: { ...plan, tailPerInvocation: 2, growth: 2 } }),
      at('no finer tails, growth up to 2x (as timed before)', { plan: { ...plan, tailPerInvocation: 0, growth: 2 } }),
    ];
  }
  return [
    at('lookahead 2, workgroups of 64', {}),
    at('lookahead 1, workgroups of 64', { lookahead: 1 }),
    at('lookahead 3, workgroups of 64', { lookahead: 3 }),
    at('lookahead 2, workgroups of 32', { workgroupSize: 32 }),
    at('lookahead 2, table pair carried', { carryPair: true }),
  ];
}

try {
  for (let n = from; n <= to; n++) {
    const layouts = layoutsOf(planGpuWork(n, limits), n);
    for (let round = 0; round < rounds; round++) {
      for (const { label, stackPlace, lookahead, workgroupSize, carryPair, backOver, carryIndexes, plan } of layouts) {
        let dispatches = 0;
        let largest = 0;
        let slowestMs = 0;
        const start = performance.now();
        const { total } = await countOnDevice(n, session.device, limits, {
          plan,
          layout: { stackPlace, lookahead, workgroupSize, carryPair, backOver, carryIndexes },
          onDispatch: (d) => {
            dispatches++;
            largest = Math.max(largest, d.units);
            slowestMs = Math.max(slowestMs, Math.round(d.gpuMs * 10) / 10);
          },
        });
        const ms = Math.round((performance.now() - start) * 10) / 10;
        const { invocations, dispatchMs, maxUnitsPerDispatch: maxUnits, tailPerInvocation, growth, rowsLeft } = plan;
        const exact = total === TOTAL[n];
        const line = {
          n,
          layout: label,
          stackPlace,
          invocations,
          lookahead,
          workgroupSize,
          carryPair,
          backOver: backOver ?? 'engine',
          carryIndexes: carryIndexes ?? 'engine',
          dispatchMs,
          maxUnits,
          tailPerInvocation,
          growth,
          rowsLeft,
          ms,
          exact,
          dispatches,
          largest,
          slowestMs,
        };
        console.log(JSON.stringify(line));
      }
    }
  }
} finally {
  session.close();
}
