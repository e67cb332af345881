// An aborted count rejects with the signal's reason, as fetch does: the
// reason itself when abort() was given one, a DOMException named AbortError
// when not; on the calling thread and on workers, for count and completions,
// aborted before the call and during it.
import { describe, expect, it, vi } from 'vitest';
import { count, countCompletions, countCompletionsSync, type Queen } from '../dist/index.js';
import { TOTAL } from './oeis.js';
import { waitingOn } from '../dist/shared/abort.js';
import { runMethod } from '../dist/run/runner.js';
import { methodForCount } from '../dist/run/methods.js';

const reason = new Error('the user left');

type OnProgress = (progress: { readonly fraction: number }) => void;
/** Each path, and the report it is aborted at during the count (`fraction`: that report's). */
const paths = [
  [
    'count, calling thread',
    (signal: AbortSignal, onProgress?: OnProgress) => count(16, { threads: 1, algorithm: 'search', engine: 'js', signal, onProgress }),
    // The first report before the end (its start, fraction 0): the calling thread sees the abort before any worker.
    (fraction: number) => fraction < 1,
  ],
  // On workers: a report with work done, so their pool is counting (a report at the start, before the pool's job, left
  // the workers' way of aborting untried). The completion count's work is the workers' alone.
  [
    'count, 2 workers',
    (signal: AbortSignal, onProgress?: OnProgress) => count(17, { threads: 2, signal, onProgress }),
    (fraction: number) => fraction > 0 && fraction < 1,
  ],
  [
    'countCompletions, 2 workers',
    (signal: AbortSignal, onProgress?: OnProgress) => countCompletions(18, [[0, 3]], { threads: 2, signal, onProgress }),
    (fraction: number) => fraction > 0 && fraction < 1,
  ],
] as const;

/** Aborts at the first report `at` says, before the end: the count is running then, whatever the machine's speed. */
function abortWhileCounting(at: (fraction: number) => boolean, controller: AbortController, ...reason: unknown[]): OnProgress {
  return (p) => {
    if (at(p.fraction) && !controller.signal.aborted) controller.abort(...reason);
  };
}

describe.each(paths)('%s', (_path, run, at) => {
  it('abort(reason) before the call rejects with the reason itself', async () => {
    const controller = new AbortController();
    controller.abort(reason);
    await expect(run(controller.signal)).rejects.toBe(reason);
  });

  it('abort(reason) during the count rejects with the reason itself', async () => {
    const controller = new AbortController();
    await expect(run(controller.signal, abortWhileCounting(at, controller, reason))).rejects.toBe(reason);
    expect(controller.signal.aborted).toBe(true);
  });

  it('abort() without a reason rejects with a DOMException named AbortError', async () => {
    const controller = new AbortController();
    await expect(run(controller.signal, abortWhileCounting(at, controller))).rejects.toMatchObject({ name: 'AbortError' });
    expect(controller.signal.aborted).toBe(true);
  });
});

describe('one signal shared by many counts at once', () => {
  it('20 counts with and without onProgress, on workers and not: no leak warning, and one abort rejects them all with its reason', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const { signal } = controller;
      // Before: a listener each on the signal, and Node warned "11 abort listeners added to [AbortSignal]".
      const finished = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          count(10 + (i % 3), { signal, threads: i % 2 ? 2 : 1, onProgress: i % 4 < 2 ? () => {} : undefined }),
        ),
      );
      expect(finished.map((r) => r.total)).toEqual(finished.map((_, i) => [724n, 2680n, 14200n][i % 3]));
      // Each finished count took back what it waited for on the signal: one kept for thousands of counts holds none of them.
      expect(waitingOn(signal)).toBe(0);
      // The first count's first progress inside its work aborts them all (each has 1,000 units of n = 17 to go).
      const abortOnProgress = (p: { fraction: number }): void => void (p.fraction > 0 && controller.abort(reason));
      const running = Array.from({ length: 20 }, (_, i) =>
        count(17, {
          signal,
          algorithm: 'join',
          threads: i % 2 ? 2 : 1,
          onProgress: i === 0 ? abortOnProgress : i % 4 < 2 ? () => {} : undefined,
        }),
      );
      const settled = await Promise.allSettled(running);
      expect(settled.map((s) => (s.status === 'rejected' ? s.reason : s.status))).toEqual(running.map(() => reason));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});

