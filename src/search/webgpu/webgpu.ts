// The WebGPU engine's entry point: finds a device (webgpu-device.ts), counts
// on it (webgpu-run.ts), and always gives the device back (kept a moment for
// the next count where this one succeeded).
//
// Exactness: an invocation counts in two 32-bit words with a carry, and one
// unit has far fewer than 2^64 solutions (fewer than all solutions of the
// board, and Q(n) < 2^64 for every n a 32-bit mask can hold that is
// countable this century); the CPU sums the words as bigints, so no total
// can overflow.
import { abortError, untilAborted } from '../../shared/abort.js';
import { requestGpuDevice } from './webgpu-device.js';
import { deviceLimits } from './webgpu-plan.js';
import { countOnDevice, type WebGpuCountOptions } from './webgpu-run.js';

/** Total and unique count for n on the GPU, with the subproblems of the symmetry search. */
export async function countWebGpu(n: number, options: WebGpuCountOptions = {}): Promise<{ total: bigint; unique: bigint }> {
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const opening = requestGpuDevice();
  // Opening an adapter can take a second: an abort rejects at once, and the device, once open, is closed unused.
  const session = await untilAborted(opening, signal).catch((error: unknown) => {
    opening.then(
      (unused) => unused.close(false),
      () => undefined,
    );
    throw error;
  });
  let succeeded = false;
  const held: Promise<unknown>[] = []; // what the device still does for the count (a compile an abort did not wait for)
  try {
    const holdDevice = (work: Promise<unknown>): number => held.push(work);
    const counted = await countOnDevice(n, session.device, deviceLimits(session.adapter.limits), { ...options, holdDevice });
    succeeded = true;
    return counted;
  } finally {
    // A device that counted may count again; one that failed or was aborted goes, once its work has ended (a device
    // destroyed, or Dawn's instance let go, under a compile still running is what crashes Dawn: webgpu-device.ts).
    // At once after a success (its compile has ended), so that the next count finds the device waiting.
    if (succeeded) session.close(true);
    else void Promise.allSettled(held).then(() => session.close(false));
  }
}
