// The join's tables shared by the workers of a count (src/join/join-share.ts
// and the shared build of assembly/join/quarter-tables.ts): one memory, each
// table built once for all, a generation reused only when no instance reads
// it. Every count here is checked against OEIS A000170 or the unshared kernel.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { count } from '../dist/index.js';
import { compileJoinModule, joinCounter } from './join-module.js';
import { joinCounterFrom } from '../dist/join/join-counter.js';
import { QUARTER_CACHE_BYTES, quarterHalfBytes, type JoinUnit } from '../dist/join/join-plan.js';
import { planJoin } from './plans.js';
import { canShareJoinTables, JOIN_SHARE_MAX_WORKERS, setJoinSharing, shareJoinTables, SPARE_MS } from '../dist/join/join-share.js';
import type { PlannedMethod, WorkerShare } from '../dist/contract/method.js';
import { sharedJoinModule, wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { closeIdleWorkers, runOnWorkers } from '../dist/run/pool.js';
import type { WorkerHooks } from '../dist/run/messages.js';
import { maxHalves } from '../dist/join/join-plan.js';
import { range, TOTAL, UNIQUE } from './oeis.js';
import { methodForCount } from '../dist/run/methods.js';

/** A table budget small enough that tables are dropped and rebuilt many times from n = 10 on. */
const SMALL_TABLES = 4096;

afterEach(() => setJoinSharing(true));

/**
 * n counted on `threads` workers whose join instances share one memory,
 * every unit on the workers, with `hooks` (the tables' budget); the total
 * and the bytes the memory grew to.
 */
async function countOnSharedWorkers(n: number, threads: number, hooks?: WorkerHooks): Promise<{ total: bigint; bytes: number }> {
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 65536, shared: true });
  const module = (await sharedJoinModule())!;
  const plan = methodForCount(n, 'join', 1) as PlannedMethod<JoinUnit>;
  let total = 0n;
  await runOnWorkers<JoinUnit>(
    {
      n,
      method: plan.name,
      units: plan.unitsIn(0, plan.units)[Symbol.iterator](),
      count: plan.units,
      threads,
      module,
      share: { module, memory, release: () => {} },
      onResult: (id, count) => (total += plan.contribution(id, count).total),
    },
    { workerHooks: hooks },
  );
  return { total, bytes: memory.buffer.byteLength };
}

