// Every n on every path: each algorithm through countSync, and count on the
// calling thread and on 1, 2 and 3 workers, on both CPU engines, the
// reference engine, and the CLI's count and solve, against OEIS A000170 /
// A002562. (A wrong total at n = 1 through count() with the join, while
// countSync was right, hid behind tests of one path.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { count, countSync, planUnits, type AlgorithmName } from '../dist/index.js';
import { methodForCount } from '../dist/run/methods.js';
import type { Method } from '../dist/contract/method.js';
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
        // The threads it ran on: those asked for, or fewer where the plan has fewer units (never the default instead).
        const ran = Math.max(1, Math.min(threads, planUnits(n, { algorithm }).units));
        expect([threads, r.threads, r.algorithm, r.engine, counts(r)]).toEqual([threads, ran, algorithm, engine, expected(n)]);
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

// The reference engine runs the search alone, on the calling thread: countSync is test/count.test.ts's (to n = 14);
// count() is a loop of its own (src/engines/reference.ts, in slices), here.
it.each(range(1, 12))('engine reference: count(%i) on the calling thread', async (n) => {
  const r = await count(n, { engine: 'reference' });
  expect([r.engine, r.algorithm, r.threads, counts(r)]).toEqual(['reference', 'search', 1, expected(n)]);
});

