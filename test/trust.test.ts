// Results you can trust: an immutable, refinable plan; engines that honour
// signal and onProgress; a CLI that never claims a success it did not have.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../dist/index.js';
import { count, countCompletions, countSync, planSubproblems, planUnits, type Progress } from '../dist/index.js';
import { getWasmKernel, jsKernel } from '../dist/search/search-kernel.js';
import { countUnit, searchCounting } from '../dist/search/search-method.js';
import { searchPlan, unitsOf } from './plans.js';
import { countWhole, recounter } from '../dist/contract/method.js';
import { methodForCount } from '../dist/run/methods.js';
import { TOTAL, UNIQUE } from './oeis.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nqueens-trust-'));
function nqueens(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the plan', () => {
  it('planSubproblems returns a fresh frozen copy: nothing a caller does changes a later count', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test tries what a careless caller would
    const p = planSubproblems(10) as any;
    expect(Object.isFrozen(p)).toBe(true);
    expect(() => (p.length = 3)).toThrow(TypeError);
    expect(() => p.push(p[0])).toThrow(TypeError);
    expect(() => (p[0].weight = 1000)).toThrow(TypeError);
    expect(planSubproblems(10)).not.toBe(p);
    expect((await count(10)).total).toBe(724n);
    expect(countSync(10).total).toBe(724n);
  });

  it('every exported table (ENGINES, ALGORITHMS, ERROR_CODES) is frozen: a caller cannot widen what options accept', () => {
    const tables = Object.entries(api).filter(([, value]) => typeof value === 'object' && value !== null);
    expect(tables.map(([name]) => name).sort()).toEqual(['ALGORITHMS', 'ENGINES', 'ERROR_CODES']);
    for (const [, table] of tables) expect(Object.isFrozen(table)).toBe(true);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test tries what a careless caller would
    const engines = api.ENGINES as any;
    expect(() => engines.push('bogus')).toThrow(TypeError);
    expect(() => (engines.length = 0)).toThrow(TypeError);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    expect(() => (api.ALGORITHMS as any).push('bogus')).toThrow(TypeError);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an engine name the list never had
    expect(() => countSync(8, { engine: 'bogus' as any })).toThrow(RangeError);
    expect(countSync(8, { engine: 'wasm' }).total).toBe(92n);
  });

  it.each(['join', 'search'] as const)('planUnits with the %s: every unit it yields is frozen', async (algorithm) => {
    const units = [...planUnits(16, { algorithm }).unitsIn(0, 50)];
    expect(units).toHaveLength(50);
    for (const unit of units) expect(Object.isFrozen(unit)).toBe(true);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test tries what a careless caller would
    expect(() => ((units[0] as any).weight = 1e6)).toThrow(TypeError);
    expect((await count(16, { algorithm })).total).toBe(14772512n);
  });

  it('planUnits is frozen too, and its units are exact at every depth on both kernels', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test tries what a careless caller would
    const info = planUnits(10, { depth: 2 }) as any;
    expect(Object.isFrozen(info)).toBe(true);
    expect(() => (info.units = 1)).toThrow(TypeError);
    for (const kernel of [getWasmKernel()!, jsKernel]) {
      for (const n of [6, 8, 10, 11]) {
        for (let depth = 0; depth <= 4; depth++) {
          const plan = searchPlan(n, depth);
          let total = 0n;
          let unique8 = 0n;
          const ids: number[] = [];
          for (const unit of unitsOf(plan)) {
            const steps = countUnit(kernel, n, unit);
            let step = steps.next();
            while (!step.done) step = steps.next();
            const c = plan.contribution(unit.id, step.value);
            total += c.total;
            unique8 += c.unique8;
            ids.push(unit.id);
          }
          expect([kernel.name, n, depth, total, unique8]).toEqual([kernel.name, n, depth, TOTAL[n], UNIQUE[n] * 8n]);
          expect(ids).toEqual(Array.from({ length: plan.units }, (_, i) => i));
        }
      }
    }
  });

  it('has an identity: a digest over method, n, depth and format; stable ids', () => {
    const a = planUnits(12, { depth: 1 });
    const b = planUnits(12, { depth: 2 });
    expect(a).toMatchObject({
      method: 'search',
      n: 12,
      depth: 1,
      formatVersion: 1,
      digest: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(a.digest).not.toBe(b.digest);
    expect(planUnits(12, { depth: 1 }).digest).toBe(a.digest);
    const unit = [...a.unitsIn(100, 101)][0];
    expect([...a.unitsIn()][100]).toEqual(unit);
    expect(Object.isFrozen(unit)).toBe(true);
  });

  it("the search's default depth keeps the largest unit a small share of a part", () => {
    for (const parts of [1, 2, 64, 100_000]) {
      const p = planUnits(21, { parts, algorithm: 'search' });
      if (p.depth < 4) expect(p.largestUnitShare).toBeLessThanOrEqual(1 / (8 * parts));
    }
  });

  it('a search unit of n = 21 goes to the kernel in pieces of at most 8 + floor(21 / 3) = 15 open rows', () => {
    // docs/plans-and-shards.md: pieces keep progress moving and abort prompt at any n. The stub kernel
    // records what each call leaves open; the real one would take minutes on the whole unit.
    const plan = searchPlan(21, 0);
    const [unit] = plan.unitsIn(0, 1);
    expect([unit.kind, unit.constellation.innerRows, unit.prefix]).toEqual(['solutions', 18, []]);
    const open: number[] = [];
    const stub = {
      countPlaced: (_n: number, s: { innerRows: number }, placed: { rows: number }) => {
        open.push(s.innerRows - placed.rows);
        return 1n;
      },
      countFixes: () => 0n,
    };
    const steps = countUnit(stub, 21, unit);
    const shares: number[] = [];
    let step = steps.next();
    while (!step.done) {
      shares.push(step.value);
      step = steps.next();
    }
    expect(open.length).toBeGreaterThan(1);
    expect(Math.max(...open)).toBe(15);
    expect(step.value).toBe(BigInt(open.length));
    expect(shares).toHaveLength(open.length);
    expect(shares.every((share, i) => share > 0 && share <= 1 && (i === 0 || share >= shares[i - 1]))).toBe(true);
    expect(shares.at(-1)).toBeCloseTo(1, 9);
  });

  it('a search unit whose border queen lies off the board is a RangeError naming it, before any counting', () => {
    const [unit] = searchPlan(8, 0).unitsIn(0, 1);
    const count = searchCounting.counter(8, null);
    for (const key of ['a', 'b', 'c', 'd'] as const) {
      for (const bad of [8, -1, 2.5]) {
        const off = { ...unit, constellation: { ...unit.constellation, [key]: bad } };
        expect(() => count(off)).toThrow(
          expect.objectContaining({
            name: 'RangeError',
            code: 'ERR_NQUEENS_OUT_OF_RANGE',
            message: `unit 0: ${key} = ${bad} is not a column/row of an n = 8 board`,
          }),
        );
      }
    }
  });

  it('a search unit whose prefix is no placement of its constellation is a RangeError naming it', () => {
    const [unit] = searchPlan(8, 0).unitsIn(0, 1);
    // Column 0 is the border queen's on column 0 (c): no inner row can take it.
    const bad = { ...unit, prefix: [0] };
    for (const kernel of [getWasmKernel()!, jsKernel]) {
      expect(() => countUnit(kernel, 8, bad).next()).toThrow(
        expect.objectContaining({
          name: 'RangeError',
          code: 'ERR_NQUEENS_OUT_OF_RANGE',
          message: `unit 0: the prefix [0] is not a placement of this constellation`,
        }),
      );
    }
  });

  it("the join's units are its row splits whatever the parts: the largest is its first unit's estimated share", () => {
    const p = planUnits(21, { parts: 100_000 });
    expect(p.method).toBe('join');
    expect(p.units).toBe(970288);
    // Larger than one unit in 970,288 (its largest, by passes and spread), far below a part of 8.
    expect(p.largestUnitShare).toBeGreaterThan(1 / 970288);
    expect(p.largestUnitShare).toBeLessThan(1 / (8 * 1000));
  });
});

