// An aborted count rejects with the signal's reason, as fetch does: the
// reason itself when abort() was given one, a DOMException named AbortError
// when not; on the calling thread and on workers, for count and completions,
// aborted before the call and during it.
import { describe, expect, it } from 'vitest';
import { count, countCompletions } from '../dist/index.js';

const reason = new Error('the user left');

type OnProgress = (progress: { readonly fraction: number }) => void;
const paths = [
  [
    'count, calling thread',
    (signal: AbortSignal, onProgress?: OnProgress) => count(16, { threads: 1, algorithm: 'search', engine: 'js', signal, onProgress }),
  ],
  ['count, 2 workers', (signal: AbortSignal, onProgress?: OnProgress) => count(17, { threads: 2, signal, onProgress })],
  [
    'countCompletions, 2 workers',
    (signal: AbortSignal, onProgress?: OnProgress) => countCompletions(19, [[0, 3]], { threads: 2, signal, onProgress }),
  ],
] as const;

/** Aborts at the first report before the end: the count is running then, whatever the machine's speed. */
function abortWhileCounting(controller: AbortController, ...reason: unknown[]): OnProgress {
  return (p) => {
    if (p.fraction < 1 && !controller.signal.aborted) controller.abort(...reason);
  };
}

describe.each(paths)('%s', (_path, run) => {
  it('abort(reason) before the call rejects with the reason itself', async () => {
    const controller = new AbortController();
    controller.abort(reason);
    await expect(run(controller.signal)).rejects.toBe(reason);
  });

  it('abort(reason) during the count rejects with the reason itself', async () => {
    const controller = new AbortController();
    await expect(run(controller.signal, abortWhileCounting(controller, reason))).rejects.toBe(reason);
    expect(controller.signal.aborted).toBe(true);
  });

  it('abort() without a reason rejects with a DOMException named AbortError', async () => {
    const controller = new AbortController();
    await expect(run(controller.signal, abortWhileCounting(controller))).rejects.toMatchObject({ name: 'AbortError' });
    expect(controller.signal.aborted).toBe(true);
  });
});
