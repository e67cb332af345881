// An onProgress that throws, or returns a promise that rejects, fails the
// count it reports on with that error: never an uncaught exception or an
// unhandled rejection that ends the process (it is called from timers and
// worker messages). Its promises are waited for, until the caller aborts.
// Run in a child process, so that a crash shows as one.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { count, countCompletions } from '../dist/index.js';
import { guardProgress } from '../dist/shared/progress-guard.js';

const SCRIPT = `import { count, countCompletions } from './dist/index.js';
const bad = new Error('from onProgress');
const later = () => new Promise((_, reject) => setTimeout(() => reject(bad), 50));
let k = 0;
// A clock a second further on at every look: every look at it may report, so the third report comes however fast
// this machine counts (on the real clock, count(15) on 2 workers can end within 100 ms: a first and a last report only).
const onFastClock = async (counting) => {
  const real = performance.now;
  let t = real.call(performance);
  performance.now = () => (t += 1000);
  try {
    return await counting();
  } finally {
    performance.now = real;
  }
};
const cases = {
  'count, this thread, rejected promise': () => count(10, { threads: 1, onProgress: () => Promise.reject(bad) }),
  'count, this thread, async function': () => count(12, { onProgress: async () => { throw bad; } }),
  'count, 2 workers, rejected promise': () => count(15, { threads: 2, onProgress: () => Promise.reject(bad) }),
  'count, 2 workers, third report throws': () =>
    onFastClock(() => count(15, { threads: 2, onProgress: (p) => { if (++k === 3 && p.fraction < 1) throw bad; } })),
  'count, join, last report rejects later': () => count(16, { onProgress: (p) => (p.fraction === 1 ? later() : undefined) }),
  'count, reference, rejected promise': () => count(8, { engine: 'reference', onProgress: () => Promise.reject(bad) }),
  'countCompletions, rejected promise': () => countCompletions(12, [[0, 1]], { onProgress: () => Promise.reject(bad) }),
  'countCompletions, 2 workers, throws': () => countCompletions(14, [[0, 1]], { threads: 2, onProgress: () => { throw bad; } }),
  'countCompletions, no queens, rejected promise': () => countCompletions(10, [], { onProgress: () => Promise.reject(bad) }),
  'countCompletions, reference, throws': () => countCompletions(8, [[0, 1]], { engine: 'reference', onProgress: () => { throw bad; } }),
  'count, resolved promises': () => count(12, { onProgress: async () => {} }),
  'count, promises that never settle, then abort': () => {
    const stop = new AbortController();
    const onProgress = (p) => {
      if (p.fraction === 1) setTimeout(() => stop.abort(), 10);
      return new Promise(() => {});
    };
    return count(12, { signal: stop.signal, onProgress });
  },
  'countCompletions, promises that never settle, then abort': () => {
    const stop = new AbortController();
    const onProgress = (p) => {
      if (p.fraction === 1) setTimeout(() => stop.abort(), 10);
      return new Promise(() => {});
    };
    return countCompletions(12, [[0, 1]], { signal: stop.signal, onProgress });
  },
};
for (const [name, run] of Object.entries(cases)) {
  const outcome = await run().then((r) => 'resolved ' + r.total, (e) => (e === bad ? 'rejected with the error' : 'rejected with ' + e));
  console.log(name + ': ' + outcome);
}
`;

describe('an onProgress that fails', () => {
  it('rejects the count with its error, on every path, and the process goes on', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual([
      'count, this thread, rejected promise: rejected with the error',
      'count, this thread, async function: rejected with the error',
      'count, 2 workers, rejected promise: rejected with the error',
      'count, 2 workers, third report throws: rejected with the error',
      'count, join, last report rejects later: rejected with the error',
      'count, reference, rejected promise: rejected with the error',
      'countCompletions, rejected promise: rejected with the error',
      'countCompletions, 2 workers, throws: rejected with the error',
      'countCompletions, no queens, rejected promise: rejected with the error',
      'countCompletions, reference, throws: rejected with the error',
      'count, resolved promises: resolved 14200',
      'count, promises that never settle, then abort: rejected with AbortError: This operation was aborted',
      'countCompletions, promises that never settle, then abort: rejected with AbortError: This operation was aborted',
    ]);
  });
});

describe('an onProgress that throws undefined', () => {
  // Before: abort(undefined) put an AbortError in the signal, and the count rejected with that.
  it.each([
    ['count on this thread', () => count(12, { threads: 1, onProgress: throwUndefined })],
    // From a report with work done: thrown at the start report, the count failed before its workers' job began.
    ['count on 2 workers', () => count(15, { threads: 2, onProgress: (p) => p.fraction > 0 && throwUndefined() })],
    ['count, a promise rejected with undefined', () => count(12, { onProgress: () => Promise.reject(undefined) })],
    ['countCompletions', () => countCompletions(12, [[0, 1]], { onProgress: throwUndefined })],
  ])('%s: rejects with undefined itself', async (_what, run) => {
    let outcome: unknown = 'resolved';
    await run().catch((error: unknown) => (outcome = error));
    expect(outcome).toBeUndefined();
  });
});

/** What a caller's callback may do. */
function throwUndefined(): never {
  throw undefined;
}

describe('the guard around onProgress (src/shared/progress-guard.ts)', () => {
  it('after its first failure onProgress is not called again, and the count fails with that first failure', async () => {
    const first = new Error('first');
    const calls: number[] = [];
    const guard = guardProgress({
      onProgress: (p: number) => {
        calls.push(p);
        if (p === 2) throw first;
        if (p === 3) throw new Error('never thrown: no call after the first failure');
      },
    });
    for (const p of [1, 2, 3, 4]) (guard.options.onProgress as (p: number) => void)(p);
    expect(calls).toEqual([1, 2]);
    expect((guard.options as { signal?: AbortSignal }).signal?.aborted).toBe(true);
    await expect(guard.finish()).rejects.toBe(first);
    expect(guard.failure(new Error('the count’s own'))).toBe(first);
  });

  it('of two returned promises that reject, the one that rejected first is what the count fails with', async () => {
    const deferred = () => {
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((_, r) => (reject = r));
      return { promise, reject };
    };
    const [a, b] = [deferred(), deferred()];
    const returned = [a.promise, b.promise];
    const guard = guardProgress({ onProgress: () => returned.shift() });
    const report = guard.options.onProgress as (p: unknown) => void;
    report(1);
    report(2);
    const [errorA, errorB] = [new Error('a'), new Error('b')];
    a.reject(errorA);
    await Promise.resolve();
    b.reject(errorB);
    await expect(guard.finish()).rejects.toBe(errorA);
  });
});