describe('shared join tables', () => {
  it('in Node a wasm join on workers shares one memory; TypeScript and other builds do not', async () => {
    expect(canShareJoinTables()).toBe(true);
    const share = await shareJoinTables(wasmModuleOf('join')!, 10, 2);
    expect(share?.module).toBe(await sharedJoinModule());
    expect(share?.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(await shareJoinTables(null, 10, 2)).toBeUndefined();
    expect(await shareJoinTables(compileJoinModule('baseline'), 10, 2)).toBeUndefined();
    expect((await shareJoinTables(wasmModuleOf('join')!, 10, JOIN_SHARE_MAX_WORKERS))?.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(await shareJoinTables(wasmModuleOf('join')!, 10, JOIN_SHARE_MAX_WORKERS + 1)).toBeUndefined();
    setJoinSharing(false);
    expect(await shareJoinTables(wasmModuleOf('join')!, 10, 2)).toBeUndefined();
  });

  it('workers share one memory only while all their bounds fit in 32-bit memory together', async () => {
    const join = wasmModuleOf('join')!;
    const fits = async (n: number, workers: number): Promise<boolean> => (await shareJoinTables(join, n, workers)) !== undefined;
    expect([await fits(22, 17), await fits(22, 18)]).toEqual([true, false]);
    expect([await fits(23, 15), await fits(23, 16)]).toEqual([true, false]);
    expect([await fits(24, 2), await fits(24, 3)]).toEqual([true, false]);
    expect(await fits(16, 256)).toBe(true); // the most threads count() takes
  });

  it.each(range(4, 16))(
    'n = %i: three instances on one memory, taking units in turn with tables dropped and rebuilt, count each unit as the unshared kernel',
    async (n) => {
      const shared = (await sharedJoinModule())!;
      const memory = new WebAssembly.Memory({ initial: 2, maximum: 65536, shared: true });
      const instances = [0, 1, 2].map((slot) => joinCounterFrom('wasm', shared, SMALL_TABLES, maxHalves, { memory, slot }));
      const plain = joinCounter('wasm');
      let total = 0n;
      const units = planJoin(n);
      units.forEach((unit, i) => {
        const c = instances[i % 3].countUnit(n, unit);
        expect([unit.id, c]).toEqual([unit.id, plain.countUnit(n, unit)]);
        total += BigInt(unit.weight) * c;
      });
      expect(total).toBe(TOTAL[n]);
    },
  );

  it.each([
    [12, 3],
    [13, 2],
    [14, 3],
    [15, 2],
    [16, 3],
  ])('n = %i on %i workers, tables shared and dropped and rebuilt under the workers, is exact', async (n, threads) => {
    const { total, bytes } = await countOnSharedWorkers(n, threads, { joinTableBytes: SMALL_TABLES });
    expect(total).toBe(TOTAL[n]);
    // The workers laid out their slots in it: it grew past its first page.
    expect(bytes).toBeGreaterThan(QUARTER_CACHE_BYTES / 1024);
  });

  it("workers take the tables' budget from the pool (workerHooks), and go back to the default without it", async () => {
    // The memory holds two generations of tables before the slots: at n = 14 five pages fewer with the small budget.
    const whole = (await countOnSharedWorkers(14, 1)).bytes;
    const small = await countOnSharedWorkers(14, 1, { joinTableBytes: SMALL_TABLES });
    const again = await countOnSharedWorkers(14, 1);
    expect(small.total).toBe(TOTAL[14]);
    expect(whole - small.bytes).toBeGreaterThanOrEqual(2 * (quarterHalfBytes(14) - quarterHalfBytes(14, SMALL_TABLES)) - 65536);
    expect(again.bytes).toBe(whole);
  });

  it.each([16, 17, 18])('n = %i: count on 2 workers agrees with and without sharing', async (n) => {
    const sharedCount = await count(n, { algorithm: 'join', threads: 2 });
    setJoinSharing(false);
    const ownTables = await count(n, { algorithm: 'join', threads: 2 });
    expect([sharedCount.total, ownTables.total]).toEqual([TOTAL[n], TOTAL[n]]);
  });
});

describe('a shared memory serves count after count of its n', () => {
  const join = (): WebAssembly.Module => wasmModuleOf('join')!;

  /** A memory of n made spare (as a count that ended cleanly leaves it). */
  async function spareOf(n: number): Promise<WorkerShare> {
    const share = (await shareJoinTables(join(), n, 2))!;
    share.release();
    return share;
  }

  it('a released memory is the next one of its n, once; another n, or no release, gets a fresh one', async () => {
    const share = await spareOf(12);
    expect(await shareJoinTables(join(), 13, 2)).not.toBe(share);
    share.release();
    expect(await shareJoinTables(join(), 12, 2)).toBe(share);
    expect(await shareJoinTables(join(), 12, 2)).not.toBe(share); // taken: a count beside it gets its own
  });

  /** A spare memory of 12 on fake timeouts, taken back SPARE_MS - 1 ms after its release and released again. */
  async function releasedTwice(): Promise<Awaited<ReturnType<typeof spareOf>>> {
    const share = await spareOf(12);
    vi.advanceTimersByTime(SPARE_MS - 1);
    expect(await shareJoinTables(join(), 12, 2)).toBe(share);
    share.release();
    return share;
  }

  describe('on fake timeouts', () => {
    beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    afterEach(() => void vi.useRealTimers());

    it('a spare memory is let go SPARE_MS after its release, as idle workers are', async () => {
      const share = await releasedTwice();
      vi.advanceTimersByTime(SPARE_MS);
      expect(await shareJoinTables(join(), 12, 2)).not.toBe(share);
    });

    it('a memory taken and released again is kept SPARE_MS from its last release, not from its first', async () => {
      const share = await releasedTwice();
      vi.advanceTimersByTime(SPARE_MS - 1); // SPARE_MS after the first release, not yet after the second
      expect(await shareJoinTables(join(), 12, 2)).toBe(share);
    });
  });

  it('counts on 2, 4, 3, 2 and 5 workers take the same memory in turn, idle workers keeping their slots, each exact', async () => {
    // Idle workers hold slots 0 and 1 when the count on 4 starts: it must give its new workers 2 and 3.
    // The memory is made spare before each count here: whether a count gives it back itself depends on
    // whether its new workers were ready before its last unit (the pool-level tests below pin that down).
    const share = (await shareJoinTables(join(), 16, 2))!;
    for (const threads of [2, 4, 3, 2, 5]) {
      share.release();
      const { total, unique } = await count(16, { algorithm: 'join', threads });
      expect([threads, total, unique]).toEqual([threads, TOTAL[16], UNIQUE[16]]);
    }
    expect(share.memory.buffer.byteLength).toBeGreaterThan(2 * 65536); // the workers laid out their slots in it
  });

  it('counts of other n between counts of 16, each on other numbers of workers, are each exact', async () => {
    for (const [n, threads] of [
      [16, 3],
      [15, 2],
      [16, 4],
      [14, 3],
      [16, 2],
    ]) {
      const { total } = await count(n, { algorithm: 'join', threads });
      expect([n, total]).toEqual([n, TOTAL[n]]);
    }
  });

  it('an aborted count does not give its memory back: its workers were ended mid-unit', async () => {
    const share = await spareOf(17);
    const controller = new AbortController();
    const counting = count(17, {
      algorithm: 'join',
      threads: 2,
      signal: controller.signal,
      onProgress: (p) => p.fraction > 0 && controller.abort(),
    });
    await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
    const next = await shareJoinTables(join(), 17, 2);
    expect(next?.memory.buffer).toBeInstanceOf(SharedArrayBuffer); // a share, a new one
    expect(next).not.toBe(share);
    const { total } = await count(17, { algorithm: 'join', threads: 2 });
    expect(total).toBe(TOTAL[17]);
  });
});

describe('a memory is given back only when no worker is setting up on it', () => {
  /** Units of n = 14 on 2 workers with a release spy; `helperTakesAll`: the calling thread takes every unit once a worker is online. */
  async function run(helperTakesAll: boolean): Promise<{ released: number; online: number; ready: number }> {
    await closeIdleWorkers(); // fresh workers: each says 'online'
    const module = (await sharedJoinModule())!;
    const plan = methodForCount(14, 'join', 1) as PlannedMethod<JoinUnit>;
    let [released, onlines, readies] = [0, 0, 0];
    let online: () => void = () => undefined;
    const firstOnline = new Promise<void>((resolve) => (online = resolve));
    await runOnWorkers<JoinUnit>(
      {
        n: 14,
        method: plan.name,
        units: plan.unitsIn(0, plan.units)[Symbol.iterator](),
        count: plan.units,
        threads: 2,
        module,
        share: { module, memory: new WebAssembly.Memory({ initial: 2, maximum: 65536, shared: true }), release: () => released++ },
        warm: plan.warm(),
        onResult: () => undefined,
        helper: helperTakesAll
          ? async (take) => {
              await firstOnline; // its 'init' is posted by now, its 'ready' not yet read
              while (take() !== undefined);
            }
          : undefined,
      },
      {
        onMessage: (message) => {
          if (message.type === 'online') {
            onlines++;
            online();
          }
          if (message.type === 'ready') readies++;
        },
      },
    );
    return { released, online: onlines, ready: readies };
  }

  // One worker may count every unit while the other still sets up (a loaded machine): then the memory must stay
  // held. The pool reads the messages in order, so what it had read as the count ended says which rule applied.
  it("workers that counted: given back once, unless one was still setting up as the count ended (its 'ready' unread)", async () => {
    const { released, online, ready } = await run(false);
    expect(ready).toBeGreaterThanOrEqual(1);
    expect(released).toBe(ready === online ? 1 : 0);
  });

  it('the calling thread took every unit while a worker was still in its init and warm-up (building tables under the lock): not given back', async () => {
    // A page terminates its workers as the count ends (park): one stopped under the lock would hang the next count.
    expect((await run(true)).released).toBe(0);
  });
});
