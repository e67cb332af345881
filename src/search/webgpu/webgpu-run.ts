// The WebGPU engine's dispatch loop on a device: streams the units
// (webgpu-units.ts, as branches) into a ring of `inFlight` slots, each with
// its own buffers, so the GPU always has the next dispatches queued while the
// host reads back the oldest and makes the next units. Each dispatch sums
// its solutions per subproblem on the GPU; the sums come back in submission
// order and are added as bigints (webgpu-counter.ts).
//
// Abort: no dispatch is submitted after the signal fires, and the wait for a
// read-back ends at once, so a count rejects within one event-loop turn of
// abort(), however long a dispatch runs; the caller then destroys the device,
// which ends the work still queued.
import { abortError, type AbortSignalLike } from '../../shared/abort.js';
import { ERROR_CODES, failure } from '../../shared/errors.js';
import type { Progress } from '../../shared/progress.js';
import { ownKeysOnly } from '../../shared/own-keys.js';
import { inSlices, yieldToEventLoop } from '../../shared/slices.js';
import { SubproblemCounter } from './webgpu-counter.js';
import { inErrorScopes, untilSettled, whenLost } from './webgpu-errors.js';
import {
  checkGpuWorkPlan,
  branchRoom,
  nextDispatchUnits,
  planGpuWork,
  tailUnits,
  unitRoom,
  type GpuPlanLimits,
  type GpuWorkPlan,
} from './webgpu-plan.js';
import { BINDING_NAMES, unitSearchShader, WORKGROUP_SIZE, type ShaderLayout } from './webgpu-shader.js';
import { BufferUsage, MAP_READ, type GpuBufferLike, type GpuDeviceLike, type GpuPipelineLike } from './webgpu-types.js';
import {
  BRANCH_WORDS,
  deepestInnerRows,
  prepareSubproblems,
  shiftWord,
  BatchMemory,
  UnitBatch,
  UnitStream,
  type PreparedSubproblems,
} from './webgpu-units.js';
import { subproblemSteps } from '../constellations.js';

export interface WebGpuCountOptions {
  signal?: AbortSignalLike | undefined;
  /** Called between dispatches, at most every 100 ms, and once at the end. */
  onProgress?: (progress: Progress) => void;
  /**
   * Called after each dispatch's read-back: how many units it searched, the
   * ms from its submission to its counts, and its ms on the GPU as the
   * dispatch loop times it (from its submission, or the previous read-back
   * if later, to its own).
   */
  onDispatch?: (dispatch: { units: number; ms: number; gpuMs: number }) => void;
}

interface DeviceCountOptions extends WebGpuCountOptions {
  /** Overrides planGpuWork (tests: many small dispatches at small n). */
  plan?: GpuWorkPlan;
  /** Overrides parts of the shader's layout (bench/gpu-layouts.mjs compares them on a GPU; boardSize, n by default). */
  layout?: ShaderLayout;
  /** Overrides the clock that times dispatches, in ms (tests: a clock that ticks per call, so sizes are deterministic). */
  clock?: () => number;
  /**
   * Told of work the device still does for this count after it may have rejected (the shader's compile, which an
   * abort does not wait for): the device must not be destroyed, nor Dawn's instance let go, before it settles.
   */
  holdDevice?: (work: Promise<unknown>) => void;
}

const PROGRESS_INTERVAL_MS = 100;

/**
 * One ring slot: a dispatch's units (here as a batch, and on the GPU), its
 * sums and their read-back copy. Its units' room grows with the dispatches
 * (nextDispatchUnits), and the slot with it.
 */
interface Slot {
  readonly batch: UnitBatch;
  readonly branches: GpuBufferLike;
  readonly firstUnit: GpuBufferLike;
  readonly blockBranch: GpuBufferLike;
  readonly sums: GpuBufferLike;
  readonly readBack: GpuBufferLike;
  readonly sizes: GpuBufferLike;
  readonly handedOut: GpuBufferLike;
  readonly rowTable: GpuBufferLike;
  readonly bindGroup: ReturnType<GpuDeviceLike['createBindGroup']>;
  readonly pipeline: GpuPipelineLike;
}

/** A submitted dispatch, until its counts are added. */
interface Submitted {
  readonly slot: Slot;
  /** Its units, and what they hold in units of plan.rowsLeft rows (UnitBatch.wholeUnits: the pace is reckoned in them). */
  readonly units: number;
  readonly wholeUnits: number;
  /** The subproblems its sums cover: the first, and how many. */
  readonly first: number;
  readonly span: number;
  /** Subproblems whose units were all handed out once this dispatch's were. */
  readonly subproblemsDone: number;
  readonly read: Promise<void>;
  readonly began: number;
}

