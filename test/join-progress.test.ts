// The join counts a unit in pieces, so that progress moves inside a unit (at
// n = 24 one takes seconds): each piece yields the share done, the pieces add
// up to the unit's count, and two counts suspended in turn on one thread's
// state stay exact.
import { describe, expect, it, vi } from 'vitest';
import { count, countSync, type Progress } from '../dist/index.js';
import { compileJoinModule, joinCounter } from './join-module.js';
import { joinCounterFrom, joinUnitCounter, KEEP_COUNTER_MS, keepsJoinCounter } from '../dist/join/join-counter.js';
import { wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { compactPlanSteps, joinUnitWork } from '../dist/join/join-plan.js';
import { finish } from '../dist/shared/slices.js';
import { joinPlan, planJoin } from './plans.js';
import { batchSize, MAX_BATCH } from '../dist/run/pool.js';
import { HEARTBEAT_MS } from '../dist/run/runner.js';
import { TOTAL } from './oeis.js';

const engines = {
  simd: () => joinCounterFrom('wasm', compileJoinModule('simd')),
  baseline: () => joinCounterFrom('wasm', compileJoinModule('baseline')),
  js: () => joinCounter('js'),
};

/** Runs the stepped counts a piece at a time in turns, calling `between` after each piece but a last; their results. */
function inTurns(steps: Generator<number, bigint, undefined>[], between?: (turn: number) => unknown) {
  const results: (bigint | undefined)[] = steps.map(() => undefined);
  let turns = 0;
  while (results.includes(undefined)) {
    for (const [i, counting] of steps.entries()) {
      if (results[i] !== undefined) continue;
      const step = counting.next();
      if (step.done) results[i] = step.value;
      else between?.(turns);
      turns++;
    }
  }
  return { results, turns };
}

describe.each(Object.keys(engines) as (keyof typeof engines)[])('join units in pieces on %s', (engine) => {
  it.each([13, 14, 15])('n = %i: every unit in pieces of 0 ms adds up to OEIS, with shares rising to 1', (n) => {
    const counter = engines[engine]();
    let total = 0n;
    let split = 0;
    for (const unit of planJoin(n)) {
      const shares: number[] = [];
      const steps = counter.countUnitSteps(n, unit, 0);
      let step = steps.next();
      for (; !step.done; step = steps.next()) shares.push(step.value);
      expect(shares.at(-1)).toBe(1);
      for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1]);
      if (shares.length > 1) split++;
      expect(step.value).toBe(counter.countUnit(n, unit));
      total += BigInt(unit.weight) * step.value;
    }
    expect(total).toBe(TOTAL[n]);
    // Units with more than one piece's probes (at least 64) yield inside the unit (n = 15: 15 of them at least).
    expect(split).toBeGreaterThan(n === 15 ? 10 : 0);
  });

  it('n = 16: two units counted in turns on one counter (each suspended while the other runs) stay exact', () => {
    const counter = engines[engine]();
    const units = planJoin(16);
    const [a, b] = [units[0], units[7]];
    const expected = [counter.countUnit(16, a), counter.countUnit(16, b)];
    const { results, turns } = inTurns([counter.countUnitSteps(16, a, 0), counter.countUnitSteps(16, b, 0)]);
    expect(results).toEqual(expected);
    expect(turns).toBeGreaterThan(4);
    // And a whole unit in between two pieces of another.
    const c = counter.countUnitSteps(16, a, 0);
    c.next();
    expect(counter.countUnit(16, b)).toBe(expected[1]);
    let step = c.next();
    while (!step.done) step = c.next();
    expect(step.value).toBe(expected[0]);
  });

  it('units of different n counted in turns on one counter, and whole units of a third n between pieces, stay exact', () => {
    const counter = engines[engine]();
    const [a, b] = [planJoin(16)[0], planJoin(13)[0]];
    const expected = [counter.countUnit(16, a), counter.countUnit(13, b)];
    const steps = [counter.countUnitSteps(16, a, 0), counter.countUnitSteps(13, b, 0)];
    // Every third turn, a whole unit of n = 14 as well, as countSync inside onProgress would count one.
    const { results, turns } = inTurns(steps, (turn) => turn % 3 === 0 && counter.countUnit(14, planJoin(14)[turn % 5]));
    expect(results).toEqual(expected);
    expect(turns).toBeGreaterThan(4);
  });
});

