// What the GPU reports as failed, as the engine's own coded error: a count
// whose dispatches the GPU did not run must never return a total. WebGPU
// does not throw where it fails: a buffer it could not allocate is made
// invalid, the dispatches that use it are skipped, and a read-back still
// maps (zeros), so every step that makes buffers or submits work is run in
// error scopes, and its dispatch's sums are taken only once they are empty.
import { untilAborted, type AbortSignalLike } from '../../shared/abort.js';
import { codedError, ERROR_CODES } from '../../shared/errors.js';
import { ownKeysOnly } from '../../shared/own-keys.js';
import type { GpuDeviceLike } from './webgpu-types.js';

/** ERR_NQUEENS_WEBGPU_FAILED: `what` failed on the GPU, with the GPU's own error as the cause. */
function gpuFailure(what: string, cause?: unknown): Error {
  const said = (cause as { message?: unknown } | undefined)?.message;
  // The driver's first line (Dawn's go on with where it was called from; the cause keeps them).
  const first = typeof said === 'string' ? said.trim().split('\n', 1)[0].trim() : '';
  const detail = first !== '' ? `: ${first}` : '';
  return codedError(`engine webgpu: ${what}${detail}`, ERROR_CODES.WEBGPU_FAILED, cause);
}

/** Runs `work` in error scopes: its value, and a promise that rejects with a gpuFailure naming `what` if the GPU reported an error. */
export function inErrorScopes<T>(device: GpuDeviceLike, what: string, work: () => T): { value: T; checked: Promise<void> } {
  const filters = ['out-of-memory', 'validation', 'internal'] as const;
  for (const filter of filters) device.pushErrorScope(filter);
  // Without a prototype: `in` would find an `error` other code set on Object.prototype, and fail every count.
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = ownKeysOnly({ value: work() });
  } catch (error) {
    outcome = ownKeysOnly({ error });
  }
  // Popped whatever happened (innermost first), so the device's scopes stay balanced.
  const popped = filters.map(() => device.popErrorScope());
  if ('error' in outcome) {
    for (const pop of popped) pop.catch(() => undefined);
    throw gpuFailure(what, outcome.error);
  }
  const { value } = outcome;
  const checked = Promise.all(popped).then((errors) => {
    // The outermost scope first: out of memory, which explains the validation errors that follow from it.
    const error = errors.reverse().find((e) => e !== null && e !== undefined);
    if (error) throw gpuFailure(what, error);
  });
  checked.catch(() => undefined); // awaited later; a failure before then must not go unhandled
  return { value, checked };
}

/** A promise that rejects with a gpuFailure once `device` is lost (never settles otherwise), for racing every wait of a count. */
export function whenLost(device: GpuDeviceLike): Promise<never> {
  const lost = device.lost.then((info) => {
    const reason = info?.reason && info.reason !== 'unknown' ? ` (${info.reason})` : '';
    throw gpuFailure(`the GPU device was lost${reason}, as a driver reset or a GPU watchdog does; no total was taken from it`, info);
  });
  lost.catch(() => undefined);
  return lost;
}

/**
 * Waits for `step`, rejecting as soon as the signal fires (with its abort
 * error) or the device is lost; a rejection of `step` that is not yet one of
 * ours becomes a gpuFailure naming `what`.
 */
export function untilSettled<T>(step: Promise<T>, what: string, lost: Promise<never>, signal: AbortSignalLike | undefined): Promise<T> {
  const coded = step.catch((error: unknown) => {
    if ((error as { code?: unknown })?.code === ERROR_CODES.WEBGPU_FAILED) throw error;
    throw gpuFailure(what, error);
  });
  return untilAborted(Promise.race([coded, lost]), signal);
}
