// The host's share of a WebGPU count: a whole count on a null device, one
// that takes every write and dispatch and finishes each at once without
// searching (its sums stay 0, so the count's total is 0, or refused by the
// unique count's check), in a fresh process after a count of n = 8 as
// `npm run bench:gpu` does. What it times is what the thread that feeds the
// GPU does for a count: the plan of subproblems, the units made as branches,
// the buffers, the read-backs added up. It bounds a count from below on a
// GPU that is faster than its host (n = 18 on an H100). One JSON line per n:
//   { n, ms, dispatches, units, largest, pageFaults, touchMs }
// pageFaults: the process's minor page faults by the count's end; touchMs: the time to
// touch 12 MB of fresh memory once, afterwards (what a page fault costs on this host).
//   node bench/gpu-host.mjs [FROM] [TO] [ROUNDS]   (after npm run build; pin it: taskset -c 1)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { DEFAULT_LIMITS } from '../dist/search/webgpu/webgpu-plan.js';

/** A device that does nothing, at once: what is left of a count is the host's work. */
function nullDevice() {
  const log = { dispatches: 0, units: 0, largest: 0 };
  const later = () => new Promise((resolve) => setImmediate(resolve));
  const buffer = (size) => ({
    mapAsync: later,
    getMappedRange: (offset = 0, length = size - offset) => new ArrayBuffer(length),
    unmap() {},
    destroy() {},
  });
  let units = 0;
  const device = {
    log,
    lost: new Promise(() => {}),
    queue: {
      writeBuffer(_buffer, offset, data) {
        // The sizes buffer (16 bytes at 0, its first word the units): the only write whose words are read here.
        if (offset === 0 && data.byteLength === 16 && data instanceof Uint32Array && data[3] === 0 && data[1] > 0) units = data[0];
      },
      submit() {
        log.dispatches++;
        log.units += units;
        log.largest = Math.max(log.largest, units);
      },
      onSubmittedWorkDone: later,
    },
    pushErrorScope() {},
    popErrorScope: () => later().then(() => null),
    createBuffer: ({ size }) => buffer(size),
    createShaderModule: () => ({}),
    createComputePipelineAsync: () => later().then(() => ({ getBindGroupLayout: () => ({}) })),
    createBindGroup: () => ({}),
    createCommandEncoder: () => ({
      beginComputePass: () => ({ setPipeline() {}, setBindGroup() {}, dispatchWorkgroups() {}, end() {} }),
      copyBufferToBuffer() {},
      finish: () => ({}),
    }),
    destroy() {},
  };
  return device;
}

const [from, to, rounds] = [Number(process.argv[2] ?? 18), Number(process.argv[3] ?? process.argv[2] ?? 20), Number(process.argv[4] ?? 1)];
if (process.argv[5] === 'child') {
  await countOnDevice(8, nullDevice(), DEFAULT_LIMITS).catch(() => undefined); // as bench:gpu opens the GPU
  const device = nullDevice();
  const start = performance.now();
  await countOnDevice(from, device, DEFAULT_LIMITS).catch(() => undefined); // sums of 0: refused at some n, by design
  const ms = Math.round((performance.now() - start) * 10) / 10;
  const pageFaults = process.resourceUsage().minorPageFault;
  const fresh = new Uint32Array(3 << 20);
  const touched = performance.now();
  for (let i = 0; i < fresh.length; i += 1024) fresh[i] = i;
  const touchMs = Math.round((performance.now() - touched) * 10) / 10;
  console.log(JSON.stringify({ n: from, ms, ...device.log, pageFaults, touchMs }));
} else {
  for (let round = 0; round < rounds; round++) {
    for (let n = from; n <= to; n++) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(n), String(n), '1', 'child'], { stdio: 'inherit' });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
  }
}
