// Engine 'reference' counts on the calling thread in slices that let the
// event loop run, so its signal can stop it and the process stays
// responsive. countCompletions() once ran the whole backtracking in one
// synchronous call: an abort was never seen (the count resolved with its
// total) and no timer or message ran meanwhile. count() looked at the clock
// only every 256 solutions, so where solutions are rare (large n) a slice
// lasted until the 256th: seconds at n = 24, minutes at n = 32, the abort unseen.
import { describe, expect, it, vi } from 'vitest';
import { count, countCompletions, countCompletionsSync, type CompletionsProgress, type Progress, type Queen } from '../dist/index.js';
import { SLICE_MS } from '../dist/shared/slices.js';
import { TOTAL as OEIS_TOTAL, UNIQUE as OEIS_UNIQUE } from './oeis.js';

/**
 * Runs `counting` on a clock a second further on at every look (a slice is SLICE_MS, reports at most every 100 ms):
 * each look at it ends a slice and reports, however fast this machine counts. On the real clock, a machine some 15x
 * faster than this one counted N in one slice, and the checks of the slices below failed.
 */
async function onFastClock<T>(counting: () => Promise<T>): Promise<T> {
  expect(SLICE_MS).toBeLessThan(1000);
  let t = performance.now();
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
  try {
    return await counting();
  } finally {
    clock.mockRestore();
  }
}

// Many slices of the reference backtracking (about 0.3 s here), exact on every engine.
const N = 15;
const PLACED: Queen[] = [
  [3, 4],
  [9, 2],
];
const TOTAL = 14057n;

describe("countCompletions with engine 'reference'", () => {
  it('agrees with the fast engines (the sync reference too)', () => {
    expect(countCompletionsSync(N, PLACED, { engine: 'wasm' }).total).toBe(TOTAL);
    expect(countCompletionsSync(N, PLACED, { engine: 'js' }).total).toBe(TOTAL);
    expect(countCompletionsSync(N, PLACED, { engine: 'reference' }).total).toBe(TOTAL);
  });

  it('an abort from the event loop during the count rejects with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const outcome = onFastClock(() => {
      const running = countCompletions(N, PLACED, { engine: 'reference', signal: controller.signal });
      // Runs at the event loop's first turn after the call: only while the count lets it run.
      setImmediate(() => controller.abort(reason));
      return running;
    });
    await expect(outcome).rejects.toBe(reason);
  });

  it('lets the event loop run while it counts, and reports up to exactly 1 with the total', async () => {
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const reports: CompletionsProgress[] = [];
    const r = await onFastClock(() => countCompletions(N, PLACED, { engine: 'reference', onProgress: (p) => reports.push(p) }));
    counting = false;
    expect(r).toMatchObject({ n: N, total: TOTAL, engine: 'reference', threads: 1 });
    expect(turns).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ finished: 0, units: 1, fraction: 0, total: 0n });
    expect(reports.at(-1)).toMatchObject({ finished: 1, units: 1, fraction: 1, total: TOTAL });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i].fraction).toBeGreaterThanOrEqual(reports[i - 1].fraction);
      expect(reports[i].total).toBeGreaterThanOrEqual(reports[i - 1].total);
    }
    expect(reports.slice(0, -1).every((p) => p.fraction < 1)).toBe(true);
  });
});