/** Reports progress if `force`d or the interval has passed; `ended`: the count's last report. */
function reporter(
  n: number,
  counter: SubproblemCounter,
  start: number,
  clock: () => number,
  onProgress: ((progress: Progress) => void) | undefined,
): (force: boolean, ended: boolean) => void {
  let lastReport = -Infinity;
  return (force, ended) => {
    const now = clock();
    if (!onProgress || (!force && now - lastReport < PROGRESS_INTERVAL_MS)) return;
    onProgress({ n, ...counter.progress(ended), elapsedMs: now - start });
    lastReport = clock(); // from the callback's end, as the CPU engines (src/run/run-progress.ts)
  };
}

/** Total and unique count for n on `device`, whose adapter has `limits`. */
export async function countOnDevice(
  n: number,
  device: GpuDeviceLike,
  limits: GpuPlanLimits,
  given: DeviceCountOptions = {},
): Promise<{ total: bigint; unique: bigint }> {
  // Own keys alone: a key other code set on Object.prototype (`plan`, `layout`) is no setting of this count.
  const options = ownKeysOnly(given);
  const { signal, onDispatch, clock = () => performance.now() } = options;
  const start = clock();
  const plan = options.plan ?? planGpuWork(n, limits);
  checkGpuWorkPlan(plan, limits);
  // The driver compiles the shader on its own threads while this one plans the subproblems and makes the first
  // dispatch's units (the compile first: 14-18 ms on an H100's host, planSubproblems 11-14 ms cold at n = 18).
  const layout = ownKeysOnly(options.layout ?? {});
  const workgroupSize = layout.workgroupSize ?? WORKGROUP_SIZE;
  const lost = whenLost(device);
  const compiled = inErrorScopes(device, 'the shader did not compile', () => compileSearch(n, device, plan, layout));
  options.holdDevice?.(compiled.value);
  const subproblems = await inSlices(subproblemSteps(n), signal); // made at once, n = 20's held an abort 35-105 ms
  const prepared = prepareSubproblems(n, subproblems, 'lazy'); // each subproblem's rows are made as the stream reaches it
  const stream = new UnitStream(prepared, plan.rowsLeft);
  const counter = new SubproblemCounter(prepared);
  const report = reporter(n, counter, start, clock, options.onProgress);
  report(true, false); // the start, as the CPU engines report it, before the GPU has anything to read back
  const sumBytes = prepared.subproblems.length * 8; // a dispatch's subproblems are at most all of them
  const { rowTable, slots, prefilled, pipeline, memory } = await firstDispatch(device, plan, prepared, stream, compiled, { lost, signal });
  const regrow = (at: number, room: number): void => {
    if (at < slots.length) destroySlot(slots[at]);
    slots[at] = bindSlot(device, makeBuffers(device, room, sumBytes, memory), rowTable, pipeline);
  };
  const queued: Submitted[] = [];
  let submitted = 0;
  let timed: { units: number; ms: number } | undefined;
  let lastReadBack = -Infinity;
  for (;;) {
    while (queued.length < plan.inFlight) {
      if (signal?.aborted) throw abortError(signal);
      if (submitted > 0 && stream.done) break;
      const at = submitted % plan.inFlight;
      const wanted = nextDispatchUnits(plan, timed);
      const room = unitRoom(plan, wanted, limits);
      // A new slot, or a bigger one: its last dispatch has been read back (the ring's oldest).
      const grows = submitted > 0 && (slots.length <= at || slots[at].batch.maxUnits < room);
      const what = grows ? `the GPU could not allocate a dispatch of ${room} units, or refused it` : 'the GPU refused a dispatch';
      const grown = grows ? inErrorScopes(device, what, () => regrow(at, room)) : undefined;
      const slot = slots[at];
      // Made in slices with turns of the event loop between them: an abort is not kept waiting for a whole fill.
      const units = submitted === 0 ? prefilled : await fillInSlices(stream, slot.batch, wanted, tailUnits(plan, wanted), signal);
      if (units === 0) break;
      const next = inErrorScopes(device, what, () =>
        submit(device, slot, prepared, plan.invocations, workgroupSize, stream.subproblemsDone, clock()),
      );
      // The slot's scope first: out of memory there explains the submit's validation errors that follow from it.
      const read = Promise.all([next.value.read, grown ? grown.checked.then(() => next.checked) : next.checked]).then(() => undefined);
      read.catch(() => undefined); // awaited in turn; one that fails before its turn must not go unhandled
      queued.push({ ...next.value, read });
      submitted++;
    }
    const oldest = queued.shift();
    if (!oldest) break;
    // Its sums are taken only once the GPU said nothing of it failed: a dispatch it skipped still maps, as zeros.
    await untilSettled(oldest.read, 'a dispatch failed on the GPU', lost, signal);
    const readBack = clock();
    const gpuMs = readBack - Math.max(oldest.began, lastReadBack);
    lastReadBack = readBack;
    timed = { units: oldest.wholeUnits, ms: gpuMs };
    addSums(counter, oldest);
    onDispatch?.({ units: oldest.units, ms: readBack - oldest.began, gpuMs });
    report(false, false);
  }
  if (signal?.aborted) throw abortError(signal);
  if (!stream.done) throw failure('engine webgpu: the count stopped with units left to search', ERROR_CODES.INTERNAL); // never a partial total
  counter.finishUpTo(Infinity);
  // The device may count again (webgpu-device.ts keeps it a moment): its buffers go now, not when collected.
  for (const slot of slots) destroySlot(slot);
  rowTable.destroy();
  report(true, true);
  return counter.result();
}

