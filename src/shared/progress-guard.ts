// A user's onProgress fails the count it reports on, never the process: it
// is called from timers and worker messages, where a throw would be an
// uncaught exception and a rejected promise an unhandled rejection. Its
// first failure aborts the count (through a signal of its own, which also
// follows the caller's) and becomes what the count rejects with.
import type { AbortSignalLike } from './abort.js';

/**
 * Runs a count with `options`' onProgress and signal guarded: a throw or a
 * rejected promise from onProgress aborts the count and rejects it with that
 * error; promises onProgress returned are waited for before the result.
 */
export async function withGuardedProgress<
  O extends { onProgress?: ((progress: never) => void) | undefined; signal?: AbortSignalLike | undefined },
  R,
>(options: O, run: (guarded: O) => Promise<R>): Promise<R> {
  const { signal } = options;
  const onProgress = options.onProgress as ((progress: unknown) => unknown) | undefined;
  if (!onProgress) return run(options);
  const controller = new AbortController();
  const follow = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) follow();
  else signal?.addEventListener('abort', follow, { once: true });
  let failure: { error: unknown } | undefined;
  const pending = new Set<PromiseLike<unknown>>();
  const fail = (error: unknown): void => {
    failure ??= { error };
    controller.abort(failure.error);
  };
  const guarded = (progress: unknown): void => {
    if (failure) return;
    try {
      const returned = onProgress(progress) as PromiseLike<unknown> | undefined;
      if (typeof returned?.then !== 'function') return;
      pending.add(returned);
      Promise.resolve(returned).then(() => pending.delete(returned), fail);
    } catch (error) {
      fail(error);
    }
  };
  try {
    const result = await run({ ...options, onProgress: guarded as O['onProgress'], signal: controller.signal });
    // Settled one by one: a promise that rejects after the last report still fails the count.
    while (pending.size > 0 && !failure) await Promise.allSettled([...pending]);
    if (!failure) return result;
    // What onProgress threw or rejected with, as it was.
    const { error } = failure;
    throw error;
  } finally {
    signal?.removeEventListener('abort', follow);
  }
}
