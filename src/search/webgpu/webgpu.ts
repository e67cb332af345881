// The WebGPU engine's entry point: finds a device (webgpu-device.ts), counts
// on it (webgpu-run.ts), and always gives the device back (kept a moment for
// the next count where this one succeeded). A count on a device that waited
// and turns out lost before its first read-back runs again on a new one.
//
// Exactness: an invocation counts in two 32-bit words with a carry, and one
// unit has far fewer than 2^64 solutions (fewer than all solutions of the
// board, and Q(n) < 2^64 for every n a 32-bit mask can hold that is
// countable this century); the CPU sums the words as bigints, so no total
// can overflow.
import { abortError, untilAborted, type AbortSignalLike } from '../../shared/abort.js';
import { codedError, ERROR_CODES } from '../../shared/errors.js';
import { unpublished } from '../../shared/known-counts.js';
import { ownKeysOnly } from '../../shared/own-keys.js';
import { requestGpuDevice, type GpuSession } from './webgpu-device.js';
import { deviceLimits } from './webgpu-plan.js';
import { countOnDevice, type WebGpuCountOptions } from './webgpu-run.js';

/** Total and unique count for n on the GPU, with the subproblems of the symmetry search. */
export async function countWebGpu(n: number, given: WebGpuCountOptions = {}): Promise<{ total: bigint; unique: bigint }> {
  // Own keys alone: `onDispatch` set on Object.prototype is no callback of this count.
  const options = ownKeysOnly(given);
  const { signal } = options;
  if (signal?.aborted) throw abortError(signal);
  const session = await openDevice(signal);
  const first = { readBack: false };
  try {
    return await countOnSession(n, session, options, first);
  } catch (error) {
    // A device that waited between counts may have been lost (a driver reset) before it could say so: the count then
    // fails before its first read-back, and runs again, once, on a device opened for it. A device lost later had
    // counted for this count, so its loss is the count's failure.
    if (!session.reused || first.readBack || !session.isLost() || signal?.aborted) throw error;
    return countOnSession(n, await openDevice(signal), options, { readBack: false });
  }
}

/** Opens a device (or takes the one waiting); an abort rejects at once, and the device, once open, is closed unused. */
async function openDevice(signal: AbortSignalLike | undefined): Promise<GpuSession> {
  const opening = requestGpuDevice();
  // Opening an adapter can take a second.
  return untilAborted(opening, signal).catch((error: unknown) => {
    opening.then(
      (unused) => unused.close(false),
      () => undefined,
    );
    throw error;
  });
}

/** Counts on an open device, then gives it back; `seen.readBack` tells whether a dispatch was read back. */
async function countOnSession(
  n: number,
  session: GpuSession,
  options: WebGpuCountOptions,
  seen: { readBack: boolean },
): Promise<{ total: bigint; unique: bigint }> {
  let succeeded = false;
  const held: Promise<unknown>[] = []; // what the device still does for the count (a compile an abort did not wait for)
  const onDispatch: WebGpuCountOptions['onDispatch'] = (dispatch) => {
    seen.readBack = true;
    options.onDispatch?.(dispatch);
  };
  try {
    const holdDevice = (work: Promise<unknown>): number => held.push(work);
    const limits = deviceLimits(session.adapter.limits);
    const counted = await countOnDevice(n, session.device, limits, { ...options, onDispatch, holdDevice });
    refuseUnpublished(n, counted);
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

/** A count that is not the published one of n (to n = 27) is the GPU's failure, never a result; its device goes. */
function refuseUnpublished(n: number, counted: { total: bigint; unique: bigint }): void {
  const known = unpublished(n, counted);
  if (known === undefined) return;
  throw codedError(
    `engine webgpu: the GPU counted ${counted.total} solutions, ${counted.unique} unique, for n = ${n}, but n = ${n} has ${known.total}, ${known.unique} unique (OEIS A000170, A002562): a fault of the GPU, its driver or this engine; count on the CPU (engine 'wasm')`,
    ERROR_CODES.WEBGPU_FAILED,
  );
}