describe("count with engine 'reference'", () => {
  it('n = 24 (solutions rare): an abort from the event loop rejects with its reason, within its first 256 solutions', async () => {
    // 256 solutions take seconds here at n = 24. Every report before the abort comes from the first slice (the old
    // code's first came after the 256th solution, the abort unseen until then).
    const controller = new AbortController();
    const reason = new Error('stop');
    const reports: Progress[] = [];
    const outcome = onFastClock(() => {
      const running = count(24, { engine: 'reference', signal: controller.signal, onProgress: (p) => reports.push(p) });
      setImmediate(() => controller.abort(reason));
      return running;
    });
    await expect(outcome).rejects.toBe(reason);
    expect(reports[0]).toMatchObject({ finished: 0, fraction: 0, total: 0n });
    for (const p of reports) {
      expect(p.total).toBeLessThan(256n);
      expect(p.fraction).toBeLessThan(1);
    }
  });

  it('stays exact, with its progress ending at 1 with the totals', async () => {
    for (const n of [1, 2, 3, 4, 8, 10]) {
      const reports: Progress[] = [];
      const r = await count(n, { engine: 'reference', onProgress: (p) => reports.push(p) });
      expect([r.total, r.unique]).toEqual([OEIS_TOTAL[n], OEIS_UNIQUE[n]]);
      expect(reports.at(-1)).toMatchObject({ fraction: 1, finished: n, units: n, total: OEIS_TOTAL[n], unique: OEIS_UNIQUE[n] });
    }
  });

  it('reports no sooner than 100 ms after its last report returned: a slow onProgress slows the reports, not the count', async () => {
    // A clock that moves 10 ms a look, and 150 ms in each report (a slow callback): before, the interval ran from the
    // report's start, so every look after a report found 100 ms gone and reported again, back to back.
    let t = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (t += 10));
    const calls: { start: number; end: number; fraction: number }[] = [];
    try {
      const r = await count(11, {
        engine: 'reference',
        onProgress: (p) => {
          const start = t;
          t += 150;
          calls.push({ start, end: t, fraction: p.fraction });
        },
      });
      expect(r.total).toBe(OEIS_TOTAL[11]);
    } finally {
      clock.mockRestore();
    }
    expect(calls.length).toBeGreaterThan(2);
    // Every report but the last (which always comes) starts at least 100 ms after the one before it returned.
    for (let i = 1; i < calls.length - 1; i++) expect(calls[i].start - calls[i - 1].end).toBeGreaterThanOrEqual(100);
    expect(calls.at(-1)!.fraction).toBe(1);
  });
});

describe("engine 'reference' takes turns with every count on the calling thread", () => {
  it.each([
    ['count', (signal: AbortSignal, onProgress: () => void) => count(24, { engine: 'reference', signal, onProgress })],
    [
      'countCompletions',
      (signal: AbortSignal, onProgress: () => void) => countCompletions(24, [[0, 3]], { engine: 'reference', signal, onProgress }),
    ],
  ])('%s: its first slice waits for a turn too, and the counts count one a turn', async (_, run) => {
    // A turn for whatever the last test left asked for (a turn given before this test's first would count in its turn 0).
    await new Promise((resolve) => setImmediate(resolve));
    // A clock that every look finds a slice over, and a report due: each slice ends at its first look and reports.
    let clock = 0;
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1000));
    // A turn of the event loop: a probe that sets itself up again with setImmediate runs once in each.
    let turn = 0;
    let probing = true;
    const probe = (): void => void (probing && (turn++, setImmediate(probe)));
    setImmediate(probe);
    const controller = new AbortController();
    /** [count, turn] of each report. */
    const reports: [number, number][] = [];
    try {
      const counts = [0, 1, 2].map((me) =>
        run(controller.signal, () => {
          reports.push([me, turn]);
          if (turn >= 12) controller.abort();
        }),
      );
      for (const counting of counts) await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      spy.mockRestore();
      probing = false;
    }
    // Before the first turn, each count's report of its start alone (before, each counted a slice and reported it too).
    expect(reports.filter(([, t]) => t === 0)).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    const countsOfTurn = new Map<number, Set<number>>();
    for (const [me, t] of reports) if (t > 0) countsOfTurn.set(t, (countsOfTurn.get(t) ?? new Set()).add(me));
    expect([...countsOfTurn.values()].map((counts) => counts.size)).toEqual([...countsOfTurn.values()].map(() => 1));
    expect(new Set(reports.map(([me]) => me))).toEqual(new Set([0, 1, 2]));
  });
});
