// The join's tables bound how many workers a count starts: never more than
// fit in memory together (half the machine's), and a size whose tables do
// not fit is refused before anything is allocated.
import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { count, ERROR_CODES, JOIN_MAX_N } from '../dist/index.js';
import { joinMemoryBytes } from '../dist/join/join-plan.js';
import { tableMemoryBudget } from '../dist/contract/environment.js';
import { runMethod } from '../dist/run/runner.js';
import { methodForCount } from '../dist/run/methods.js';

describe('memory and workers', () => {
  it('a method states its tables per thread: the join its bound, the search none', () => {
    expect(methodForCount(16, 'join', 1).bytesPerThread).toBe(joinMemoryBytes(16));
    expect(methodForCount(16, 'search', 1, 1).bytesPerThread).toBe(0);
  });

  it('a count whose tables fit twice in the budget starts 2 workers however many it asks for, and is exact', async () => {
    const method = { ...methodForCount(12, 'join', 1), bytesPerThread: tableMemoryBudget() / 2 };
    const r = await runMethod(method, { engine: 'wasm', threads: 4 });
    expect([r.threads, r.total, r.unique]).toEqual([2, 14200n, 1787n]);
  });

  it("the budget is half the machine's memory: tables of a quarter of it each start 2 workers", async () => {
    expect(tableMemoryBudget()).toBe(totalmem() / 2);
    const method = { ...methodForCount(12, 'join', 1), bytesPerThread: totalmem() / 4 };
    const r = await runMethod(method, { engine: 'wasm', threads: 4 });
    expect([r.threads, r.total, r.unique]).toEqual([2, 14200n, 1787n]);
  });

  it('tables larger than the budget still count, on one worker', async () => {
    const method = { ...methodForCount(10, 'join', 1), bytesPerThread: tableMemoryBudget() * 2 };
    const r = await runMethod(method, { engine: 'js', threads: 3 });
    expect([r.threads, r.total, r.unique]).toEqual([1, 724n, 92n]);
  });

  it(`n past JOIN_MAX_N (${JOIN_MAX_N}) is refused before allocating, naming n and the bytes`, async () => {
    const n = JOIN_MAX_N + 1;
    await expect(count(n, { algorithm: 'join' })).rejects.toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: ERROR_CODES.TABLES_TOO_LARGE,
        message: expect.stringMatching(new RegExp(`n = ${n} needs up to \\d+ bytes`)),
      }),
    );
  });
});
