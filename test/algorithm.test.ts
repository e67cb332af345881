// The `algorithm` option: the half-board join through count() and
// countSync(), on this thread and on workers, with progress and abort.
import { describe, expect, it } from 'vitest';
import { resolveAlgorithm } from '../dist/run/methods.js';
import { count, countSync, JOIN_AUTO_MAX_N, JOIN_AUTO_MIN_N, JOIN_MAX_N, type Progress } from '../dist/index.js';
import { TOTAL, UNIQUE } from './oeis.js';

const SIZES = Array.from({ length: 14 }, (_, i) => i + 1);

describe.each(['wasm', 'js'] as const)("algorithm 'join' with engine %s", (engine) => {
  it.each(SIZES)('countSync(%i) is exact', (n) => {
    expect(countSync(n, { engine, algorithm: 'join' })).toMatchObject({
      n,
      total: TOTAL[n],
      unique: UNIQUE[n],
      engine,
      algorithm: 'join',
      threads: 1,
    });
  });

  it.each([
    [9, undefined],
    [12, 1],
    [13, 2],
    [16, 2],
  ])('count(%i, { threads: %s }) is exact (on the calling thread below AUTO_THREADS_MIN_N, else with workers)', async (n, threads) => {
    const r = await count(n, { engine, algorithm: 'join', threads });
    expect(r).toMatchObject({ n, total: TOTAL[n], unique: UNIQUE[n], engine, algorithm: 'join' });
    expect(r.threads).toBe(threads ?? 1);
  });
});

describe('choosing the algorithm', () => {
  it("'auto' runs the join from n = 16 to 24 on the wasm and js engines, the search elsewhere", () => {
    expect([JOIN_AUTO_MIN_N, JOIN_AUTO_MAX_N]).toEqual([16, 24]);
    for (let n = 1; n <= 32; n++) {
      const join = n >= 16 && n <= 24;
      for (const engine of ['auto', 'wasm', 'js'] as const) expect(resolveAlgorithm(n, engine, 'auto')).toBe(join ? 'join' : 'search');
      expect(resolveAlgorithm(n, 'reference', 'auto')).toBe('search');
      expect(resolveAlgorithm(n, 'webgpu', 'auto')).toBe('search');
    }
  });

  it('count(16) takes the join by default and stays exact', async () => {
    expect(await count(16, { threads: 2 })).toMatchObject({ total: 14772512n, unique: 1846955n, algorithm: 'join', threads: 2 });
  });

  it("'auto' and 'search' report the search", async () => {
    expect(countSync(10)).toMatchObject({ total: 724n, algorithm: 'search' });
    expect(await count(10, { algorithm: 'search' })).toMatchObject({ total: 724n, algorithm: 'search' });
    expect(countSync(10, { engine: 'reference' })).toMatchObject({ total: 724n, algorithm: 'search' });
  });

  it("the reference engine refuses 'join' with a RangeError", async () => {
    expect(() => countSync(8, { engine: 'reference', algorithm: 'join' })).toThrow(RangeError);
    await expect(count(8, { engine: 'reference', algorithm: 'join' })).rejects.toThrow(
      /algorithm 'join' needs engine 'auto', 'wasm' or 'js'/,
    );
  });

  it('past JOIN_MAX_N the join is refused before allocating, naming n and the bytes', () => {
    expect(JOIN_MAX_N).toBe(24);
    let error: unknown;
    try {
      countSync(JOIN_MAX_N + 1, { algorithm: 'join' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/n = 25 needs up to \d+ bytes/);
    expect((error as { code?: string }).code).toBe('ERR_NQUEENS_TABLES_TOO_LARGE');
  });

  it('past JOIN_MAX_N, count() refuses the join with that RangeError even when its signal has already aborted', async () => {
    await expect(count(JOIN_MAX_N + 1, { algorithm: 'join', signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'RangeError',
      code: 'ERR_NQUEENS_TABLES_TOO_LARGE',
      message: expect.stringMatching(/n = 25 needs up to \d+ bytes/),
    });
  });

  it.each([
    ['fast', RangeError],
    ['JOIN', RangeError],
    [1, TypeError],
    [null, TypeError],
  ])('algorithm %j is a %o naming the option', (algorithm, kind) => {
    expect(() => countSync(8, { algorithm: algorithm as never })).toThrow(kind);
    expect(() => countSync(8, { algorithm: algorithm as never })).toThrow(/options\.algorithm must be one of 'auto', 'join', 'search'/);
  });
});

describe('the join reports progress and stops on abort', () => {
  it('progress ends at fraction 1 with the exact total; unique arrives with the result', async () => {
    const seen: Progress[] = [];
    const r = await count(13, { algorithm: 'join', threads: 2, onProgress: (p) => seen.push(p) });
    expect(r.total).toBe(TOTAL[13]);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ n: 13, fraction: 1, total: TOTAL[13] });
    expect(last.finished).toBe(last.subproblems);
    for (let i = 1; i < seen.length; i++) expect(seen[i].total >= seen[i - 1].total).toBe(true);
  });

  it('an abort mid-count rejects with an AbortError, and the next count (new shared tables) is exact', async () => {
    const controller = new AbortController();
    const running = count(17, {
      algorithm: 'join',
      threads: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.finished > 0) controller.abort();
      },
    });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect((await count(16, { algorithm: 'join', threads: 2 })).total).toBe(TOTAL[16]);
  });
});
