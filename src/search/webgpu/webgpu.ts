// The WebGPU engine's host side: refines the plan into work units, uploads
// them, and runs them in short dispatches, adding each invocation's count
// into the subproblems' totals as bigints.
//
// Exactness: an invocation counts in two 32-bit words with a carry, and one
// unit has far fewer than 2^64 solutions (fewer than all solutions of the
// board, and Q(n) < 2^64 for every n a 32-bit mask can hold that is
// countable this century); the CPU sums the words as bigints, so no total
// can overflow.
import { abortError, type AbortSignalLike } from '../../shared/abort.js';
import { contribution, planSubproblems } from '../constellations.js';
import type { Progress } from '../../shared/progress.js';
import { countFixesOnly } from '../symmetry.js';
import { requestGpuDevice } from './webgpu-device.js';
import { unitSearchShader, WORKGROUP_SIZE } from './webgpu-shader.js';
import { BufferUsage, MAP_READ, type GpuBufferLike, type GpuDeviceLike } from './webgpu-types.js';
import { refineUnits, type WorkUnits } from './webgpu-units.js';

export interface WebGpuCountOptions {
  signal?: AbortSignalLike | undefined;
  /** Called between dispatches, at most every 100 ms, and once at the end. */
  onProgress?: (progress: Progress) => void;
  /** Called after each dispatch: how many units it searched and how long it took (with its read-back). */
  onDispatch?: (dispatch: { units: number; ms: number }) => void;
}

/** Aim for dispatches this long: well under the ~2 s GPU watchdogs, and short enough for abort to feel immediate. */
const TARGET_DISPATCH_MS = 40;
/** The first dispatch is small, since nothing is known yet about the GPU's speed. */
const FIRST_BATCH = 4 * WORKGROUP_SIZE;
/** Most units per dispatch: the counts buffer stays at 8 MiB. */
const MAX_BATCH = 1 << 20;
const PROGRESS_INTERVAL_MS = 100;

/** The next batch size: scaled towards the target time, growing at most 2x at a time. */
function nextBatchSize(batch: number, ms: number, limit: number): number {
  const scaled = Math.round((batch * TARGET_DISPATCH_MS) / Math.max(ms, 1));
  const size = Math.min(scaled, batch * 2, limit);
  return Math.max(WORKGROUP_SIZE, Math.floor(size / WORKGROUP_SIZE) * WORKGROUP_SIZE);
}

/** Total and unique count for n on the GPU, with the subproblems of the symmetry search. */
export async function countWebGpu(n: number, options: WebGpuCountOptions = {}): Promise<{ total: bigint; unique: bigint }> {
  const { signal, onProgress, onDispatch } = options;
  if (signal?.aborted) throw abortError(signal);
  const start = performance.now();
  const { adapter, device } = await requestGpuDevice();
  try {
    const work = refineUnits(n, planSubproblems(n));
    const counter = new SubproblemCounter(work);
    const limit = Math.min(
      MAX_BATCH,
      adapter.limits.maxComputeWorkgroupsPerDimension * WORKGROUP_SIZE,
      Math.floor(adapter.limits.maxStorageBufferBindingSize / 16),
    );
    const run = await prepareRun(device, work, Math.min(limit, Math.max(work.unitCount, 1)));
    let lastReport = -Infinity;
    const report = (final: boolean): void => {
      const now = performance.now();
      if (!onProgress || (!final && now - lastReport < PROGRESS_INTERVAL_MS)) return;
      lastReport = now;
      onProgress({ n, ...counter.progress(), elapsedMs: now - start });
    };
    let batch = FIRST_BATCH;
    for (let first = 0; first < work.unitCount;) {
      if (signal?.aborted) throw abortError(signal);
      const size = Math.min(batch, work.unitCount - first);
      const began = performance.now();
      const counts = await run.dispatch(first, size);
      const ms = performance.now() - began;
      counter.add(first, counts);
      run.release();
      onDispatch?.({ units: size, ms });
      first += size;
      batch = nextBatchSize(batch, ms, limit);
      report(false);
    }
    if (signal?.aborted) throw abortError(signal);
    counter.finishAll();
    report(true);
    return counter.result();
  } finally {
    device.destroy();
  }
}

interface Run {
  /** Searches units [first, first + size) and maps their counts (low, high words per unit). */
  dispatch(first: number, size: number): Promise<Uint32Array>;
  /** Unmaps the counts of the last dispatch. */
  release(): void;
}

