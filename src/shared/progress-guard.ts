// A user's onProgress fails the count it reports on, never the process: it
// is called from timers and worker messages, where a throw would be an
// uncaught exception and a rejected promise an unhandled rejection. Its
// first failure aborts the count (through a signal of its own, which also
// follows the caller's) and becomes what the count rejects with.
import { abortError, isAborted, onAbort, ONCE, type AbortSignalLike } from './abort.js';

/** A count's options with onProgress guarded, and what the count does with the guard after it. */
interface ProgressGuard<O> {
  /** The options to count with: onProgress wrapped, and a signal that also aborts on its first failure. */
  readonly options: O;
  /**
   * After the count: waits for the promises onProgress returned, then throws
   * its first failure, if any. The caller's signal ends the wait (a promise
   * that never settles would otherwise hold the count forever).
   */
  finish(): Promise<void>;
  /** Always, at the end: stops following the caller's signal. */
  release(): void;
  /** What a count that failed with `error` rejects with: onProgress's own failure where that stopped it (even `undefined`). */
  failure(error: unknown): unknown;
}

/**
 * Guards `options`' onProgress: a throw or a rejected promise from it aborts
 * the count (the count then rejects with that error, as it was); and its
 * signal: the count gets one of its own that follows the caller's.
 */
export function guardProgress<O extends { onProgress?: ((progress: never) => void) | undefined; signal?: AbortSignalLike | undefined }>(
  options: O,
): ProgressGuard<O> {
  const { signal } = options;
  const onProgress = options.onProgress as ((progress: unknown) => unknown) | undefined;
  // The count follows a signal of its own even without onProgress: the caller's is read here alone, as the platform
  // holds its state (isAborted, abortError), so nothing set on that object can reach the count's own listeners.
  const controller = new AbortController();
  // Called from the signal's abort listener, where a throw would be an uncaught exception (a Proxy of a signal,
  // revoked before it aborted, throws at the read of its reason): the count rejects with that error instead.
  const follow = (): void => {
    let reason: unknown;
    try {
      reason = abortError(signal);
    } catch (error) {
      reason = error;
    }
    controller.abort(reason);
  };
  if (isAborted(signal)) follow();
  const stopFollowing = signal && !isAborted(signal) ? onAbort(signal, follow) : undefined;
  let failure: { error: unknown } | undefined;
  const pending = new Set<PromiseLike<unknown>>();
  const fail = (error: unknown): void => {
    failure ??= { error };
    controller.abort(failure.error);
  };
  const guarded = (progress: unknown): void => {
    if (failure) return;
    try {
      const returned = onProgress?.(progress) as PromiseLike<unknown> | undefined;
      if (typeof returned?.then !== 'function') return;
      pending.add(returned);
      Promise.resolve(returned).then(() => pending.delete(returned), fail);
    } catch (error) {
      fail(error);
    }
  };
  return {
    options: { ...options, onProgress: (onProgress && guarded) as O['onProgress'], signal: controller.signal },
    async finish() {
      // Settled one by one: a promise that rejects after the last report still fails the count.
      const stopped = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), ONCE));
      while (pending.size > 0 && !failure) {
        if (controller.signal.aborted) throw abortError(signal);
        await Promise.race([Promise.allSettled([...pending]), stopped]);
      }
      // An abort during the last report (or while its promises settled) rejects the count, as on every engine:
      // the count has not resolved yet (the reference engine's last slice had already ended there, and resolved).
      if (!failure && controller.signal.aborted) throw abortError(signal);
      if (!failure) return;
      // What onProgress threw or rejected with, as it was (the user's error, not one of ours to code).
      const { error } = failure;
      throw error;
    },
    release: () => stopFollowing?.(),
    failure: (error) => (failure ? failure.error : error),
  };
}
