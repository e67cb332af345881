// merge's table of published counts (src/cli/known-counts.ts) against the tests' own (test/oeis.ts), and merge's
// refusal of shards that pass every check of their own but do not add up to them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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

  it.each(range(4, 14))('n = %i: shards whose counts pass their own checks but add up to 0 are refused', (n) => {
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
    const r = spawnSync(process.execPath, [cli, 'merge', ...files], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(
      `the shards add up to 0 solutions, 0 unique, but n = ${n} has ${TOTAL[n]}, ${UNIQUE[n]} unique (OEIS A000170, A002562)`,
    );
  });
});
