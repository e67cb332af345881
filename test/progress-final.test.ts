// The last progress report carries the exact counts, whatever the method:
// the join's unique count follows from the whole total, so it arrives with
// the last report (it was 0 there while the result had it right).
import { describe, expect, it, vi } from 'vitest';
import { count, countCompletions, type CompletionsProgress, type Progress } from '../dist/index.js';
import { NOTHING_DONE, RunProgress } from '../dist/run/run-progress.js';
import { runMethod } from '../dist/run/runner.js';
import { range, TOTAL, UNIQUE } from './oeis.js';
import { methodForCount } from '../dist/run/methods.js';

describe.each(['join', 'search'] as const)('algorithm %s', (algorithm) => {
  it.each([1, 2])('n = 13 on %i thread(s): the last report has the exact total and unique count, and units', async (threads) => {
    const reports: Progress[] = [];
    const r = await count(13, { algorithm, threads, onProgress: (p) => reports.push(p) });
    expect(reports.length).toBeGreaterThan(0);
    const last = reports.at(-1)!;
    expect([last.total, last.unique, last.fraction, last.finished]).toEqual([TOTAL[13], UNIQUE[13], 1, last.units]);
    expect(last.subproblems).toBe(last.units);
    expect([r.total, r.unique]).toEqual([TOTAL[13], UNIQUE[13]]);
    // The join's unique count follows from the whole total (Burnside): 0 in every report before the last
    // (the first, at a total of 0, included), never Burnside's lemma applied to a part.
    if (algorithm === 'join') expect(reports.slice(0, -1).map((p) => p.unique)).toEqual(reports.slice(0, -1).map(() => 0n));
  });
});

describe('the phase', () => {
  it('a join count on workers reports at its start, in phase tables, then counting to the end', async () => {
    const reports: Progress[] = [];
    await count(16, { algorithm: 'join', threads: 2, onProgress: (p) => reports.push(p) });
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports[0]).toMatchObject({ phase: 'tables', finished: 0, fraction: 0 });
    expect(reports.at(-1)).toMatchObject({ phase: 'counting', fraction: 1 });
    const firstCounting = reports.findIndex((p) => p.phase === 'counting');
    expect(firstCounting).toBeGreaterThan(0);
    expect(reports.slice(firstCounting).every((p) => p.phase === 'counting')).toBe(true);
  });

  it('the search has no tables: counting from its first report', async () => {
    const reports: Progress[] = [];
    await count(12, { algorithm: 'search', threads: 2, onProgress: (p) => reports.push(p) });
    expect(reports.length).toBeGreaterThanOrEqual(2); // the first report and the last, at least
    expect(reports.map((p) => p.phase)).toEqual(reports.map(() => 'counting'));
  });
});

/** Solutions with a queen in the corner (row 0, column 0), n = 1..9: 1, 0, 0, 0, 2, 0, 4, 4, 28. */
const CORNER: Record<number, bigint> = { 1: 1n, 2: 0n, 3: 0n, 4: 0n, 5: 2n, 6: 0n, 7: 4n, 8: 4n, 9: 28n };

describe('the first and the last report, at every small n (n = 2 and 3 have no units)', () => {
  const engines = ['wasm', 'js', 'reference'] as const;
  it.each(range(1, 9).flatMap((n) => engines.map((engine) => [n, engine] as const)))(
    'n = %i, engine %s: a start at fraction 0, an end at 1 with the exact counts',
    async (n, engine) => {
      const reports: Progress[] = [];
      await count(n, { engine, onProgress: (p) => reports.push(p) });
      expect(reports.length).toBeGreaterThanOrEqual(2);
      expect(reports[0]).toMatchObject({ finished: 0, fraction: 0, total: 0n });
      expect(reports.at(-1)).toMatchObject({ fraction: 1, total: TOTAL[n], unique: UNIQUE[n] });
      const completions: CompletionsProgress[] = [];
      const c = await countCompletions(n, [], { engine, onProgress: (p) => completions.push(p) });
      expect(completions.map((p) => p.fraction)).toEqual([0, ...completions.slice(1, -1).map((p) => p.fraction), 1]);
      expect(completions.at(-1)?.total).toBe(c.total);
      expect(c.total).toBe(TOTAL[n]);
      // With a queen placed (a count of its own, not the whole board's): before, 'reference' reported its end only.
      const cornered: CompletionsProgress[] = [];
      const corner = await countCompletions(n, [[0, 0]], { engine, onProgress: (p) => cornered.push(p) });
      expect(cornered.map((p) => p.fraction)).toEqual([0, ...cornered.slice(1, -1).map((p) => p.fraction), 1]);
      expect(cornered[0].total).toBe(0n);
      expect([cornered.at(-1)?.total, corner.total]).toEqual([CORNER[n], CORNER[n]]);
    },
  );
});

