// Whether a GPU runs one dispatch while the last one's slowest lanes finish,
// and what in the WebGPU engine's queue stops it (bench/gpu-device.sh). Each
// of the engine's dispatches ends waiting for its longest unit while most
// lanes idle; a next dispatch that could start then would fill them. In
// Vulkan a pipeline barrier waits for all earlier work of its source stage,
// so a read-back copy (compute, then copy) followed by the next dispatch's
// writes (copy, then compute) would chain each dispatch to the last.
//
// A synthetic kernel: every lane spins for a given number of steps. Each
// dispatch has one slow workgroup (TAIL_MS) and the rest short (BODY_MS),
// like an engine dispatch's end; DISPATCHES of them are queued as:
//   ring+copy:  the engine's pattern: inputs written into a ring of reused
//               buffers, each dispatch's sums copied back after it;
//   fresh+copy: fresh buffers per dispatch, each copied back after it;
//   ring:       reused buffers, no copies (one at the end);
//   fresh:      fresh buffers per dispatch, no copies until the end;
//   fresh+table: as fresh, and a shared read-only buffer written before each;
//   one pass:   all in one compute pass (whether the GPU overlaps them at all).
// Serial dispatches take about DISPATCHES times one dispatch (timed alone);
// overlapped ones about one dispatch and DISPATCHES - 1 times one without
// its slow workgroup. One JSON line per pattern and round:
//   { pattern, dispatches, ms, serialMs, overlapMs, tailSteps, bodySteps }
//   node bench/gpu-overlap.mjs [ROUNDS]   (Node with `webgpu`)
const DAWN_PACKAGE = /** @type {string} */ ('webgpu');
const dawn = await import(DAWN_PACKAGE);
const gpu = dawn.create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const device = await adapter.requestDevice();
const rounds = Number(process.argv[2] ?? 3);

const LANES = 131_072;
const DISPATCHES = 6;
const TAIL_MS = 40;
const BODY_MS = 4;
const S = GPUBufferUsageOf();

function GPUBufferUsageOf() {
  return { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 0x40, STORAGE: 0x80 };
}

const module = device.createShaderModule({
  code: `
@group(0) @binding(0) var<storage, read> steps: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<storage, read> table: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  var x = i + table[i & 255u];
  for (var k = 0u; k < steps[i]; k++) { x = x * 1664525u + 1013904223u; }
  sums[i] = x;
}`,
});
const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
const buffer = (size, usage) => device.createBuffer({ size, usage });
const table = buffer(1024, S.STORAGE | S.COPY_DST);
device.queue.writeBuffer(table, 0, new Uint32Array(256));

/** ms for one dispatch whose lanes spin `steps` (a number for every lane, or one per lane). */
async function timeOne(steps) {
  const work = buffer(LANES * 4, S.STORAGE | S.COPY_DST);
  const sums = buffer(LANES * 4, S.STORAGE);
  device.queue.writeBuffer(work, 0, typeof steps === 'number' ? new Uint32Array(LANES).fill(steps) : steps);
  await device.queue.onSubmittedWorkDone();
  const start = performance.now();
  submit(work, sums, false);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

/** The least of three timings (the GPU's own time, least disturbed). */
async function leastOf3(steps) {
  return Math.min(await timeOne(steps), await timeOne(steps), await timeOne(steps));
}

function bind(work, sums) {
  return device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [work, sums, table].map((b, binding) => ({ binding, resource: { buffer: b } })),
  });
}

function submit(work, sums, readBack) {
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind(work, sums));
  pass.dispatchWorkgroups(LANES / 64);
  pass.end();
  let read;
  if (readBack) {
    read = buffer(LANES * 4, S.MAP_READ | S.COPY_DST);
    encoder.copyBufferToBuffer(sums, 0, read, 0, LANES * 4);
  }
  device.queue.submit([encoder.finish()]);
  held.push(work, sums, read); // a buffer collected while it maps rejects its map (AbortError)
  return read?.mapAsync(1);
}

/** Every buffer made, held until the end. */
const held = [];

// The pace of a step: a dispatch long enough (20 ms) that its launch is not what is timed.
let probe = 1000;
let probeMs = await timeOne(probe);
while (probeMs < 20 && probe < 1 << 28) probeMs = await timeOne((probe *= 4));
const stepMs = probeMs / probe;
const steps = new Uint32Array(LANES).fill(Math.round(BODY_MS / stepMs));
steps.fill(Math.round(TAIL_MS / stepMs), 0, 64);
// Measured, not assumed (a lone workgroup steps faster than a full GPU's lanes): one dispatch with its slow
// workgroup, and one without it.
const oneMs = await leastOf3(steps);
const bodyMs = await leastOf3(steps[64]);

/** All the dispatches in one compute pass, fresh buffers: whether the GPU overlaps dispatches at all. */
async function onePass() {
  const start = performance.now();
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  for (let d = 0; d < DISPATCHES; d++) {
    const [work, sums] = [buffer(LANES * 4, S.STORAGE | S.COPY_DST), buffer(LANES * 4, S.STORAGE)];
    held.push(work, sums);
    device.queue.writeBuffer(work, 0, steps);
    pass.setBindGroup(0, bind(work, sums));
    pass.dispatchWorkgroups(LANES / 64);
  }
  pass.end();
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

async function run(pattern) {
  if (pattern === 'one pass') return onePass();
  const fresh = pattern.startsWith('fresh');
  const copies = pattern.endsWith('+copy');
  const ring = [0, 1, 2].map(() => [buffer(LANES * 4, S.STORAGE | S.COPY_DST), buffer(LANES * 4, S.STORAGE | S.COPY_SRC)]);
  const reads = [];
  const start = performance.now();
  for (let d = 0; d < DISPATCHES; d++) {
    const [work, sums] = fresh ? [buffer(LANES * 4, S.STORAGE | S.COPY_DST), buffer(LANES * 4, S.STORAGE | S.COPY_SRC)] : ring[d % 3];
    if (pattern === 'fresh+table') device.queue.writeBuffer(table, 0, new Uint32Array(256));
    device.queue.writeBuffer(work, 0, steps);
    const read = submit(work, sums, copies);
    if (read) reads.push(read);
  }
  await Promise.all(reads);
  await device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

const patterns = ['ring+copy', 'fresh+copy', 'ring', 'fresh', 'fresh+table', 'one pass'];
const round1 = (ms) => Math.round(ms * 10) / 10;
const serialMs = round1(DISPATCHES * oneMs);
const overlapMs = round1(oneMs + (DISPATCHES - 1) * bodyMs);
console.error(
  `step ${(stepMs * 1e6).toFixed(1)} ns a lane; one dispatch ${round1(oneMs)} ms, without its slow workgroup ${round1(bodyMs)} ms`,
);
for (let round = 0; round < rounds; round++) {
  for (const pattern of patterns) {
    const ms = Math.round((await run(pattern)) * 10) / 10;
    console.log(JSON.stringify({ pattern, dispatches: DISPATCHES, ms, serialMs, overlapMs, tailSteps: steps[0], bodySteps: steps[64] }));
  }
}
device.destroy();
gpu.toString();
