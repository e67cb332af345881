// merge's table of published counts (src/cli/known-counts.ts) against the tests' own (test/oeis.ts), and merge's
// refusal of shards that pass every check of their own but do not add up to them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_MAX_N, knownCounts } from '../dist/shared/known-counts.js';
import { shardResult } from '../dist/cli/shards.js';
import { plannedMethod } from '../dist/run/methods.js';
import { cli } from './cli-in-dir.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

describe("merge's published counts", () => {
  it('are OEIS A000170 and A002562 for n = 1..27, and nothing past them', () => {
    expect(KNOWN_MAX_N).toBe(27);
    for (const n of range(1, 27)) expect([n, knownCounts(n)]).toEqual([n, { total: TOTAL[n], unique: UNIQUE[n] }]);
    expect([knownCounts(0), knownCounts(28), knownCounts(1.5)]).toEqual([undefined, undefined, undefined]);
  });

  it.each(range(4, 14))('n = %i: shards whose counts pass their own checks but add up to 0 are refused, no subtotals written', (n) => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-known-'));
    const plan = plannedMethod('search', n, 1);
    const files = [0, 1].map((index) => {
      const { from, to } = plan.shardRange(index, 2);
      const shard = shardResult(plan, { index, count: 2 }, { from, to }, new BigUint64Array(to - from), {
        engine: 'wasm',
        threads: 1,
        elapsedMs: 1,
      });
      const file = join(dir, `s${index}.json`);
      writeFileSync(file, JSON.stringify(shard));
      return file;
    });
    const r = spawnSync(process.execPath, [cli, 'merge', ...files, '--subtotals', join(dir, 'sub.txt')], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(
      `the shards add up to 0 solutions, 0 unique, but n = ${n} has ${TOTAL[n]}, ${UNIQUE[n]} unique (OEIS A000170, A002562)`,
    );
    // A refused merge leaves no subtotals (nor their claim): only the shards are there.
    expect(readdirSync(dir).sort()).toEqual(['s0.json', 's1.json']);
  });

  it('n = 8: shards off in the total only, or in the unique count only, are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-known-'));
    const real = join(dir, 'real.json');
    expect(spawnSync(process.execPath, [cli, 'count', '8', '--shard', '0/1', '--out', real]).status).toBe(0);
    const counted = JSON.parse(readFileSync(real, 'utf8')) as { plan: { depth: number }; counts: string[] };
    const plan = plannedMethod('search', 8, counted.plan.depth);
    const counts = counted.counts.map(BigInt);
    const adds = (unit: number) => plan.contribution(unit, 1n);
    // A constellation of stabiliser 2 (4 solutions a count), its fixes unit after it (unique only), and one of 8.
    const sym = counts.findIndex(
      (_, k) => adds(k).total === 4n && adds(k).unique8 === 4n && adds(k + 1).total === 0n && counts[k + 1] > 0n,
    );
    const plain = counts.findIndex((c, k) => adds(k).total === 8n && c > 0n);
    expect([sym, plain].every((k) => k >= 0)).toBe(true);
    const merged = (edits: [number, bigint][]) => {
      const forged = BigUint64Array.from(counts);
      for (const [unit, by] of edits) forged[unit] += by;
      const shard = shardResult(plan, { index: 0, count: 1 }, { from: 0, to: plan.units }, forged, {
        engine: 'wasm',
        threads: 1,
        elapsedMs: 1,
      });
      const file = join(dir, 'forged.json');
      writeFileSync(file, JSON.stringify(shard));
      const r = spawnSync(process.execPath, [cli, 'merge', file], { encoding: 'utf8' });
      return [r.status, r.stdout, r.stderr.split(' (OEIS')[0]];
    };
    // One more solution of the symmetric constellation, one fix less: the total 4 more, the unique count the same.
    expect(
      merged([
        [sym, 1n],
        [sym + 1, -1n],
      ]),
    ).toEqual([1, '', 'nqueens: the shards add up to 96 solutions, 12 unique, but n = 8 has 92, 12 unique']);
    // Two more solutions and fixes there, one less of the plain one: the total the same, one more unique.
    expect(
      merged([
        [sym, 2n],
        [sym + 1, 2n],
        [plain, -1n],
      ]),
    ).toEqual([1, '', 'nqueens: the shards add up to 92 solutions, 13 unique, but n = 8 has 92, 12 unique']);
  });
});
