// Beyond counting: completions of partial boards, fundamental solutions and
// paging, checked against brute force written here (no package code), on
// every engine.
import { describe, expect, it, vi } from 'vitest';
import { count, countCompletions, countCompletionsSync, countSync, solutions, type Queen } from 'nqueens-wasm';
import { bruteForce } from './brute-force.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

const ENGINES = ['wasm', 'js', 'reference'] as const;

const BRUTE: Record<number, number[][]> = {};
const brute = (n: number): number[][] => (BRUTE[n] ??= bruteForce(n));

function compare(p: readonly number[], q: readonly number[]): number {
  for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return p[i] - q[i];
  return 0;
}

/** The 8 images of a placement under the symmetries of the square, computed square by square. */
function images(p: readonly number[]): number[][] {
  const n = p.length;
  const maps: ((r: number, c: number) => [number, number])[] = [
    (r, c) => [r, c],
    (r, c) => [c, n - 1 - r],
    (r, c) => [n - 1 - r, n - 1 - c],
    (r, c) => [n - 1 - c, r],
    (r, c) => [r, n - 1 - c],
    (r, c) => [n - 1 - r, c],
    (r, c) => [c, r],
    (r, c) => [n - 1 - c, n - 1 - r],
  ];
  return maps.map((f) => {
    const q = new Array<number>(n);
    p.forEach((c, r) => {
      const [r2, c2] = f(r, c);
      q[r2] = c2;
    });
    return q;
  });
}

const smallest = (p: readonly number[]): number[] => images(p).sort(compare)[0];

/** A seeded PRNG (mulberry32), so every run tests the same boards. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const attacks = (a: Queen, b: Queen): boolean => a[0] === b[0] || a[1] === b[1] || Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1]);

/** k queens on random squares, none attacking another (fewer if the board fills up), in random order. */
function randomQueens(n: number, k: number, random: () => number): Queen[] {
  const queens: Queen[] = [];
  for (let tries = 0; queens.length < k && tries < 200; tries++) {
    const q: Queen = [Math.floor(random() * n), Math.floor(random() * n)];
    if (!queens.some((p) => attacks(p, q))) queens.push(q);
  }
  return queens;
}

const contains = (p: readonly number[], placed: readonly Queen[]): boolean => placed.every(([r, c]) => p[r] === c);