describe('the CLI', () => {
  const { nqueens } = cliInTempDir('nqueens-every-path-');
  it.each(
    [
      ...ALGORITHMS.flatMap((a) => ENGINES.map((e) => ['--algorithm', a, '--engine', e])),
      ['--algorithm', 'search', '--engine', 'reference'],
      ['--threads', '2'], // the CLI's --threads; count() on 1, 2 and 3 workers of each engine is above
    ].map((options) => [options.join(' '), options] as const),
  )('count 1..12 %s --json: every size exact', (_, options) => {
    const r = nqueens('count', '1..12', ...options, '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { n: number; total: string; unique: string; engine: string; algorithm: string });
    const algorithm = options.includes('join') ? 'join' : 'search';
    const engine = options.find((o) => o === 'wasm' || o === 'js' || o === 'reference') ?? 'wasm';
    expect(rows.map((row) => [row.n, row.engine, row.algorithm, row.total, row.unique])).toEqual(
      range(1, 12).map((n) => [n, engine, algorithm, String(TOTAL[n]), String(UNIQUE[n])]),
    );
  });
});

describe('the CLI past n = 12', () => {
  const { nqueens, dir } = cliInTempDir('nqueens-every-path-big-');
  it('count 13..16 --json: the default algorithm at each n (the join from 16), every size exact', () => {
    const r = nqueens('count', '13..16', '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { n: number; total: string; unique: string; algorithm: string });
    expect(rows.map((row) => [row.n, row.algorithm, row.total, row.unique])).toEqual(
      range(13, 16).map((n) => [n, n >= 16 ? 'join' : 'search', String(TOTAL[n]), String(UNIQUE[n])]),
    );
  });

  it.each(range(1, 16))('n = %i in 2 shards, then merge: exact', (n) => {
    const files = [0, 1].map((i) => join(dir, `every-${n}-${i}.json`));
    for (const [i, file] of files.entries()) expect(nqueens('count', String(n), '--shard', `${i}/2`, '--out', file).code).toBe(0);
    const r = nqueens('merge', ...files, '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n, total: String(TOTAL[n]), unique: String(UNIQUE[n]), shards: 2 });
  });
});

describe('the CLI: solve', () => {
  // The CLI's own entry (run in dist/cli/commands.js, which dist/cli/main.js calls) for each command line in turn, in
  // one process: a process each would take a quarter of a second to start, over a hundred of them here. Each listing
  // is followed by a line `# exit STATUS`.
  const RUN_EACH = `import { run } from './dist/cli/commands.js';
process.setMaxListeners(0); // a listener each run (its exit status)
for (const argv of JSON.parse(process.argv[1])) {
  await run(argv);
  process.stdout.write('# exit ' + process.exitCode + '\\n');
}`;
  const solveEach = (commands: string[][]): string[] => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', RUN_EACH, JSON.stringify(commands)], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    const outputs = r.stdout.split(/^# exit 0\n/m);
    expect(outputs.pop()).toBe(''); // each ended with status 0, nothing after the last
    return outputs;
  };
  /** Whether `p` places n queens, one a row, none attacking another. */
  const isSolution = (n: number, p: number[]): boolean =>
    p.length === n &&
    p.every((c, r) => Number.isInteger(c) && c >= 0 && c < n && p.slice(r + 1).every((d, k) => d !== c && Math.abs(d - c) !== k + 1));
  /** Whether `q` comes after `p` in lexicographic order. */
  const after = (p: number[], q: number[]): boolean => {
    const r = q.findIndex((c, i) => c !== p[i]);
    return r >= 0 && q[r] > p[r];
  };
  /** Solutions of n, each after the one before it (so none twice). */
  const solutionsInOrder = (n: number, lines: number[][]): boolean =>
    lines.every((p, i) => isSolution(n, p) && (i === 0 || after(lines[i - 1], p)));

  // Without --engine (auto, the wasm engine here): the boards below.
  it.each(['wasm', 'js', 'reference'])(
    'solve 1..12 --limit all --format json --engine %s, alone and with --unique: as many as OEIS, each a solution, in order',
    (engine) => {
      const sizes = range(1, 12);
      const listed = solveEach(
        sizes.flatMap((n) => [
          ['solve', String(n), '--limit', 'all', '--format', 'json', '--engine', engine],
          ['solve', String(n), '--unique', '--limit', 'all', '--format', 'json', '--engine', engine],
        ]),
      ).map((text) =>
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as number[]),
      );
      expect(listed.map((lines) => BigInt(lines.length))).toEqual(sizes.flatMap((n) => [TOTAL[n], UNIQUE[n]]));
      expect(listed.map((lines, i) => solutionsInOrder(sizes[i >> 1], lines))).toEqual(listed.map(() => true));
    },
  );

  it('solve 1..10 --limit all (boards): a numbered board per solution, in order, or "# no solutions"', () => {
    const sizes = range(1, 10);
    const listed = solveEach(sizes.map((n) => ['solve', String(n), '--limit', 'all']));
    expect(listed.filter((_, i) => TOTAL[sizes[i]] === 0n)).toEqual(['# no solutions for n = 2\n', '# no solutions for n = 3\n']);
    listed.forEach((text, i) => {
      const n = sizes[i];
      if (TOTAL[n] === 0n) return;
      const placements = text
        .trimEnd()
        .split('\n\n')
        .map((board, k) => {
          const [head, ...rows] = board.split('\n');
          const placement = JSON.parse(head.replace(`# solution ${k + 1}: `, '')) as number[];
          expect(rows).toEqual(placement.map((c) => '.'.repeat(c) + 'Q' + '.'.repeat(n - 1 - c)));
          return placement;
        });
      expect([n, BigInt(placements.length), solutionsInOrder(n, placements)]).toEqual([n, TOTAL[n], true]);
    });
  });
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

    // Between the pieces of each unit, not inside onProgress: the reports come every 100 ms or so, and a unit of n = 14
    // takes a few ms, so a report there never fell between two pieces of one unit (the old test passed with the guard
    // against it gone: src/join/join-kernel.ts, stale).
    it.each(ENGINES)('engine %s: countSync of other n between the pieces of each unit leaves the count of 14 exact', async (engine) => {
      let inside = 0;
      const method = methodForCount(14, algorithm, 1) as Method<{ readonly id: number }>;
      const interleaved: Method<{ readonly id: number }> = {
        ...method,
        counter: (module) => {
          const counter = method.counter(module);
          return function* (unit) {
            const steps = counter(unit);
            for (let step = steps.next(); ; step = steps.next()) {
              if (step.done) return step.value;
              const n = 8 + (inside++ % 3);
              expect(counts(countSync(n, { engine, algorithm }))).toEqual(expected(n));
              yield step.value;
            }
          };
        },
      };
      const r = await runMethod(interleaved, { engine, threads: 0 });
      expect(counts(r)).toEqual(expected(14));
      expect(inside).toBeGreaterThan(100);
    });
  });
});