describe('the wasm counter a thread keeps from count to count (n <= 18)', () => {
  it('stays exact when counts of other n use it between two pieces of a unit, and over calls of countSync', () => {
    const module = wasmModuleOf('join');
    if (!module) throw new Error('the join module did not compile');
    const unit = planJoin(16).find((u) => u.mirrorWeight === 2);
    if (!unit) throw new Error('n = 16 has no unit of two passes');
    const expected = joinCounterFrom('wasm', module).countUnit(16, unit);
    const steps = joinUnitCounter(16, module)(unit);
    expect(steps.next().done).toBe(false); // suspended after its first pass
    // Two counts on the same kept counter meanwhile, the second at n = 17 (its memory laid out again).
    expect(countSync(13, { algorithm: 'join', engine: 'wasm' }).total).toBe(TOTAL[13]);
    for (const other of planJoin(17).slice(0, 3)) joinUnitCounter(17, module)(other).next();
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value).toBe(expected);
    for (const n of [16, 14, 16]) expect(countSync(n, { algorithm: 'join', engine: 'wasm' }).total).toBe(TOTAL[n]);
  });
});

describe('progress inside join units', () => {
  it('count(24) on one worker reports a share of its first unit before any unit finishes', async () => {
    const controller = new AbortController();
    const seen: Progress[] = [];
    const moved = new Promise<Progress>((resolve, reject) => {
      const running = count(24, {
        threads: 1,
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.finished === 0 && p.fraction > 0) resolve(p);
        },
      });
      // A count that ends first fails the test with why, at once (once `moved` has resolved, this changes nothing).
      running.then(() => reject(new Error('count(24) ended before a report inside its first unit')), reject);
    });
    const p = await moved;
    controller.abort();
    // n = 24's largest units take seconds: the first report inside one comes long before it ends.
    expect(p).toMatchObject({ n: 24, phase: 'counting', finished: 0, units: 677294, total: 0n });
    expect(p.fraction).toBeGreaterThan(0);
    expect(p.fraction).toBeLessThan(joinPlan(24).largestUnitShare);
    expect(seen[0]).toMatchObject({ phase: 'tables', fraction: 0 });
  });

  it('a count reports every HEARTBEAT_MS while nothing else moves it (a fake clock: no report but the beat can pass its interval)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const controller = new AbortController();
    try {
      const seen: Progress[] = [];
      let firstReport = (): void => undefined;
      let failed = (_error: unknown): void => undefined;
      const reported = new Promise<void>((resolve, reject) => ((firstReport = resolve), (failed = reject)));
      const onProgress = (p: Progress): void => {
        seen.push(p);
        firstReport();
      };
      const running = count(24, { threads: 1, signal: controller.signal, onProgress });
      running.catch(failed); // a count that fails before its first report fails the test with its error, at once
      // The first report comes once the plan is made; the fake clock stands still, so no other report can pass its interval.
      await reported;
      expect(seen.map((p) => p.elapsedMs)).toEqual([0]);
      vi.advanceTimersByTime(HEARTBEAT_MS - 1);
      expect(seen).toHaveLength(1);
      vi.advanceTimersByTime(1);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(seen.map((p) => p.elapsedMs)).toEqual([0, HEARTBEAT_MS, 2 * HEARTBEAT_MS]);
      expect(seen.every((p) => p.n === 24 && p.units === 677294)).toBe(true);
    } finally {
      controller.abort();
      vi.useRealTimers();
    }
  });

  it.each([
    ['ended, on the calling thread', 14, undefined, false],
    ['aborted, on the calling thread', 14, undefined, true],
    ['ended, on a worker', 16, 1, false],
    ['aborted, on a worker', 16, 1, true],
  ])('a count %s leaves no beat behind: no timer, no report after it (a fake clock)', async (_, n, threads, abort) => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    try {
      const seen: Progress[] = [];
      const controller = new AbortController();
      const onProgress = (p: Progress): void => {
        seen.push(p);
        if (abort && p.finished > 0) controller.abort();
      };
      const running = count(n, { algorithm: 'join', threads, signal: controller.signal, onProgress });
      if (abort) await expect(running).rejects.toMatchObject({ name: 'AbortError' });
      else expect(await running).toMatchObject({ total: TOTAL[n], threads: 1 });
      const reports = seen.length;
      expect(reports).toBeGreaterThan(1);
      // A beat left running would keep Node from exiting, and report after the result.
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(10 * HEARTBEAT_MS);
      expect(seen).toHaveLength(reports);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([12, 16, 20])('n = %i: units weigh by passes and spread, largest first, adding up to workIn', (n) => {
    const plan = joinPlan(n);
    const { cost, mirrorWeight } = finish(compactPlanSteps(n)); // the same units (test/join.test.ts), with their spreads
    let sum = 0;
    for (let id = 0; id < plan.units; id++) {
      const work = plan.workOf(id);
      expect(work).toBeCloseTo(joinUnitWork(n, cost[id], mirrorWeight[id]), 9);
      if (id > 0) expect(cost[id]).toBeLessThanOrEqual(cost[id - 1]);
      sum += work;
    }
    expect(plan.workIn(0, plan.units)).toBeCloseTo(sum, 3);
    expect(plan.workIn(5, 3)).toBe(0);
    expect(plan.largestUnitShare).toBeCloseTo(plan.workOf(0) / sum, 12);
    // The first unit outweighs the last (spread 36 against 23 at n = 20, both of two passes).
    expect(plan.workOf(0)).toBeGreaterThan(2 * plan.workOf(plan.units - 1));
  });

  it('a unit of two passes and spread 30 at n = 20 weighs 2 x 1.155^30', () => {
    expect(joinUnitWork(20, 30, 2)).toBeCloseTo(2 * Math.exp(0.1448 * 30), 9);
    expect(joinUnitWork(20, 30, 1) * 2).toBeCloseTo(joinUnitWork(20, 30, 2), 9);
  });
});

