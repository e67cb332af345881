// count(n, { threads: 1 }): one worker, the calling thread counting while it
// starts. It shares no tables (workerShare), so an idle worker keeps its
// join instance for the next count; exact at every n, with abort, progress
// as on any other path (its script's exit: threads.test.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { count, type Progress } from '../dist/index.js';
import { joinMethod } from '../dist/join/join-method.js';
import { wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { workerShare } from '../dist/run/runner.js';
import { closeIdleWorkers, idleWorkers } from '../dist/run/pool.js';
import { workersAlive, workersStarted } from '../dist/run/spawn.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

describe('what the workers of a join count share', () => {
  it('one worker shares nothing (it gets the module itself); two share one memory', async () => {
    const join = wasmModuleOf('join')!;
    const plan = joinMethod(16);
    expect(await workerShare(plan, join, 1)).toBeUndefined();
    const two = await workerShare(plan, join, 2);
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