/**
 * The first dispatch, made on this thread while the driver compiles the
 * shader: its buffers (and the row table every slot reads) and units; then
 * the pipeline, once the GPU said nothing of either failed.
 */
async function firstDispatch(
  device: GpuDeviceLike,
  plan: GpuWorkPlan,
  prepared: PreparedSubproblems,
  stream: UnitStream,
  compiled: { value: Promise<GpuPipelineLike>; checked: Promise<void> },
  waits: { lost: Promise<never>; signal: AbortSignalLike | undefined },
): Promise<{ rowTable: GpuBufferLike; slots: Slot[]; prefilled: number; pipeline: GpuPipelineLike; memory: BatchMemory }> {
  const memory = new BatchMemory(); // the host side of every slot's batch: they take turns, one filled and sent at a time
  const made = inErrorScopes(device, 'the GPU could not allocate the first dispatch', () => ({
    rowTable: makeBuffer(device, prepared.rowTable.byteLength, BufferUsage.STORAGE | BufferUsage.COPY_DST),
    first: makeBuffers(device, plan.unitsPerDispatch, prepared.subproblems.length * 8, memory),
  }));
  const { rowTable, first } = made.value;
  // No finer tail: made before the GPU starts, it would cost more than it saves.
  const prefilled = await fillInSlices(stream, first.batch, first.batch.maxUnits, 0, waits.signal);
  // An abort ends these waits; the compile goes on, and the device is kept until it ends (holdDevice).
  const pipeline = await untilSettled(compiled.value, 'the shader did not compile', waits.lost, waits.signal);
  await untilSettled(Promise.all([compiled.checked, made.checked]), 'the GPU refused the first dispatch', waits.lost, waits.signal);
  return { rowTable, slots: [bindSlot(device, first, rowTable, pipeline)], prefilled, pipeline, memory };
}

/** Adds a read-back dispatch's sums to the count, and gives its read-back buffer back for the slot's next dispatch. */
function addSums(counter: SubproblemCounter, read: Submitted): void {
  const sums = new Uint32Array(read.slot.readBack.getMappedRange(0, read.span * 8));
  counter.add(sums, read.first, read.span);
  read.slot.readBack.unmap();
  counter.finishUpTo(read.subproblemsDone);
}

/**
 * Steps of the unit walk between turns of the event loop: about 5 ms on a
 * 2-core EPYC VM (a fill of 8.4 million units at n = 20 takes some 3 million
 * steps, 50-180 ms), so an abort is seen within a slice, not after the fill.
 */
const FILL_SLICE_STEPS = 1 << 18;

/** stream.fill, in slices with a turn of the event loop between them: an abort rejects at the next turn. */
async function fillInSlices(
  stream: UnitStream,
  batch: UnitBatch,
  units: number,
  tail: number,
  signal: AbortSignalLike | undefined,
): Promise<number> {
  stream.begin(batch, units, tail);
  while (!stream.proceed(FILL_SLICE_STEPS)) await yieldToEventLoop(signal);
  return stream.end();
}

