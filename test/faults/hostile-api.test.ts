// The API under hostile input and load: sparse or odd `placed` arrays get a
// coded TypeError naming the entry; a count asking for far more threads
// than its work starts a few; and many concurrent counts with random aborts
// each end exact or aborted, never wrong and never hung (seeded, so a
// failure repeats).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { count, countCompletions, countCompletionsSync, countSync, ERROR_CODES, planUnits, solutions } from 'nqueens-wasm';
import { soak } from '../soak.js';

describe('odd placed arrays', () => {
  // Holes made without sparse literals (which lint refuses): a length beyond the entries set.
  const sparse = Object.assign(new Array<[number, number]>(3), { 0: [0, 0], 2: [2, 3] });
  const pairWithHole = [Object.assign(new Array<number>(2), { 1: 1 })] as unknown as [number, number][];
  it.each([
    [
      'new Array(1)',
      new Array(1) as [number, number][],
      'placed[0] must be a [row, col] pair; got a hole (an empty slot of a sparse array)',
    ],
    ['a hole', sparse, 'placed[1] must be a [row, col] pair; got a hole (an empty slot of a sparse array)'],
    ['null', [null] as unknown as [number, number][], 'placed[0] must be a [row, col] pair; got null'],
    [
      'a pair with a hole',
      pairWithHole,
      'placed[0][0] (a row) must be an integer from 0 to 7; got a hole (an empty slot of a sparse array)',
    ],
  ])('%s: a coded TypeError naming the entry, from every function that takes placed', async (_what, placed, message) => {
    const expected = expect.objectContaining({
      name: 'TypeError',
      code: ERROR_CODES.INVALID_TYPE,
      message: expect.stringContaining(message),
    });
    expect(() => countCompletionsSync(8, placed)).toThrow(expected);
    await expect(countCompletions(8, placed)).rejects.toThrow(expected);
    expect(() => solutions(8, { placed })).toThrow(expect.objectContaining({ code: ERROR_CODES.INVALID_TYPE }));
  });
});

describe('arrays too long to copy or to check pair by pair', () => {
  // Before: `after` was copied whole before its length was checked (9 s and 1.7 GB for 2^32 - 1 holes, then V8's
  // own uncoded RangeError), and a placed array's length was read at every step (a Proxy growing it never ended).
  it('options.after of length 2^32 - 1: the coded RangeError naming its length, at once', () => {
    expect(() => solutions(8, { after: new Array(2 ** 32 - 1) })).toThrow(
      expect.objectContaining({ name: 'RangeError', code: ERROR_CODES.OUT_OF_RANGE, message: expect.stringContaining('got 4294967295') }),
    );
  });

  it('options.after as a DataView: a TypeError, as for any other non-array', () => {
    expect(() => solutions(8, { after: new DataView(new ArrayBuffer(8)) as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: ERROR_CODES.INVALID_TYPE }),
    );
  });

  it('a million placed queens: refused as attacking, from the first n + 1 of them, the rest never read', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i): [number, number] => [i % 8, 0]);
    let reads = 0;
    const counted = new Proxy(many, {
      get: (target, key, receiver) => (/^\d+$/.test(String(key)) && reads++, Reflect.get(target, key, receiver)),
    });
    expect(() => countCompletionsSync(8, counted)).toThrow(expect.objectContaining({ code: ERROR_CODES.ATTACKING_QUEENS }));
    expect(reads).toBe(9); // before: 1,000,000
  });

  it('a placed array whose length grows at each read is read once', () => {
    let length = 1;
    const growing = new Proxy([[0, 0]] as [number, number][], {
      get: (target, key, receiver) =>
        key === 'length' ? length++ : /^\d+$/.test(String(key)) ? [0, 0] : Reflect.get(target, key, receiver),
    });
    expect(countCompletionsSync(8, growing).total).toBe(countCompletionsSync(8, [[0, 0]]).total);
  });
});

describe('a placed array that answers otherwise the second time', () => {
  /** [[0, 0]], whose length is 1 while it is checked and 0 after (a Proxy): the queen checked is the queen counted. */
  const shifty = (): [number, number][] => {
    let reads = 0;
    return new Proxy([[0, 0]] as [number, number][], {
      get: (target, key, receiver) => (key === 'length' ? (reads++ < 2 ? 1 : 0) : Reflect.get(target, key, receiver)),
    });
  };
  it.each([6, 8, 10])('n = %i: the completions of the queen at (0, 0), not every solution', async (n) => {
    const expected = countCompletionsSync(n, [[0, 0]]).total;
    expect(expected).toBeLessThan((await count(n)).total);
    // Before: 92 at n = 8 (every solution) where 4 contain the queen.
    expect(countCompletionsSync(n, shifty()).total).toBe(expected);
    expect((await countCompletions(n, shifty())).total).toBe(expected);
  });
});

