// A model of what finer tails do for a GPU, without a GPU: why dispatches
// ended in units walked a row finer (webgpu-plan.ts, TAIL_PER_INVOCATION)
// until an H100 timed them slower (2026-11-28, docs/engines.md: the model
// leaves out the cost of starting a unit). For each size of dispatch, in units per invocation,
// it cuts the same stretches of the plan into one dispatch with no tail and
// one with a tail (tailUnits: 2 units per invocation, at most half
// the dispatch), takes each unit's loop steps with the CPU twin (the shader's
// loop, the engine's lookahead), and runs both through the lane model of
// bench/gpu-lanes.mjs on a GPU scaled down 32 times (4,096 lanes, 64 or 128
// waves at full pace at once; the plan's 131,072 invocations in 2,048 or
// 4,096). One JSON line per size:
//   { n, unitsPerLane, units, tailedUnits, plain: [busy, busy], tailed: [busy, busy], stretches }
// (tailedUnits: the units of the last stretch's dispatch with the tail, finer ones included)
// busy: the units' steps over the steps the GPU's width could have made
// meanwhile (half, then all of the lanes' waves at once), the mean over the
// stretches. A model, not a measurement.
//   node bench/gpu-tail.mjs N [UNITS_PER_LANE=2,8,32,64] [STRETCHES=3]   (after npm run build)
import { planSubproblems } from '../dist/search/constellations.js';
import { DEFAULT_LIMITS, planGpuWork, tailUnits, unitRoom } from '../dist/search/webgpu/webgpu-plan.js';
import { unitSearchShader } from '../dist/search/webgpu/webgpu-shader.js';
import { prepareSubproblems, UnitBatch, UnitStream } from '../dist/search/webgpu/webgpu-units.js';
import { searchUnitLikeShader, shaderLookahead, shaderStackRows } from '../test/fixtures/webgpu/cpu-twin.mjs';
import { busyShare, WAVE } from './gpu-lanes.mjs';

const LANES = 4096;
const WIDTHS = [LANES / WAVE / 2, LANES / WAVE];

const n = Number(process.argv[2]);
const perLane = (process.argv[3] ?? '2,8,32,64').split(',').map(Number);
const stretches = Number(process.argv[4] ?? 3);
if (!Number.isInteger(n) || n < 16 || n > 23 || !perLane.every((k) => Number.isInteger(k) && k >= 1) || !(stretches >= 1)) {
  console.error('usage: node bench/gpu-tail.mjs N [UNITS_PER_LANE,...] [STRETCHES]   (N from 16 to 23)');
  process.exit(2);
}

const plan = { ...planGpuWork(n), invocations: LANES, tailPerInvocation: 2 }; // the engine's plan on the scaled-down GPU, with the tail it had
const prepared = prepareSubproblems(n, planSubproblems(n));
const shader = unitSearchShader(plan.rowsLeft);
const [stackRows, lookahead] = [shaderStackRows(shader), shaderLookahead(shader)];

/** The loop steps of a batch's units, in the order the lanes take them. */
function stepsOf(batch) {
  return Array.from({ length: batch.unitCount }, (_, i) => searchUnitLikeShader(batch, prepared.rowTable, i, stackRows, lookahead).steps);
}

/** A stream at the start of the `stretch`-th dispatch of `units` units (spread over the plan's first 6 million units). */
function streamAt(stretch, units) {
  const stream = new UnitStream(prepared, plan.rowsLeft);
  const skip = new UnitBatch(units);
  const dispatches = Math.floor((stretch * 2_000_000) / units);
  for (let k = 0; k < dispatches && !stream.done; k++) stream.fill(skip);
  return stream;
}

const round = (x) => Math.round(x * 1000) / 1000;
for (const k of perLane) {
  const units = LANES * k;
  const tail = tailUnits(plan, units);
  const runs = { plain: [], tailed: [] };
  let tailedUnits = 0;
  for (let stretch = 0; stretch < stretches; stretch++) {
    const plain = new UnitBatch(units);
    if (streamAt(stretch, units).fill(plain) < units - 32) break; // the plan ran out
    const tailed = new UnitBatch(unitRoom(plan, units, DEFAULT_LIMITS));
    streamAt(stretch, units).fill(tailed, units, tail);
    tailedUnits = tailed.unitCount;
    for (const [name, batch] of [
      ['plain', plain],
      ['tailed', tailed],
    ]) {
      const steps = stepsOf(batch);
      runs[name].push(WIDTHS.map((waves) => busyShare(steps, LANES, waves)));
    }
  }
  if (runs.plain.length === 0) continue;
  const mean = (list) => WIDTHS.map((_, w) => round(list.reduce((a, r) => a + r[w], 0) / list.length));
  console.log(
    JSON.stringify({
      n,
      unitsPerLane: k,
      units,
      tailedUnits,
      plain: mean(runs.plain),
      tailed: mean(runs.tailed),
      stretches: runs.plain.length,
    }),
  );
}