async function prepareRun(device: GpuDeviceLike, work: WorkUnits, maxBatch: number): Promise<Run> {
  const upload = (data: Uint32Array, usage: number): GpuBufferLike => {
    // Zero-sized bindings are invalid; an empty plan still gets a buffer.
    const buffer = device.createBuffer({ size: Math.max(16, data.byteLength), usage: usage | BufferUsage.COPY_DST });
    if (data.byteLength > 0) device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  const units = upload(work.units, BufferUsage.STORAGE);
  const rowTable = upload(work.rowTable, BufferUsage.STORAGE);
  const batchInfo = upload(new Uint32Array(4), BufferUsage.UNIFORM);
  const countsSize = maxBatch * 8;
  const counts = device.createBuffer({ size: countsSize, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
  const readBack = device.createBuffer({ size: countsSize, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code: unitSearchShader(work.maxRowsLeft) }), entryPoint: 'main' },
  });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [units, rowTable, counts, batchInfo].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  return {
    async dispatch(first, size) {
      device.queue.writeBuffer(batchInfo, 0, new Uint32Array([first, size, 0, 0]));
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(Math.ceil(size / WORKGROUP_SIZE));
      pass.end();
      encoder.copyBufferToBuffer(counts, 0, readBack, 0, size * 8);
      device.queue.submit([encoder.finish()]);
      await readBack.mapAsync(MAP_READ);
      return new Uint32Array(readBack.getMappedRange(0, size * 8));
    },
    release: () => readBack.unmap(),
  };
}

/** Sums unit counts per subproblem, and the subproblems' contributions in plan order. */
class SubproblemCounter {
  private readonly solutions: bigint[];
  /** Subproblems [0, finished) have all their units counted and are in total and unique. */
  private finished = 0;
  private unitsDone = 0;
  private total = 0n;
  private unique = 0n;

  constructor(private readonly work: WorkUnits) {
    this.solutions = Array.from(work.cpuSolutions, (count) => BigInt(count));
  }

  /** Adds the counts of units [first, first + counts.length / 2). */
  add(first: number, counts: Uint32Array): void {
    const { units } = this.work;
    let subproblem = -1;
    let running = 0; // low words of the current subproblem; flushed long before 2^53
    for (let j = 0; j < counts.length / 2; j++) {
      const owner = units[(first + j) * 4 + 3] >>> 10;
      if (owner !== subproblem) {
        if (subproblem >= 0) this.solutions[subproblem] += BigInt(running);
        subproblem = owner;
        running = 0;
      }
      running += counts[j * 2];
      const high = counts[j * 2 + 1];
      if (high !== 0) this.solutions[owner] += BigInt(high) << 32n;
      if (running >= 2 ** 52) {
        this.solutions[owner] += BigInt(running);
        running = 0;
      }
    }
    if (subproblem >= 0) this.solutions[subproblem] += BigInt(running);
    this.unitsDone = first + counts.length / 2;
    this.finishUpTo(this.unitsDone);
  }

  /** Moves the subproblems whose units all end by `unitsDone` into the totals. */
  private finishUpTo(unitsDone: number): void {
    const { subproblems, unitsEnd, n } = this.work;
    while (this.finished < subproblems.length && unitsEnd[this.finished] <= unitsDone) {
      const s = subproblems[this.finished];
      const fixes = countFixesOnly(n, s); // rare and cheap: a half-turn-symmetric search on the CPU
      const c = contribution(s, { solutions: this.solutions[this.finished], fixes });
      this.total += c.total;
      this.unique += c.unique;
      this.finished++;
    }
  }

  finishAll(): void {
    this.finishUpTo(Infinity);
  }

  progress(): Omit<Progress, 'n' | 'elapsedMs'> {
    const all = this.work.subproblems.length;
    const done = this.finished === all;
    return {
      phase: 'counting',
      finished: this.finished,
      units: all,
      subproblems: all,
      resumedFraction: 0,
      // Units have about the same number of rows left, so they weigh about the same.
      fraction: done ? 1 : this.unitsDone / Math.max(1, this.work.unitCount),
      total: this.total,
      unique: this.unique,
    };
  }

  result(): { total: bigint; unique: bigint } {
    return { total: this.total, unique: this.unique };
  }
}
