// A model of how busy the WebGPU engine's dispatches keep a GPU, by their
// size, without a GPU: the reason the engine grows its dispatches
// (webgpu-plan.ts, DISPATCH_MS). Prints one JSON line per dispatch size and
// GPU width:
//   { n, every, dispatchUnits, unitsPerLane, waves, busy, wavesBusy }
// The units' work: the CPU twin's loop steps (the shader's loop, lookahead 1)
// for every EVERY-th unit of the count's first units, in plan order, cut
// into dispatches of 1 to 16 times GPU_FILL units, none walked finer
// (bench/gpu-tail.mjs models the engine's finer tails). The model
// (bench/gpu-lanes.mjs): the plan's INVOCATIONS lanes (scaled down by
// EVERY, as the units are), in waves of 32, up to `waves` waves at full
// pace at once (the GPU's width; an H100 runs 132 SMs x 10 to 32 waves of
// this shader). busy: the units' steps over the steps the whole
// width could have made meanwhile; wavesBusy: over those the waves' own
// lanes could have (how much of a wave's lanes have a unit). A model, not a
// measurement: it leaves out the cost of a step, which is the same for all.
//   node bench/gpu-schedule.mjs N [EVERY=16]   (after npm run build)
import { planSubproblems } from '../dist/search/constellations.js';
import { GPU_FILL, INVOCATIONS, planGpuWork } from '../dist/search/webgpu/webgpu-plan.js';
import { prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';
import { searchUnitLikeShader } from '../test/fixtures/webgpu/cpu-twin.mjs';
import { dispatchTime, WAVE } from './gpu-lanes.mjs';

const MULTIPLES = [1, 2, 4, 8, 16];
const WIDTHS = [2048, 4096];

const n = Number(process.argv[2]);
const every = Number(process.argv[3] ?? 16);
if (!Number.isInteger(n) || n < 16 || n > 23 || !Number.isInteger(every) || every < 1) {
  console.error('usage: node bench/gpu-schedule.mjs N [EVERY]   (N from 16 to 23)');
  process.exit(2);
}

/** Loop steps of every `every`-th unit among the count's first `units` units, in plan order. */
function sampledSteps(units) {
  const plan = planGpuWork(n);
  const prepared = prepareSubproblems(n, planSubproblems(n));
  const stream = new UnitStream(prepared, plan.rowsLeft);
  const batch = new UnitBatch(GPU_FILL);
  const steps = [];
  let seen = 0;
  while (seen < units && stream.fill(batch) > 0) {
    for (let i = (every - (seen % every)) % every; i < batch.unitCount; i += every) {
      steps.push(searchUnitLikeShader(batch, prepared.rowTable, i, plan.rowsLeft - 2, 1).steps);
    }
    seen += batch.unitCount;
  }
  return steps;
}

const steps = sampledSteps(MULTIPLES.at(-1) * GPU_FILL);
const lanes = Math.round(INVOCATIONS / every);
for (const multiple of MULTIPLES) {
  const size = Math.round((multiple * GPU_FILL) / every);
  for (const width of WIDTHS) {
    const waves = width / every;
    let time = 0;
    let waveSteps = 0;
    let work = 0;
    for (let from = 0; from + size <= steps.length; from += size) {
      const dispatch = steps.slice(from, from + size);
      const run = dispatchTime(dispatch, lanes, waves);
      time += run.time;
      waveSteps += run.waveSteps;
      work += dispatch.reduce((a, b) => a + b, 0);
    }
    if (work === 0) continue; // fewer units than one dispatch of this size
    const busy = work / (time * waves * WAVE);
    const wavesBusy = work / (waveSteps * WAVE);
    const line = { n, every, dispatchUnits: multiple * GPU_FILL, unitsPerLane: (multiple * GPU_FILL) / INVOCATIONS, waves: width };
    console.log(JSON.stringify({ ...line, busy: Math.round(busy * 1000) / 1000, wavesBusy: Math.round(wavesBusy * 1000) / 1000 }));
  }
}