describe('batches of units for workers', () => {
  it('hold at most MAX_BATCH units, so that a worker starts counting at once at n = 23', () => {
    expect(MAX_BATCH).toBe(4096);
    // n = 23 has 4,056,746 units: its first batch on 2 workers was a sixteenth of them (253,547).
    expect(batchSize(4056746, 2)).toBe(4096);
    expect(batchSize(677294, 1)).toBe(4096);
    // Smaller plans keep a share of what is left: n = 16's join (3,299 units) on 2 workers.
    expect(batchSize(3299, 2)).toBe(207);
    expect(batchSize(5, 4)).toBe(1);
  });
});

describe("the CLI's progress bar", () => {
  it('shows a share inside the first of many units, and an ETA', async () => {
    const { progressBar } = await import('../dist/cli/progress-bar.js');
    let out = '';
    const stream = { isTTY: true, columns: 200, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const bar = progressBar(stream);
    const report = {
      n: 24,
      phase: 'counting',
      finished: 0,
      units: 677294,
      subproblems: 677294,
      resumedFraction: 0,
      total: 0n,
      unique: 0n,
    } as const;
    bar.update({ ...report, fraction: 0.4 / 677294, elapsedMs: 2000 });
    expect(out).toContain('[------------------------] 0.000059%  0/677294 units  0 solutions  eta ');
    // 2 s for 0.4 of one unit in 677,294: 3.4 million seconds left (940.7 h), in hours and minutes.
    expect(out).toContain('eta 940h41m');
    out = '';
    bar.update({ ...report, fraction: 0.25, finished: 1000, elapsedMs: 60_000 });
    expect(out).toContain('[######------------------] 25.0%  1000/677294 units  0 solutions  eta 3m00s');
    expect([out.startsWith('\r'), out.endsWith('\x1b[K')]).toEqual([true, true]);
  });

  it('stays off for a count that ends within half a second, its last report (100%) too', async () => {
    const { progressBar } = await import('../dist/cli/progress-bar.js');
    let out = '';
    const bar = progressBar({ isTTY: true, columns: 200, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream);
    const report = { n: 8, phase: 'counting', units: 10, subproblems: 10, resumedFraction: 0, total: 92n, unique: 12n } as const;
    bar.update({ ...report, fraction: 0.5, finished: 5, elapsedMs: 200 });
    // Before: the last report was drawn whatever the time, then cleared at once.
    bar.update({ ...report, fraction: 1, finished: 10, elapsedMs: 499 });
    bar.clear();
    expect(out).toBe('');
    bar.update({ ...report, fraction: 1, finished: 10, elapsedMs: 500 });
    expect(out).toContain('[########################] 100.0%  10/10 units  92 solutions');
  });

  it('rounds the ETA before splitting it, so it never shows 60 in a place (1m00s, not 60s, 1m60s or 1h60m)', async () => {
    const { progressBar } = await import('../dist/cli/progress-bar.js');
    const lines: string[] = [];
    const bar = progressBar({ isTTY: true, columns: 200, write: (s: string) => lines.push(s) > 0 } as unknown as NodeJS.WriteStream);
    // Half done after t seconds: t seconds left.
    const eta = (t: number): string => {
      bar.update({ n: 20, phase: 'counting', finished: 5, units: 10, fraction: 0.5, elapsedMs: t * 1000 } as Progress);
      return /eta (\d+[hms]\d*[ms]?)/.exec(lines.at(-1) ?? '')?.[1] ?? '';
    };
    // Before: 60s, 1m60s, 59m60s and 1h60m.
    expect([59.6, 119.6, 3599.7, 7199.8].map(eta)).toEqual(['1m00s', '2m00s', '1h00m', '2h00m']);
    expect([59.4, 61, 3599.4, 3661].map(eta)).toEqual(['59s', '1m01s', '59m59s', '1h01m']);
  });

  it("after a resume, the ETA counts only this run's share (the checkpoint's took no time here)", async () => {
    const { progressBar } = await import('../dist/cli/progress-bar.js');
    const lines: string[] = [];
    const bar = progressBar({ isTTY: true, columns: 200, write: (s: string) => lines.push(s) > 0 } as unknown as NodeJS.WriteStream);
    const report = { n: 20, phase: 'counting', finished: 15, units: 20, subproblems: 20, total: 0n, unique: 0n } as const;
    // Half was done before this run; 60 s for the next quarter: 60 s more for the last quarter (not 20 s, as if
    // the resumed half had taken those 60 s too).
    bar.update({ ...report, fraction: 0.75, resumedFraction: 0.5, elapsedMs: 60_000 });
    expect(lines.at(-1)).toContain('75.0%  15/20 units  0 solutions  eta 1m00s');
  });

  it('on a terminal without control codes (TERM=dumb) writes spaces over the old line, never an escape code', async () => {
    const { progressBar } = await import('../dist/cli/progress-bar.js');
    let out = '';
    const stream = { isTTY: true, columns: 30, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const bar = progressBar(stream, 'dumb');
    const report = { n: 8, phase: 'counting', units: 10, subproblems: 10, resumedFraction: 0, total: 0n, unique: 0n } as const;
    bar.update({ ...report, fraction: 0.5, finished: 5, elapsedMs: 1000 });
    expect(out).toBe('\r[############------------] 50'); // 29 characters: the terminal's 30 less one
    out = '';
    bar.clear();
    expect(out).toBe(`\r${' '.repeat(29)}\r`);
    bar.clear();
    expect(out).toBe(`\r${' '.repeat(29)}\r`); // nothing left to clear
    // Before: every redraw and clear wrote ESC [ K, which such a terminal prints as text.
    expect(out).not.toContain('\x1b');
  });
});

describe("the calling thread's kept join counter", () => {
  it('is let go KEEP_COUNTER_MS after the last count that used it, and a count after that is exact', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Before: kept for good (12 MB at n = 18 on a page or server that counted once).
      expect(countSync(14, { algorithm: 'join', engine: 'wasm' }).total).toBe(TOTAL[14]);
      expect(keepsJoinCounter()).toBe(true);
      vi.advanceTimersByTime(KEEP_COUNTER_MS - 1);
      expect(countSync(13, { algorithm: 'join', engine: 'wasm' }).total).toBe(TOTAL[13]); // used again: its time starts over
      vi.advanceTimersByTime(KEEP_COUNTER_MS - 1);
      expect(keepsJoinCounter()).toBe(true);
      vi.advanceTimersByTime(1);
      expect(keepsJoinCounter()).toBe(false);
      expect(countSync(14, { algorithm: 'join', engine: 'wasm' }).total).toBe(TOTAL[14]);
      expect(keepsJoinCounter()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