function submit(
  device: GpuDeviceLike,
  slot: Slot,
  prepared: PreparedSubproblems,
  invocations: number,
  workgroupSize: number,
  subproblemsDone: number,
  began: number,
): Submitted {
  const { batch } = slot;
  const { first, span } = batch.subproblems();
  // The rows of this dispatch's subproblems, made by the stream as it reached them.
  const [from, to] = [shiftWord(first, 0), shiftWord(first + span, 0)];
  device.queue.writeBuffer(slot.rowTable, from * 4, prepared.rowTable.subarray(from, to));
  device.queue.writeBuffer(slot.branches, 0, batch.branches.subarray(0, batch.branchCount * BRANCH_WORDS));
  device.queue.writeBuffer(slot.firstUnit, 0, batch.firstUnit.subarray(0, batch.branchCount));
  device.queue.writeBuffer(slot.blockBranch, 0, batch.blockBranch.subarray(0, batch.blockCount));
  device.queue.writeBuffer(slot.sizes, 0, new Uint32Array([batch.unitCount, batch.branchCount, first, 0]));
  device.queue.writeBuffer(slot.handedOut, 0, new Uint32Array(4));
  device.queue.writeBuffer(slot.sums, 0, new Uint32Array(span * 2));
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(slot.pipeline);
  pass.setBindGroup(0, slot.bindGroup);
  pass.dispatchWorkgroups(Math.ceil(Math.min(batch.unitCount, invocations) / workgroupSize)); // each takes units until none are left
  pass.end();
  encoder.copyBufferToBuffer(slot.sums, 0, slot.readBack, 0, span * 8);
  device.queue.submit([encoder.finish()]);
  const read = slot.readBack.mapAsync(MAP_READ);
  return { slot, units: batch.unitCount, wholeUnits: batch.wholeUnits, first, span, subproblemsDone, read, began };
}

/** Starts compiling the search for units of at most plan.rowsLeft rows (fewer where no subproblem has as many). */
function compileSearch(n: number, device: GpuDeviceLike, plan: GpuWorkPlan, layout: ShaderLayout): Promise<GpuPipelineLike> {
  const deepest = deepestInnerRows(n);
  // Descriptors without a prototype, here and below: WebGPU reads a member left out (a buffer binding's `offset`
  // and `size`, a pipeline's `constants`) through Object.prototype.
  const code = unitSearchShader(Math.min(plan.rowsLeft, Math.max(1, deepest)), { boardSize: n, ...layout });
  const compiling = device.createComputePipelineAsync(
    ownKeysOnly({
      layout: 'auto' as const,
      compute: ownKeysOnly({ module: device.createShaderModule(ownKeysOnly({ code })), entryPoint: 'main' }),
    }),
  );
  compiling.catch(() => undefined); // awaited later; a failure before then must not go unhandled
  return compiling;
}

/** A slot's buffers, before the pipeline exists. */
type SlotBuffers = Omit<Slot, 'bindGroup' | 'pipeline' | 'rowTable'>;

function makeBuffer(device: GpuDeviceLike, size: number, usage: number): GpuBufferLike {
  return device.createBuffer(ownKeysOnly({ size: Math.max(16, size), usage }));
}

/** A slot's buffers for dispatches of up to `units` units (and branchRoom(units) branches), its batch on `memory`. */
function makeBuffers(device: GpuDeviceLike, units: number, sumBytes: number, memory: BatchMemory): SlotBuffers {
  const batch = new UnitBatch(units, branchRoom(units), memory);
  // Each GPU buffer the size of the host array it receives.
  const input = (array: Uint32Array): GpuBufferLike => makeBuffer(device, array.byteLength, BufferUsage.STORAGE | BufferUsage.COPY_DST);
  return {
    batch,
    branches: input(batch.branches),
    firstUnit: input(batch.firstUnit),
    blockBranch: input(batch.blockBranch),
    sums: makeBuffer(device, sumBytes, BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST),
    readBack: makeBuffer(device, sumBytes, BufferUsage.MAP_READ | BufferUsage.COPY_DST),
    sizes: makeBuffer(device, 16, BufferUsage.UNIFORM | BufferUsage.COPY_DST),
    handedOut: makeBuffer(device, 16, BufferUsage.STORAGE | BufferUsage.COPY_DST),
  };
}

function bindSlot(device: GpuDeviceLike, buffers: SlotBuffers, rowTable: GpuBufferLike, pipeline: GpuPipelineLike): Slot {
  const named = { ...buffers, rowTable };
  const entries = BINDING_NAMES.map((name, binding) => ownKeysOnly({ binding, resource: ownKeysOnly({ buffer: named[name] }) }));
  const bindGroup = device.createBindGroup(ownKeysOnly({ layout: pipeline.getBindGroupLayout(0), entries }));
  return { ...named, pipeline, bindGroup };
}

/** Frees a slot outgrown by the dispatches (the row table stays: every slot reads it). */
function destroySlot(slot: Slot): void {
  for (const buffer of [slot.branches, slot.firstUnit, slot.blockBranch, slot.sums, slot.readBack, slot.sizes, slot.handedOut])
    buffer.destroy();
}