describe("the reference engine's completions, stopped at their start report", () => {
  // Before: the count ran on to its end after its start report threw or aborted, and resolved.
  it('an onProgress that throws at fraction 0 rejects with that error; the count never reaches its end', async () => {
    const fractions: number[] = [];
    const stop = new Error('stop at 0');
    const job = countCompletions(12, [[0, 5]], {
      engine: 'reference',
      onProgress: (p) => {
        fractions.push(p.fraction);
        throw stop;
      },
    });
    await expect(job).rejects.toBe(stop);
    expect(fractions).toEqual([0]);
  });

  it('a signal aborted from the start report rejects with an AbortError', async () => {
    const controller = new AbortController();
    const fractions: number[] = [];
    const job = countCompletions(12, [[0, 5]], {
      engine: 'reference',
      signal: controller.signal,
      onProgress: (p) => {
        fractions.push(p.fraction);
        controller.abort();
      },
    });
    await expect(job).rejects.toMatchObject({ name: 'AbortError' });
    expect(fractions).toEqual([0]);
  });
});

/** A stand-in plan of 100 units of equal work, each solution counted once (RunProgress reads no more). */
const HUNDRED_UNITS = {
  n: 8,
  units: 100,
  bytesPerThread: 0,
  workIn: (from: number, to: number) => to - from,
  workOf: () => 1,
  contribution: (_: number, c: bigint) => ({ total: c, unique8: c }),
  uniqueOf: (total: bigint) => total,
};

