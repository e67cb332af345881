// The join's tables shared by the workers of a count (src/join/join-share.ts
// and the shared build of assembly/join/quarter-tables.ts): one memory, each
// table built once for all, a generation reused only when no instance reads
// it. Every count here is checked against OEIS A000170 or the unshared kernel.
import { afterEach, describe, expect, it } from 'vitest';
import { count } from '../dist/index.js';
import { compileJoinModule, joinCounter } from '../dist/join/join-module.js';
import { joinCounterFrom } from '../dist/join/join-counter.js';
import { planJoin, QUARTER_CACHE_BYTES } from '../dist/join/join-plan.js';
import { canShareJoinTables, JOIN_SHARE_MAX_WORKERS, setJoinSharing, shareJoinTables } from '../dist/join/join-share.js';
import { joinMethod } from '../dist/join/join-method.js';
import { sharedJoinModule, wasmModuleOf } from '../dist/engines/wasm-loader.js';
import { runMethod } from '../dist/run/runner.js';
import { maxHalves } from '../dist/join/join-plan.js';
import { range, TOTAL } from './oeis.js';

/** A table budget small enough that tables are dropped and rebuilt many times from n = 10 on. */
const SMALL_TABLES = 4096;

afterEach(() => setJoinSharing(true));

describe('shared join tables', () => {
  it('in Node a wasm join on workers shares one memory; TypeScript and other builds do not', async () => {
    expect(canShareJoinTables()).toBe(true);
    const share = await shareJoinTables(wasmModuleOf('join')!);
    expect(share?.module).toBe(await sharedJoinModule());
    expect(share?.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(await shareJoinTables(null)).toBeUndefined();
    expect(await shareJoinTables(compileJoinModule('baseline'))).toBeUndefined();
    expect(await shareJoinTables(wasmModuleOf('join')!, JOIN_SHARE_MAX_WORKERS)).toBeDefined();
    expect(await shareJoinTables(wasmModuleOf('join')!, JOIN_SHARE_MAX_WORKERS + 1)).toBeUndefined();
    setJoinSharing(false);
    expect(await shareJoinTables(wasmModuleOf('join')!)).toBeUndefined();
  });

  it('workers share one memory only while all their bounds fit in 32-bit memory together', async () => {
    const join = wasmModuleOf('join')!;
    const fits = async (n: number, workers: number): Promise<boolean> =>
      (await shareJoinTables(join, workers, joinMethod(n).bytesPerThread)) !== undefined;
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
    const memory = new WebAssembly.Memory({ initial: 2, maximum: 65536, shared: true });
    const module = (await sharedJoinModule())!;
    // Every unit on the workers (the calling thread helps only with a module of its own).
    const method = { ...joinMethod(n), helps: false, share: async () => ({ module, memory, tableBytes: SMALL_TABLES }) };
    const r = await runMethod(method, { engine: 'wasm', threads });
    expect([r.threads, r.total]).toEqual([threads, TOTAL[n]]);
    // The workers laid out their slots in it: it grew past its first page.
    expect(memory.buffer.byteLength).toBeGreaterThan(QUARTER_CACHE_BYTES / 1024);
  });

  it.each([16, 17, 18])('n = %i: count on 2 workers agrees with and without sharing', async (n) => {
    const sharedCount = await count(n, { algorithm: 'join', threads: 2 });
    setJoinSharing(false);
    const ownTables = await count(n, { algorithm: 'join', threads: 2 });
    expect([sharedCount.total, ownTables.total]).toEqual([TOTAL[n], TOTAL[n]]);
  });
});
