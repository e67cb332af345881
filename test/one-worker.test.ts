// count(n, { threads: 1 }): one worker, the calling thread counting while it
// starts. It shares no tables (the join's Method.share), so an idle worker keeps its
// join instance for the next count; on one core the worker starts only for a
// long count (workerStartsLate), and each thread keeps its join counter
// (src/join/join-counter.ts). Exact at every n, with abort and progress as on any
// other path (its script's exit: threads.test.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { count, type Progress } from '../dist/index.js';
import { wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { closeIdleWorkers, idleWorkers } from '../dist/run/pool.js';
import { spawnWorkerNow, workersAlive, workersStarted } from '../dist/run/spawn.js';
import { lateWorkerProjection, workersToPrestart, workerStartsLate } from '../dist/run/thread-plan.js';
import { range, TOTAL, UNIQUE } from './oeis.js';
import { methodForCount } from '../dist/run/methods.js';

describe('what the workers of a join count share', () => {
  it('one worker shares nothing (it gets the module itself); two share one memory', async () => {
    const join = wasmModuleOf('join')!;
    const plan = methodForCount(16, 'join', 1);
    expect(await plan.share!(join, 1)).toBeUndefined();
    const two = await plan.share!(join, 2);
    expect(two?.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(two?.module).not.toBe(join);
  });
});

describe.each([1, 2])('count(n, { threads: %i })', (threads) => {
  it.each(range(1, 16))('n = %i is exact, by default and with the join', async (n) => {
    const byDefault = await count(n, { threads });
    const join = await count(n, { threads, algorithm: 'join' });
    expect([byDefault.total, byDefault.unique, join.total, join.unique]).toEqual([TOTAL[n], UNIQUE[n], TOTAL[n], UNIQUE[n]]);
    expect(join.algorithm).toBe('join');
    expect(join.threads).toBeLessThanOrEqual(threads);
  });
});

describe('count(16, { threads: 1 }) again and again', () => {
  beforeEach(closeIdleWorkers);

  it('the next count takes the idle worker, with its tables, and counts the same', async () => {
    const first = await count(16, { threads: 1 });
    const started = workersStarted();
    expect(idleWorkers()).toBe(1);
    const again = [await count(16, { threads: 1 }), await count(16, { threads: 1 })];
    expect(workersStarted()).toBe(started);
    for (const r of [first, ...again]) expect(r).toMatchObject({ total: TOTAL[16], unique: UNIQUE[16], threads: 1, algorithm: 'join' });
  });

  it.each(['a fresh', 'an idle'])('progress with %s worker is monotone and ends at 1 with the exact counts', async (worker) => {
    if (worker === 'an idle') await count(16, { threads: 1 });
    const seen: Progress[] = [];
    const r = await count(16, { threads: 1, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].fraction).toBeGreaterThanOrEqual(seen[i - 1].fraction);
      expect(seen[i].finished).toBeGreaterThanOrEqual(seen[i - 1].finished);
      expect(seen[i].total).toBeGreaterThanOrEqual(seen[i - 1].total);
    }
    expect(seen[0]).toMatchObject({ finished: 0, total: 0n, fraction: 0 });
    expect(seen[seen.length - 1]).toMatchObject({ fraction: 1, total: TOTAL[16], unique: UNIQUE[16] });
    expect(r.total).toBe(TOTAL[16]);
  });
});

describe('aborting count(16, { threads: 1 })', () => {
  beforeEach(closeIdleWorkers);

  /** Runs count(16, { threads: 1 }) aborted by `when`; resolves once it has rejected. */
  async function aborted(when: (controller: AbortController, p: Progress) => void, before?: (c: AbortController) => void): Promise<void> {
    const controller = new AbortController();
    const running = count(16, { threads: 1, signal: controller.signal, onProgress: (p) => when(controller, p) });
    before?.(controller);
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  }

  /** Aborted from the first report with a unit in; resolves with how many units were in then. */
  async function abortedAtFirstUnits(): Promise<number> {
    let at = -1;
    await aborted((c, p) => {
      if (p.finished > 0 && at < 0) {
        at = p.finished;
        c.abort();
      }
    });
    return at;
  }

  it('right after the call, before the worker is up: rejects, and no worker runs outside the idle pool', async () => {
    await aborted(
      () => undefined,
      (c) => c.abort(),
    );
    // A worker started before planning and never taken by the count waits idle (unref'd), as after any count.
    expect(workersAlive()).toBe(idleWorkers());
  });

  it('once the first units are in (the worker starting or counting): rejects and terminates the worker', async () => {
    expect(await abortedAtFirstUnits()).toBeGreaterThan(0);
    expect(workersAlive()).toBe(idleWorkers());
    expect(idleWorkers()).toBe(0);
  });

  it('on an idle worker taken from the last count: rejects and terminates it', async () => {
    await count(16, { threads: 1 });
    expect(idleWorkers()).toBe(1);
    expect(await abortedAtFirstUnits()).toBeGreaterThan(0);
    expect(workersAlive()).toBe(0);
  });
});

describe("a worker's messages after terminate()", () => {
  it('are never handed on: not those waiting for their turn, and never as undefined', async () => {
    const worker = spawnWorkerNow()!;
    const got: string[] = [];
    let terminated: Promise<void> | undefined;
    worker.listen(
      (message) => {
        got.push(message === undefined ? 'undefined' : message.type);
        terminated ??= worker.terminate();
      },
      (error) => got.push(`failure: ${error.message}`),
    );
    worker.post({ type: 'init', n: 8, method: 'search', module: null });
    // Held, so its first messages wait together, each for its own turn (a slow machine may have sent only one by
    // then, or none: that run proves less, and still passes on a right build).
    const until = performance.now() + 1000;
    while (performance.now() < until);
    // Its first message handed on (at once where it came while held), then terminate() awaited, with the turns
    // already asked for.
    await vi.waitFor(() => expect(terminated).toBeDefined(), { timeout: 60_000, interval: 10 });
    await terminated;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Before: the turn already asked for after terminate() handed the listener `undefined`.
    expect(got).toEqual(['online']);
  });
});

describe('which counts start their one worker late', () => {
  const plan = (workers: number, callingThreadCounts = false) => ({
    workers,
    starved: false,
    callingThreadCounts,
    countingThreads: workers,
  });

  it('on one core, one worker, a method that lets the calling thread count, and no idle worker: late', () => {
    expect(workerStartsLate(plan(1), 1, true, 0)).toBe(true);
    expect(workerStartsLate(plan(1), 2, true, 0)).toBe(false); // a second core: the worker starts beside this thread
    expect(workerStartsLate(plan(2), 1, true, 0)).toBe(false); // more workers asked for
    expect(workerStartsLate(plan(1, true), 1, true, 0)).toBe(false);
    expect(workerStartsLate(plan(1), 1, false, 0)).toBe(false); // units too long to count here (the join from n = 18)
    expect(workerStartsLate(plan(1), 1, true, 1)).toBe(false); // an idle worker costs nothing to start
    expect(workerStartsLate(plan(1), 1, true, 0, false)).toBe(false); // a browser's calling thread is the page's
  });

  it('projects from the rate after a twentieth of the bound, not from the slow first units', () => {
    // 1,000 ms bound: 4% done in the first 50 ms (time over share: 1,250 ms, past the bound), then 10% per 25 ms:
    // 100 + 0.76 x 50 / 0.2 = 290 ms projected. Asked after each unit.
    const fast = lateWorkerProjection(1000);
    expect([fast(10, 0.01), fast(49, 0.04), fast(50, 0.04), fast(75, 0.14), fast(100, 0.24)]).toEqual([true, true, true, true, true]);
    // First units far slower still (0.01% in 50 ms: a projection over them is 500 s), then 20% in 50 ms: the window
    // opens at 60 ms, so 110 + 0.8 x 50 / 0.1998 = 310 ms projected. A window from the first unit on projects 500 s.
    const warming = lateWorkerProjection(1000);
    expect([warming(10, 0.0001), warming(60, 0.0002), warming(85, 0.1), warming(110, 0.2)]).toEqual([true, true, true, true]);
    // Then 1% per 25 ms: 100 + 0.92 x 50 / 0.02 = 2,400 ms projected.
    const slow = lateWorkerProjection(1000);
    expect([slow(50, 0.06), slow(75, 0.07), slow(100, 0.08)]).toEqual([true, true, false]);
    // No unit finished in the window: past the bound.
    const stuck = lateWorkerProjection(1000);
    expect([stuck(50, 0.06), stuck(120, 0.06)]).toEqual([true, false]);
    // Bound 0: past after the first unit; Infinity: never.
    expect(lateWorkerProjection(0)(0.1, 0.01)).toBe(false);
    const never = lateWorkerProjection(Infinity);
    expect([never(1e6, 1e-9), never(2e6, 1e-9)]).toEqual([true, true]);
  });

  it('no worker is started before planning on one core', () => {
    expect([workersToPrestart(16, 1, 1), workersToPrestart(16, 1, 2), workersToPrestart(16, undefined, 1)]).toEqual([0, 1, 0]);
  });
});

// One core for real: a child process pinned with taskset (Linux), where os.availableParallelism() is 1.
const taskset = '/usr/bin/taskset';
const oneCore = process.platform === 'linux' && existsSync(taskset);

/** Runs `body` (an async module script with `count`, `workersStarted` and `setLateWorkerMs` in scope) on CPU 0 alone; its JSON output. */
function onOneCore(body: string): unknown {
  const script = `
    import { count } from ${JSON.stringify(dist('index.js'))};
    import { workersStarted } from ${JSON.stringify(dist('run/spawn.js'))};
    import { setLateWorkerMs } from ${JSON.stringify(dist('run/thread-plan.js'))};
    import { availableParallelism } from 'node:os';
    const out = { cores: availableParallelism() };
    ${body}
    console.log(JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? String(v) : v)));`;
  const r = spawnSync(taskset, ['-c', '0', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

function dist(path: string): string {
  return fileURLToPath(new URL(`../dist/${path}`, import.meta.url));
}

describe.runIf(oneCore)('count(16, { threads: 1 }) on one core', () => {
  it('a count that projects short ends on the calling thread with no worker; a long one starts it; both exact', () => {
    const out = onOneCore(`
      const report = (r, reports) => ({ total: r.total, unique: r.unique, threads: r.threads, started: workersStarted(),
        monotone: reports.every((p, i) => i === 0 || p.fraction >= reports[i - 1].fraction), last: reports.at(-1).fraction });
      setLateWorkerMs(Infinity);
      let seen = [];
      out.short = report(await count(16, { threads: 1, onProgress: (p) => seen.push(p) }), seen);
      setLateWorkerMs(0);
      seen = [];
      out.long = report(await count(16, { threads: 1, onProgress: (p) => seen.push(p) }), seen);
      // Its worker now idles: the next count takes it at once.
      setLateWorkerMs(Infinity);
      seen = [];
      out.idle = report(await count(16, { threads: 1, onProgress: (p) => seen.push(p) }), seen);`);
    const exact = { total: String(TOTAL[16]), unique: String(UNIQUE[16]), threads: 1, monotone: true, last: 1 };
    expect(out).toEqual({ cores: 1, short: { ...exact, started: 0 }, long: { ...exact, started: 1 }, idle: { ...exact, started: 1 } });
  });

  it('two counts at once on the calling thread share its kept counter and count exactly; abort stops one there', () => {
    const out = onOneCore(`
      setLateWorkerMs(Infinity);
      const all = await Promise.all([count(16, { threads: 1 }), count(15, { threads: 1, algorithm: 'join' }), count(16, { threads: 1 })]);
      out.totals = all.map((r) => r.total);
      const controller = new AbortController();
      const onProgress = (p) => { if (p.finished > 0) controller.abort(); };
      out.aborted = await count(16, { threads: 1, signal: controller.signal, onProgress }).then(() => 'counted', (e) => e.name);
      out.after = (await count(16, { threads: 1 })).total;
      out.started = workersStarted();`);
    expect(out).toEqual({
      cores: 1,
      totals: [String(TOTAL[16]), String(TOTAL[15]), String(TOTAL[16])],
      aborted: 'AbortError',
      after: String(TOTAL[16]),
      started: 0,
    });
  });
});