describe('a slow onProgress', () => {
  // The interval runs from the end of the last callback: counted from its start, a callback slower than the
  // interval was called again on every result, and count(15) on 2 workers with a 101 ms callback took minutes.
  it('is called again only 100 ms after it returned (a fake clock; the callback takes 150 ms of it)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const calls: number[] = [];
      const onProgress = (p: Progress): void => {
        calls.push(p.elapsedMs);
        vi.advanceTimersByTime(150);
      };
      const progress = new RunProgress(HUNDRED_UNITS as never, { from: 0, to: 100, already: NOTHING_DONE, onProgress, intervalMs: 100 });
      progress.report(true);
      for (let id = 0; id < 100; id++) {
        vi.advanceTimersByTime(10); // a result every 10 ms
        progress.record(id, 1n);
      }
      // Start, then a report 100 ms after each callback ended (every 26 results: 150 + 10 x 11 > 250), then the last.
      expect(calls.length).toBeLessThanOrEqual(2 + Math.ceil((100 * 10 + 99 * 150) / 250));
      for (let i = 1; i < calls.length - 1; i++) expect(calls[i] - calls[i - 1]).toBeGreaterThanOrEqual(250);
      expect(calls.length).toBeGreaterThan(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("count(15) on 2 workers: the runner's reports also start 100 ms after the last callback ended (a fake clock)", async () => {
    // The clock moves only as the test says (1 ms a unit, 150 ms a callback), so the reports, workers and all,
    // are the same on every machine: every 100th unit, then the last. (A real 101 ms callback could not tell:
    // on a fast machine count(15) ends within the first callback's interval, with only a first and a last report.)
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const plan = methodForCount(15, 'search', 1, 0);
      const calls: number[] = [];
      const r = await runMethod(plan, {
        engine: 'wasm',
        threads: 2,
        onUnit: () => vi.advanceTimersByTime(1),
        onProgress: (p) => {
          calls.push(p.elapsedMs);
          vi.advanceTimersByTime(150);
        },
      });
      expect([r.total, r.unique, r.threads]).toEqual([TOTAL[15], UNIQUE[15], 2]);
      // Reports at 0, 250, 500, ...: each 100 ms (100 units) after the last callback's end; then the last, forced.
      const every = Math.floor((plan.units - 1) / 100);
      const expected = [...range(0, every).map((i) => 250 * i), 150 * (every + 1) + plan.units];
      expect(plan.units).toBeGreaterThan(1000);
      expect(calls).toEqual(expected);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the first report comes after the call has returned its promise', () => {
  // Before: count() reported its start inside the call, so `const job = count(n, { onProgress: () => use(job) })` threw a ReferenceError.
  const cases = range(1, 14).flatMap((n) =>
    (['search', 'join'] as const).flatMap((algorithm) =>
      (['wasm', 'js'] as const).flatMap((engine) => [0, 1, 2].map((threads) => [n, algorithm, engine, threads] as const)),
    ),
  );
  it.each(cases)('count(%i, { algorithm: %s, engine: %s, threads: %i })', async (n, algorithm, engine, threads) => {
    let returned = false;
    const seen: boolean[] = [];
    const job = count(n, { algorithm, engine, threads: threads || undefined, onProgress: () => seen.push(returned && job !== undefined) });
    returned = true;
    expect((await job).total).toBe(TOTAL[n]);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every(Boolean)).toBe(true);
  });

  it.each(range(4, 12))('countCompletions(%i) with and without placed queens', async (n) => {
    for (const placed of [[], [[0, 1]]] as [number, number][][]) {
      let returned = false;
      const seen: boolean[] = [];
      const job = countCompletions(n, placed, { onProgress: () => seen.push(returned) });
      returned = true;
      await job;
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(seen.every(Boolean)).toBe(true);
    }
  });
});

describe('a resumed count (a checkpoint)', () => {
  it('reports the share done before this run as resumedFraction, from its first report to its last', () => {
    const seen: Progress[] = [];
    // 40 of the 100 units' work was done before this run (what a checkpoint held).
    const already = { finished: 40, total: 40n, unique8: 40n, work: 40 };
    const progress = new RunProgress(HUNDRED_UNITS as never, { from: 0, to: 100, already, onProgress: (p) => seen.push(p), intervalMs: 0 });
    progress.report(true);
    for (let id = 40; id < 100; id++) progress.record(id, 1n);
    progress.report(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => p.resumedFraction)).toEqual(seen.map(() => 0.4));
    expect([seen[0].fraction, seen[0].finished, seen.at(-1)!.fraction, seen.at(-1)!.total]).toEqual([0.4, 40, 1, 100n]);
  });
});

describe("a slice's unique count (a shard)", () => {
  // Burnside (the plan's uniqueOf) holds for the whole plan's total only: a slice's last report, finished as it is,
  // carries its own unique8 / 8. The stand-in's uniqueOf (a thousand a solution) shows where it would be applied.
  const burnside = { ...HUNDRED_UNITS, uniqueOf: (total: bigint) => total * 1000n };
  it.each([
    [0, 50, 50n],
    [50, 100, 50n],
    [0, 100, 800_000n],
  ])('units %i..%i: the last report says unique %s', (from, to, unique) => {
    const seen: Progress[] = [];
    const progress = new RunProgress(burnside as never, {
      from,
      to,
      already: NOTHING_DONE,
      onProgress: (p) => seen.push(p),
      intervalMs: 0,
    });
    progress.report(true);
    for (let id = from; id < to; id++) progress.record(id, 8n); // 8 solutions a unit, each in its own class: unique8 8
    expect(seen.at(-1)).toMatchObject({ finished: to - from, fraction: 1, total: BigInt(8 * (to - from)), unique });
    expect(progress.unique()).toBe(unique);
  });
});