describe('engines', () => {
  it('a signal that is not an AbortSignal is a TypeError at the call', async () => {
    const fake = { aborted: false, addEventListener() {}, removeEventListener() {} };
    await expect(count(8, { signal: fake as never })).rejects.toThrow(TypeError);
    await expect(count(8, { signal: fake as never })).rejects.toMatchObject({ code: 'ERR_NQUEENS_INVALID_TYPE' });
    // One that inherits from AbortSignal.prototype without being one passed `instanceof`, then failed inside with
    // Node's own uncoded ERR_INVALID_THIS.
    const inheriting = Object.create(AbortSignal.prototype) as AbortSignal;
    for (const call of [() => count(8, { signal: inheriting }), () => countCompletions(8, [[0, 0]], { signal: inheriting })]) {
      await expect(call()).rejects.toMatchObject({
        name: 'TypeError',
        code: 'ERR_NQUEENS_INVALID_TYPE',
        message: expect.stringMatching(/options.signal must be an AbortSignal/),
      });
    }
  });

  it('the reference engine reports progress and honours abort', async () => {
    const seen: Progress[] = [];
    const r = await count(9, { engine: 'reference', onProgress: (p) => seen.push(p) });
    expect(r).toMatchObject({ total: 352n, unique: 46n, engine: 'reference' });
    expect(seen.at(-1)).toMatchObject({ finished: 9, subproblems: 9, fraction: 1, total: 352n, unique: 46n });
    const controller = new AbortController();
    const running = count(14, {
      engine: 'reference',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the CLI never claims a success it did not have', () => {
  it('a closed stdout (| head) stops the command at once with status 0', async () => {
    const child = spawn(process.execPath, [cli, 'solve', '20', '--limit', '1000000000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  it.runIf(existsSync('/dev/full'))('a full disk (/dev/full) fails with status 1 and says so', () => {
    for (const args of [['count', '10'], ['solve', '8', '--limit', '3'], ['--help']]) {
      const fd = openSync('/dev/full', 'w');
      const r = spawnSync(process.execPath, [cli, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      closeSync(fd);
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 1]);
      expect(r.stderr).toBe('nqueens: cannot write to stdout: ENOSPC (no space left on device) [ERR_NQUEENS_WRITE_FAILED]\n');
    }
  });

  it('--out, --checkpoint and --subtotals are checked before counting starts', () => {
    const missing = join(dir, 'no-such-dir');
    const cases: [string[], RegExp][] = [
      [
        ['count', '20', '--shard', '0/2', '--out', join(missing, 'a.json')],
        /cannot write the shard result to .*no-such-dir\/a.json: its directory .*no-such-dir does not exist; create it first/,
      ],
      [
        ['count', '20', '--checkpoint', join(missing, 'a.ckpt')],
        /cannot write the checkpoint .*no-such-dir\/a.ckpt: its directory .*no-such-dir does not exist; create/,
      ],
      [
        ['count', '20', '--subtotals', join(missing, 'a.txt')],
        /cannot write the subtotals to .*no-such-dir\/a.txt: its directory .*no-such-dir does not exist; create/,
      ],
      [['count', '20', '--shard', '0/2', '--out', dir], /cannot write the shard result to .*: it is a directory/],
      // A name that ends in "/" names a directory, whether or not it exists (not EISDIR, nor the claim FILE.partial).
      ...[
        ['--checkpoint', 'the checkpoint'],
        ['--subtotals', 'the subtotals to'],
        ['--out', 'the shard result to'],
      ].map(([flag, what]): [string[], RegExp] => [
        ['count', '20', ...(flag === '--out' ? ['--shard', '0/2'] : []), flag, `${missing}/`],
        new RegExp(`^nqueens: cannot write ${what} .*no-such-dir/: the name ends in "/", so it names a directory; give a file's name`),
      ]),
    ];
    for (const [args, message] of cases) {
      // n = 20 takes hours: an answer at all means nothing was counted first.
      const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
      expect([args.join(' '), r.status, r.stdout]).toEqual([args.join(' '), 1, '']);
      expect(r.stderr).toMatch(message);
    }
  });

  it('one set of exit codes: 0 done, 1 failed or refused, 2 usage, documented in --help', () => {
    expect(nqueens('count', '8').code).toBe(0);
    expect(nqueens('count', '0').code).toBe(2);
    expect(nqueens('merge', '--verify', 'x', 'a.json').code).toBe(2);
    expect(nqueens('merge', 'nope.json').code).toBe(1);
    const help = nqueens('--help').stdout;
    expect(help).toMatch(/0 done, 1 failed \(refused input included\),\s+2 usage error, 130 interrupted/);
  });

  it('--subtotals writes per-constellation subtotals that add up to the count', () => {
    const file = join(dir, 'n10.subtotals');
    const r = nqueens('count', '10', '--subtotals', file);
    expect(r.code).toBe(0);
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^\d/.test(l))
      .map((l) => l.split(' ').map(BigInt));
    expect(rows).toHaveLength(planSubproblems(10).length);
    const total = rows.reduce((sum, [, , , , , w, s]) => sum + w * s, 0n);
    const unique8 = rows.reduce((sum, [, , , , , w, s, f]) => sum + w * (s + f), 0n);
    expect([total, unique8 / 8n]).toEqual([724n, 92n]);
  });
});

describe("merge --verify's recount of one unit", () => {
  // merge renews its claim on --subtotals' FILE.partial from `between`: a unit recounted for minutes must call it
  // between its pieces, or another host takes the claim over after 120 s (docs/cli.md).
  it.each([
    ['join', 16, 0],
    ['join', 17, 5],
    ['search', 14, 0],
  ] as const)('%s, n = %i, unit %i: the count of countWhole, with `between` called once per piece', (algorithm, n, id) => {
    const method = methodForCount(n, algorithm, 1);
    const counter = method.counter(method.module('wasm'));
    const [unit] = method.unitsIn(id, id + 1);
    const pieces = [...counter(unit)].length;
    let calls = 0;
    expect(recounter(method, 'wasm', () => calls++)(id)).toBe(countWhole(counter, unit));
    expect([pieces > 0, calls]).toEqual([true, pieces]);
  });
});