describe('countCompletions', () => {
  const random = rng(17);
  const boards: [number, Queen[]][] = [];
  for (const n of range(1, 9))
    for (let i = 0; i < 12; i++) boards.push([n, randomQueens(n, 1 + Math.floor(random() * Math.min(n, 4)), random)]);

  it.each(ENGINES)('matches brute force on random partial boards (%s)', async (engine) => {
    for (const [n, placed] of boards) {
      const expected = BigInt(brute(n).filter((p) => contains(p, placed)).length);
      const sync = countCompletionsSync(n, placed, { engine });
      expect(sync.total, `n = ${n}, ${JSON.stringify(placed)}`).toBe(expected);
      expect(sync).toMatchObject({ n, engine, threads: 1 }); // the engine that counted, as countCompletions says it
      const r = await countCompletions(n, placed, { engine, threads: 1 });
      expect(r.total).toBe(expected);
      expect(r).toMatchObject({ n, engine, threads: 1 });
      expect([...solutions(n, { engine, placed })]).toEqual(brute(n).filter((p) => contains(p, placed)));
    }
  });

  it('no queens placed: the count of all solutions', async () => {
    expect(countCompletionsSync(10, []).total).toBe(TOTAL[10]);
    expect((await countCompletions(11, [], { engine: 'js' })).total).toBe(TOTAL[11]);
  });

  it('a full solution has one completion, a full non-solution none', () => {
    const p = [...solutions(12, { limit: 1 })][0];
    const queens = p.map((c, r) => [r, c] as Queen);
    expect(countCompletionsSync(12, queens).total).toBe(1n);
    expect(countCompletionsSync(12, queens.slice(0, 11)).total).toBe(1n);
  });

  it('wasm, js and the reference agree on larger boards; workers give the same totals', async () => {
    const random = rng(5);
    for (const n of [11, 12, 13]) {
      for (let i = 0; i < 4; i++) {
        const placed = randomQueens(n, 1 + (i % 3), random);
        const expected = countCompletionsSync(n, placed, { engine: 'reference' }).total;
        expect(countCompletionsSync(n, placed, { engine: 'wasm' }).total).toBe(expected);
        expect(countCompletionsSync(n, placed, { engine: 'js' }).total).toBe(expected);
        if (i === 0) {
          const onWorkers = await countCompletions(n, placed, { threads: 2 });
          expect(onWorkers).toMatchObject({ total: expected, engine: 'wasm', threads: 2 });
          expect((await countCompletions(n, placed, { threads: 2, engine: 'js' })).total).toBe(expected);
        }
      }
    }
  });

  it('the completions of the queen in row 0 add up to the total', () => {
    for (const engine of ['wasm', 'js'] as const) {
      let sum = 0n;
      for (let c = 0; c < 12; c++) sum += countCompletionsSync(12, [[0, c]], { engine }).total;
      expect(sum).toBe(TOTAL[12]);
    }
  });

  it('n = 32: column 31 is attacked along diagonals too (two open rows, one of them the queen in column 31)', async () => {
    // A solution of n = 32 (the first in lexicographic order), checked here square by square.
    const s = [0, 2, 4, 1, 3, 8, 10, 12, 14, 5, 17, 23, 25, 29, 24, 30, 27, 31, 26, 28, 15, 18, 9, 7, 16, 11, 20, 6, 13, 22, 19, 21];
    const attacks = (a: Queen, b: Queen): boolean => a[1] === b[1] || Math.abs(a[1] - b[1]) === Math.abs(a[0] - b[0]);
    const queens = s.map((c, r): Queen => [r, c]);
    for (let i = 0; i < 32; i++) for (let j = i + 1; j < 32; j++) expect(attacks(queens[i], queens[j])).toBe(false);
    const last = s.indexOf(31);
    for (let x = 0; x < 32; x++) {
      if (x === last) continue;
      const placed = queens.filter(([r]) => r !== x && r !== last);
      // The two open rows take the two free columns, one way or the other.
      const fits = (q: Queen, other: Queen): boolean => !attacks(q, other) && placed.every((p) => !attacks(p, q));
      let expected = 0n;
      for (const [a, b] of [
        [s[x], 31],
        [31, s[x]],
      ]) {
        const qx: Queen = [x, a];
        const ql: Queen = [last, b];
        if (fits(qx, ql) && fits(ql, qx)) expected++;
      }
      for (const engine of ['wasm', 'js'] as const) {
        expect(countCompletionsSync(32, placed, { engine }).total, `rows ${x} and ${last} open (${engine})`).toBe(expected);
        expect((await countCompletions(32, placed, { engine })).total, `rows ${x} and ${last} open (${engine}, async)`).toBe(expected);
        expect([...solutions(32, { placed, engine })].length, `rows ${x} and ${last} open (${engine}, solutions)`).toBe(Number(expected));
      }
    }
  });

  it('n = 30 with 20 queens of a solution: the engines agree with the enumeration', async () => {
    const p = [...solutions(30, { limit: 1 })][0];
    const placed: Queen[] = range(0, 19).map((i) => [(i * 7) % 30, p[(i * 7) % 30]]);
    const listed = [...solutions(30, { placed })];
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) expect(contains(s, placed)).toBe(true);
    expect(listed).toContainEqual(p);
    for (const engine of ['wasm', 'js'] as const) {
      expect(countCompletionsSync(30, placed, { engine }).total).toBe(BigInt(listed.length));
      expect((await countCompletions(30, placed, { engine })).total).toBe(BigInt(listed.length));
    }
  });

  it('reports progress, ending at fraction 1 with the total', async () => {
    const seen: { fraction: number; total: bigint; finished: number; subproblems: number }[] = [];
    const r = await countCompletions(13, [[3, 5]], { threads: 1, onProgress: (p) => seen.push(p) });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ n: 13, fraction: 1, total: r.total });
    expect(last.finished).toBe(last.subproblems);
    expect(r.total).toBe(BigInt([...solutions(13, { placed: [[3, 5]] })].length));
  });

  it('reports the units finished so far, and their share as the fraction, from 0 at the start', async () => {
    // A clock that jumps a second per reading: the calling thread's slices end after a unit each, and report.
    let t = performance.now();
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
    const seen: { finished: number; units: number; fraction: number; total: bigint }[] = [];
    try {
      const r = await countCompletions(13, [[3, 5]], { onProgress: (p) => seen.push(p) });
      expect(r).toMatchObject({ total: BigInt([...solutions(13, { placed: [[3, 5]] })].length) });
    } finally {
      clock.mockRestore();
    }
    expect(seen[0]).toMatchObject({ finished: 0, fraction: 0, total: 0n });
    const units = seen[0].units;
    expect(units).toBeGreaterThan(1);
    expect(seen.some((p) => p.finished > 0 && p.finished < units)).toBe(true);
    for (const [i, p] of seen.entries()) {
      expect(p.units).toBe(units);
      // The finished units, and at most the one being counted (its work is in the fraction before its count is in the total).
      expect(p.fraction, `report ${i}`).toBeGreaterThanOrEqual(p.finished / units - 1e-12);
      expect(p.fraction, `report ${i}`).toBeLessThanOrEqual((p.finished + 1) / units + 1e-12);
      if (i > 0) expect(p.finished).toBeGreaterThanOrEqual(seen[i - 1].finished);
    }
    expect(seen.at(-1)).toMatchObject({ finished: units, fraction: 1 });
  });

  it('an aborted signal rejects with AbortError, also on workers', async () => {
    await expect(countCompletions(20, [[0, 3]], { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    const controller = new AbortController();
    // Aborted at the report after its start (the first that comes, from its workers or its heartbeat, is from inside
    // their job): they are counting units that take minutes, whatever the machine's speed, and must be stopped in one.
    // (Aborted at the start report, the count never reached its workers.)
    let reports = 0;
    const onProgress = (p: { fraction: number }): void => {
      if (++reports === 2 && p.fraction < 1) controller.abort();
    };
    const running = countCompletions(24, [[0, 3]], { threads: 2, signal: controller.signal, onProgress });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(controller.signal.aborted).toBe(true);
  });

  describe('errors', () => {
    const both = (a: string, b: string) => new RegExp(`${a.replace(/[[\]]/g, '\\$&')}.*${b.replace(/[[\]]/g, '\\$&')}`);
    it.each([
      [
        [
          [0, 0],
          [2, 2],
        ],
        '[0, 0]',
        '[2, 2]',
        'diagonal',
      ],
      [
        [
          [5, 1],
          [3, 3],
        ],
        '[5, 1]',
        '[3, 3]',
        'diagonal',
      ],
      [
        [
          [1, 4],
          [6, 4],
        ],
        '[1, 4]',
        '[6, 4]',
        'column',
      ],
      [
        [
          [2, 1],
          [2, 6],
        ],
        '[2, 1]',
        '[2, 6]',
        'row',
      ],
      [
        [
          [2, 3],
          [2, 3],
        ],
        '[2, 3]',
        '[2, 3]',
        'same square',
      ],
      [
        [
          [0, 1],
          [7, 7],
          [4, 1],
        ],
        '[0, 1]',
        '[4, 1]',
        'column',
      ],
    ] as [Queen[], string, string, string][])('%j: a RangeError naming both queens', async (placed, a, b, how) => {
      for (const engine of ENGINES) {
        let error: unknown;
        try {
          countCompletionsSync(8, placed, { engine });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(both(a, b));
        expect((error as Error).message).toContain(how);
        expect((error as { code?: string }).code).toBe('ERR_NQUEENS_ATTACKING_QUEENS');
        await expect(countCompletions(8, placed, { engine })).rejects.toThrow(RangeError);
        expect(() => solutions(8, { placed, engine })).toThrow(RangeError);
      }
    });

    it('out of range: RangeError', async () => {
      for (const placed of [
        [[8, 0]],
        [[0, 8]],
        [[-1, 2]],
        [[0, 1.5]],
        [[NaN, 1]],
        [[0, Infinity]],
        [
          [0, 0],
          [3, 9],
        ],
      ]) {
        expect(() => countCompletionsSync(8, placed as unknown as Queen[])).toThrow(RangeError);
        await expect(countCompletions(8, placed as unknown as Queen[])).rejects.toThrow(RangeError);
        expect(() => solutions(8, { placed: placed as unknown as Queen[] })).toThrow(RangeError);
      }
      expect(() => countCompletionsSync(33, [])).toThrow(RangeError);
      expect(() => countCompletionsSync(0, [])).toThrow(RangeError);
      await expect(countCompletions(8, [], { threads: 0 })).rejects.toThrow(RangeError);
    });

    it('wrong shapes and non-numbers: TypeError', async () => {
      const bad: unknown[] = [null, undefined, '0:1', 5, [0, 1], [[0]], [[0, 1, 2]], [['0', 1]], [[0, null]], [{ 0: 0, 1: 1 }], [[0n, 1n]]];
      for (const placed of bad) {
        expect(() => countCompletionsSync(8, placed as unknown as Queen[]), JSON.stringify(String(placed))).toThrow(TypeError);
        await expect(countCompletions(8, placed as unknown as Queen[])).rejects.toThrow(TypeError);
      }
      expect(() => solutions(8, { placed: 'x' as unknown as Queen[] })).toThrow(TypeError);
      await expect(countCompletions(8, [], { unique: true } as never)).rejects.toThrow(TypeError);
      await expect(countCompletions(8, [], { onProgress: 1 } as never)).rejects.toThrow(TypeError);
      expect(() => countCompletionsSync(8, [], { threads: 2 } as never)).toThrow(TypeError);
    });
  });
});

describe('fundamental solutions: solutions(n, { unique: true })', () => {
  it.each(ENGINES)('as many as OEIS A002562 for n = 1..12 (%s)', (engine) => {
    for (const n of range(1, 12)) {
      let k = 0n;
      for (const _ of solutions(n, { unique: true, engine })) k++;
      expect(k, `n = ${n}`).toBe(UNIQUE[n]);
    }
  });

  it.each(ENGINES)('exactly the smallest of each class, in order, none missing (n = 1..9, %s)', (engine) => {
    for (const n of range(1, 9)) {
      const expected = [...new Map(brute(n).map((p) => [smallest(p).join(), smallest(p)])).values()].sort(compare);
      const got = [...solutions(n, { unique: true, engine })];
      expect(got, `n = ${n}`).toEqual(expected);
    }
  });

  it('each is the lexicographically smallest of its 8 images, strictly increasing (n = 13)', () => {
    const got = [...solutions(13, { unique: true })];
    expect(BigInt(got.length)).toBe(UNIQUE[13]);
    got.forEach((p, i) => {
      expect(smallest(p)).toEqual(p);
      if (i > 0) expect(compare(got[i - 1], p)).toBeLessThan(0);
    });
    // And the classes cover every solution: sum of class sizes = total.
    const classSize = (p: number[]) => new Set(images(p).map((q) => q.join())).size;
    expect(BigInt(got.reduce((s, p) => s + classSize(p), 0))).toBe(TOTAL[13]);
  });

  it('limit works with it', () => {
    expect([...solutions(10, { unique: true, limit: 5 })]).toEqual([...solutions(10, { unique: true })].slice(0, 5));
    expect([...solutions(10, { unique: true, limit: 0 })]).toEqual([]);
    expect([...solutions(8, { unique: true, limit: 1 })]).toEqual([[0, 4, 7, 5, 2, 6, 1, 3]]);
  });

  it('unique: false is all solutions; a non-boolean is a TypeError; with placed, a TypeError', () => {
    expect([...solutions(6, { unique: false })]).toEqual(brute(6));
    expect(() => solutions(6, { unique: 1 as unknown as boolean })).toThrow(TypeError);
    try {
      solutions(8, { unique: true, placed: [[0, 0]] } as never);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TypeError);
      expect((e as { code?: string }).code).toBe('ERR_NQUEENS_INCOMPATIBLE_OPTIONS');
    }
  });
});

describe('paging: solutions(n, { after })', () => {
  it.each(ENGINES)('pages of `limit` after the last one reproduce the full list (%s)', (engine) => {
    for (const [n, unique, size] of [
      [8, false, 7],
      [9, false, 50],
      [8, true, 5],
      [10, true, 9],
      [6, false, 1],
    ] as const) {
      const all = [...solutions(n, { engine, unique })];
      const pages: number[][] = [];
      let after: number[] | undefined;
      for (;;) {
        const page = [...solutions(n, { engine, unique, after, limit: size })];
        pages.push(...page);
        if (page.length < size) break;
        after = page.at(-1);
      }
      expect(pages).toEqual(all);
    }
  });

  it('after any placement (solution or not): exactly the solutions greater than it', () => {
    const random = rng(99);
    for (const n of [1, 4, 5, 6, 7, 8, 9]) {
      const all = brute(n);
      const fundamental = [...new Map(all.map((p) => [smallest(p).join(), smallest(p)])).values()].sort(compare);
      const afters = [new Array(n).fill(0), new Array(n).fill(n - 1), ...all.slice(0, 3), all.at(-1)!];
      for (let i = 0; i < 20; i++) afters.push(Array.from({ length: n }, () => Math.floor(random() * n)));
      for (const after of afters.filter(Boolean)) {
        for (const engine of ENGINES) {
          expect([...solutions(n, { engine, after })], `${engine} after ${after}`).toEqual(all.filter((p) => compare(p, after) > 0));
          expect([...solutions(n, { engine, after, unique: true })]).toEqual(fundamental.filter((p) => compare(p, after) > 0));
          const placed: Queen[] = [[n - 1, after[n - 1]]];
          expect([...solutions(n, { engine, after, placed, limit: 3 })]).toEqual(
            all.filter((p) => compare(p, after) > 0 && contains(p, placed)).slice(0, 3),
          );
        }
      }
    }
  });

  it('pages through n = 20 without enumerating the earlier solutions; wasm and js agree', () => {
    const after = [10, 2, 4, 6, 8, 0, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1, 18, 16, 14, 12];
    const wasm = [...solutions(20, { after, limit: 5, engine: 'wasm' })];
    const js = [...solutions(20, { after, limit: 5, engine: 'js' })];
    expect(wasm).toEqual(js);
    expect(wasm).toHaveLength(5);
    for (let i = 0; i < 5; i++) expect(compare(wasm[i], i ? wasm[i - 1] : after)).toBeGreaterThan(0);
    const next = [...solutions(20, { after: wasm[1], limit: 3 })];
    expect(next).toEqual(wasm.slice(2, 5));
    expect([...solutions(20, { unique: true, after: [9, ...new Array(19).fill(0)], limit: 2 })]).toHaveLength(2);
  });

  it('errors: wrong length or numbers out of range (fractions too) are RangeErrors, other types TypeErrors', () => {
    for (const after of [[0, 1], new Array(9).fill(0), [0, 0, 0, 0, 0, 0, 0, 8], [0, 0, 0, 0, 0, 0, 0, -1], [0, 0, 0, 0, 0, 0, 0, 1.5]]) {
      expect(() => solutions(8, { after })).toThrow(RangeError);
    }
    for (const after of ['01234567', 5, null, { length: 8 }, [0, 0, 0, 0, 0, 0, 0, '1']]) {
      expect(() => solutions(8, { after: after as number[] })).toThrow(TypeError);
    }
  });
});

describe('counts are unchanged', () => {
  it('count and countSync still agree with OEIS', async () => {
    expect((await count(10)).total).toBe(TOTAL[10]);
    expect(countSync(9, { engine: 'js' }).unique).toBe(UNIQUE[9]);
  });
});
