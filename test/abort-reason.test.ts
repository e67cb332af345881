// An aborted count rejects with the signal's reason, as fetch does: the
// reason itself when abort() was given one, a DOMException named AbortError
// when not; on the calling thread and on workers, for count and completions,
// aborted before the call and during it.
import { describe, expect, it } from 'vitest';
import { count, countCompletions } from '../dist/index.js';

const reason = new Error('the user left');

const paths = [
  ['count, calling thread', (signal: AbortSignal) => count(16, { threads: 1, algorithm: 'search', engine: 'js', signal })],
  ['count, 2 workers', (signal: AbortSignal) => count(17, { threads: 2, signal })],
  ['countCompletions, 2 workers', (signal: AbortSignal) => countCompletions(19, [[0, 3]], { threads: 2, signal })],
] as const;

describe.each(paths)('%s', (_path, run) => {
  it('abort(reason) before the call rejects with the reason itself', async () => {
    const controller = new AbortController();
    controller.abort(reason);
    await expect(run(controller.signal)).rejects.toBe(reason);
  });

  it('abort(reason) during the count rejects with the reason itself', async () => {
    const controller = new AbortController();
    const running = run(controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    await expect(running).rejects.toBe(reason);
  });

  it('abort() without a reason rejects with a DOMException named AbortError', async () => {
    const controller = new AbortController();
    const running = run(controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });
});
