// Every n on every path: each algorithm through countSync, and count on the
// calling thread and on 1, 2 and 3 workers, on both CPU engines, and the CLI,
// against OEIS A000170 / A002562. (A wrong total at n = 1 through count()
// with the join, while countSync was right, hid behind tests of one path.)
import { describe, expect, it } from 'vitest';
import { count, countSync, type AlgorithmName } from '../dist/index.js';
import { methodForCount } from '../dist/run/methods.js';
import { runMethod } from '../dist/run/runner.js';
import { cliInTempDir } from './cli-in-dir.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

const ENGINES = ['wasm', 'js'] as const;
const ALGORITHMS: readonly AlgorithmName[] = ['join', 'search'];
/** Up to here every path runs (well under a second each); the larger n below run on fewer paths. */
const ALL_PATHS_MAX_N = 13;

const expected = (n: number) => ({ total: TOTAL[n], unique: UNIQUE[n] });
const counts = (r: { total: bigint; unique: bigint }) => ({ total: r.total, unique: r.unique });

describe.each(ALGORITHMS)('algorithm %s', (algorithm) => {
  describe.each(ENGINES)('engine %s', (engine) => {
    it.each(range(1, ALL_PATHS_MAX_N))('n = %i: countSync, and count on this thread and on 1, 2 and 3 workers', async (n) => {
      const sync = countSync(n, { engine, algorithm });
      expect([sync.algorithm, counts(sync)]).toEqual([algorithm, expected(n)]);
      const onThisThread = await count(n, { engine, algorithm });
      expect([onThisThread.algorithm, counts(onThisThread)]).toEqual([algorithm, expected(n)]);
      for (const threads of [1, 2, 3]) {
        const r = await count(n, { engine, algorithm, threads });
        expect([threads, r.algorithm, r.engine, counts(r)]).toEqual([threads, algorithm, engine, expected(n)]);
      }
    });
  });

  // count() lets the calling thread count while its workers start: at these n it often ends before any is up, so the
  // worker paths above may go untried. The same plans, with the calling thread kept out (as the join's from n = 18 and
  // completion counts always are), count on the workers alone, whatever the machine's speed.
  it.each(ENGINES)('engine %s: n = 1..13 on 2 workers alone', async (engine) => {
    for (const n of range(1, ALL_PATHS_MAX_N)) {
      const r = await runMethod({ ...methodForCount(n, algorithm, 2), helps: false }, { engine, threads: 2 });
      expect([n, r.engine, counts(r)]).toEqual([n, engine, expected(n)]);
    }
  });

  it.each([14, 15])('n = %i: wasm, countSync and count on 2 workers', async (n) => {
    expect(counts(countSync(n, { algorithm }))).toEqual(expected(n));
    expect(counts(await count(n, { algorithm, threads: 2 }))).toEqual(expected(n));
  });
});

describe('the CLI', () => {
  const { nqueens } = cliInTempDir('nqueens-every-path-');
  it.each(ALGORITHMS.flatMap((a) => ENGINES.map((e) => [a, e] as const)))(
    'count 1..12 --algorithm %s --engine %s --json: every size exact',
    (algorithm, engine) => {
      const r = nqueens('count', '1..12', '--algorithm', algorithm, '--engine', engine, '--json');
      expect([r.code, r.stderr]).toEqual([0, '']);
      const rows = r.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { n: number; total: string; unique: string; algorithm: string });
      expect(rows.map((row) => [row.n, row.algorithm, row.total, row.unique])).toEqual(
        range(1, 12).map((n) => [n, algorithm, String(TOTAL[n]), String(UNIQUE[n])]),
      );
    },
  );
});

describe('counts that overlap on one thread', () => {
  // The join's TypeScript kernel keeps its halves and tables per thread: counts of other n that ran between two
  // pieces of a unit once left it with their n's geometry (wrong totals, or a RangeError with no code).
  describe.each(ALGORITHMS)('algorithm %s', (algorithm) => {
    it.each(ENGINES)('engine %s: n = 8..14 started at once, on this thread and on 2 threads, all exact', async (engine) => {
      const sizes = range(8, 14);
      for (const threads of [undefined, 2]) {
        const results = await Promise.all(sizes.map((n) => count(n, { engine, algorithm, threads })));
        expect(results.map(counts)).toEqual(sizes.map(expected));
      }
    });

    it.each(ENGINES)('engine %s: countSync of other n inside onProgress leaves count(14) exact', async (engine) => {
      let inside = 0;
      const onProgress = (): void => {
        const n = 8 + (inside++ % 5);
        expect(counts(countSync(n, { engine, algorithm }))).toEqual(expected(n));
      };
      const r = await count(14, { engine, algorithm, threads: 1, onProgress });
      expect(counts(r)).toEqual(expected(14));
      expect(inside).toBeGreaterThan(1);
    });
  });
});