describe("a signal with properties of its own that shadow AbortSignal's", () => {
  /** A real signal whose own `reason` getter throws, as a careless wrapper's might: not read, the platform's is. */
  function throwingReason(controller: AbortController): AbortSignal {
    return Object.defineProperty(controller.signal, 'reason', {
      get() {
        throw new Error('from the reason getter');
      },
    });
  }
  const onWorkers = (signal: AbortSignal, onProgress?: OnProgress) => count(13, { threads: 2, signal, onProgress });
  const counts = [
    ['count, calling thread', (signal: AbortSignal, onProgress?: OnProgress) => count(13, { threads: 1, signal, onProgress })],
    ['count, 2 workers', onWorkers],
    [
      'countCompletions, 2 workers',
      (signal: AbortSignal, onProgress?: OnProgress) => countCompletions(14, [[0, 1]], { threads: 2, signal, onProgress }),
    ],
  ] as const;

  it.each(counts)('%s: aborted during the count, it rejects with the AbortError, nothing thrown from a listener', async (_, run) => {
    // Before: the getter threw inside the abort listeners (an uncaught exception, which vitest reports), and the count
    // went on to its total (with onProgress) or never settled (without).
    const controller = new AbortController();
    const signal = throwingReason(controller);
    const abortAtStart: OnProgress = () => controller.abort();
    await expect(run(signal, abortAtStart)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it.each(counts)('%s: aborted right after the call, without onProgress, it rejects with the AbortError', async (_, run) => {
    const controller = new AbortController();
    const running = run(throwingReason(controller));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });

  it.each(counts)("%s: aborted before the call, it rejects with the reason abort() gave, not the getter's throw", async (_, run) => {
    const controller = new AbortController();
    const reason = new Error('given to abort()');
    controller.abort(reason);
    await expect(run(throwingReason(controller))).rejects.toBe(reason);
  });

  it('an own `aborted` that says false hides no abort: the count rejects with the reason', async () => {
    // Before: the count ran to its total.
    const signal = Object.defineProperty(AbortSignal.abort(reason), 'aborted', { value: false });
    await expect(count(8, { signal })).rejects.toBe(reason);
    await expect(countCompletions(8, [[0, 0]], { signal })).rejects.toBe(reason);
    await expect(onWorkers(signal)).rejects.toBe(reason);
  });
});

describe("a signal whose own addEventListener shadows EventTarget's", () => {
  /** A real signal with an own addEventListener: one that throws, or one that drops the listener. */
  const shadowed = (controller: AbortController, listen: () => void): AbortSignal =>
    Object.defineProperty(controller.signal, 'addEventListener', { value: listen });
  const listeners = [
    [
      'throws',
      () => {
        throw new Error('from addEventListener');
      },
    ],
    ['drops the listener', () => undefined],
  ] as const;

  it.each(listeners)(
    "one that %s: the count follows the platform's events, exact when not aborted, the reason when aborted",
    async (_, listen) => {
      // Before: a throwing one failed the call with its error; one that dropped the listener never let an abort arrive.
      expect(await count(10, { signal: shadowed(new AbortController(), listen) })).toMatchObject({ total: 724n });
      const controller = new AbortController();
      const running = count(13, { threads: 2, signal: shadowed(controller, listen), onProgress: () => controller.abort(reason) });
      await expect(running).rejects.toBe(reason);
    },
  );
});

describe('200 counts at once, some aborted', () => {
  it("each ends exact or rejected with its own reason: aborted before the call, in a microtask, or from its own or another count's progress", async () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const controllers = Array.from({ length: 200 }, () => new AbortController());
    const expected: { total: bigint; abortedBefore: boolean }[] = [];
    const running = controllers.map((controller, i) => {
      const n = pick([6, 8, 10, 11, 12, 13]);
      const placed: Queen[] = pick([[], [[0, 1]]]);
      const completions = random() < 0.3;
      const reason = pick([undefined, `reason ${i}`, new Error(`reason ${i}`)]);
      const abort = (): void => controller.abort(reason);
      const when = random();
      const other = controllers[Math.floor(random() * 200)];
      let reports = 0;
      const onProgress = when < 0.5 ? undefined : when < 0.75 ? () => void (++reports === 2 && abort()) : () => other.abort(`from ${i}`);
      if (when < 0.1) abort();
      else if (when < 0.2) queueMicrotask(abort);
      const options = {
        signal: controller.signal,
        threads: pick([undefined, 1, 2]),
        engine: pick(['auto', 'wasm', 'js'] as const),
        onProgress,
      };
      expected.push({ total: completions ? countCompletionsSync(n, placed).total : TOTAL[n], abortedBefore: when < 0.1 });
      return completions ? countCompletions(n, placed, options) : count(n, options);
    });
    const outcomes = await Promise.allSettled(running);
    const wrong = outcomes.flatMap((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        return outcome.value.total === expected[i].total && !expected[i].abortedBefore ? [] : [`${i}: ${outcome.value.total}`];
      }
      // Rejected: with the reason its signal holds (abort() without one gives an AbortError), and only if it was aborted.
      const { signal } = controllers[i];
      return signal.aborted && outcome.reason === signal.reason ? [] : [`${i}: ${String(outcome.reason)}`];
    });
    expect(wrong).toEqual([]);
    // Both kinds of outcome happened: the aborts were not all too late, nor every count aborted.
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['fulfilled', 'rejected']));
  }, 60_000);
});

describe('an abort on the calling thread stops the count at the next unit', () => {
  // The clock stands still, so the slice never ends: only the check before each unit is recorded can stop it.
  it('aborted from onUnit at the third unit: no unit is recorded after it (a fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const plan = methodForCount(12, 'search', 1, 0);
      const controller = new AbortController();
      const ids: number[] = [];
      const onUnit = (id: number): void => {
        ids.push(id);
        if (ids.length === 3) controller.abort(reason);
      };
      await expect(runMethod(plan, { engine: 'wasm', threads: 0, signal: controller.signal, onUnit })).rejects.toBe(reason);
      expect(plan.units).toBeGreaterThan(100);
      expect(ids).toEqual([0, 1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