describe('threads beyond the work', () => {
  it('count(10, { threads: 256 }) starts a few workers, not 256, and is exact', async () => {
    const r = await count(10, { threads: 256 });
    expect([r.total, r.unique]).toEqual([724n, 92n]);
    expect(r.threads).toBeLessThanOrEqual(4);
  });

  // Before, the cap held below n = 15 only: `count 15 --threads 256` started 256 workers (39 s and 2.4 GB on 2 cores).
  it.each([
    [15, 'search', 2279184n, 285053n],
    [16, 'join', 14772512n, 1846955n],
  ] as const)(
    'count(%i, { threads: 256 }) starts no more workers than the cores (or 4), and is exact',
    async (n, algorithm, total, unique) => {
      const r = await count(n, { threads: 256 });
      expect([r.total, r.unique, r.algorithm]).toEqual([total, unique, algorithm]);
      expect(r.threads).toBeGreaterThanOrEqual(1);
      expect(r.threads).toBeLessThanOrEqual(Math.max(4, availableParallelism()));
    },
  );
});

describe('a soak of concurrent counts with random aborts', () => {
  it('40 counts at once (n = 8..14, 1-3 threads, both algorithms, half aborted at random times): each exact or an AbortError', async () => {
    expect(await soak(40, 14, 20261124)).toEqual([]);
  });
});

describe('options behind getters and proxies', () => {
  /** `options` behind a proxy that counts the reads of each key. */
  function counted<T extends object>(options: T): { options: T; reads: Map<string, number> } {
    const reads = new Map<string, number>();
    const handler: ProxyHandler<T> = {
      get(target, key, receiver) {
        reads.set(String(key), (reads.get(String(key)) ?? 0) + 1);
        return Reflect.get(target, key, receiver) as unknown;
      },
    };
    return { options: new Proxy(options, handler), reads };
  }

  // Before, count() read onProgress three times and signal twice, so a getter could pass the checks with one value
  // and be used with another (a count rejecting with "onProgress is not a function", solutions() ignoring unique).
  it('each option is read once, so the value checked is the value used', async () => {
    const signal = new AbortController().signal;
    const cases: [string, (options: never) => unknown, object][] = [
      ['count', (o) => count(8, o), { engine: 'js', algorithm: 'search', threads: 1, onProgress: () => {}, signal }],
      ['countSync', (o) => countSync(8, o), { engine: 'js', algorithm: 'join' }],
      ['countCompletions', (o) => countCompletions(8, [[0, 0]], o), { engine: 'js', threads: 1, onProgress: () => {}, signal }],
      ['countCompletionsSync', (o) => countCompletionsSync(8, [[0, 0]], o), { engine: 'js' }],
      ['solutions', (o) => [...solutions(8, o)], { limit: 2, engine: 'js', unique: true, after: [0, 0, 0, 0, 0, 0, 0, 0] }],
      ['planUnits', (o) => planUnits(16, o), { algorithm: 'search', depth: 1, parts: 2 }],
    ];
    for (const [name, call, options] of cases) {
      const { options: proxy, reads } = counted(options);
      await call(proxy as never);
      const times = (key: string) => [key, reads.get(key)];
      expect([name, [...reads.keys()].map(times)]).toEqual([name, [...reads.keys()].map((key) => [key, 1])]);
      expect([name, Object.keys(options).map(times)]).toEqual([name, Object.keys(options).map((key) => [key, 1])]);
    }
  });

  /** An object whose `key` is `first` on its first read and `later` after. */
  function changing(key: string, first: unknown, later: unknown): object {
    let reads = 0;
    return Object.defineProperty({}, key, { enumerable: true, get: () => (reads++ === 0 ? first : later) });
  }

  it('a getter that changes its answer after the checks changes nothing', async () => {
    const fractions: number[] = [];
    const onProgress = (p: { fraction: number }) => void fractions.push(p.fraction);
    expect((await count(10, changing('onProgress', onProgress, 'not a function') as never)).total).toBe(724n);
    expect(fractions.at(-1)).toBe(1);
    expect([...solutions(8, changing('unique', true, 'yes') as never)]).toHaveLength(12);
    expect(planUnits(16, changing('depth', 2, undefined) as never)).toMatchObject({ algorithm: 'search', depth: 2 });
  });
});
