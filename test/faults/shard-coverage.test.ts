// Every default plan, cut into any number of shards, covers every unit
// exactly once: shard 0 starts at unit 0, each shard starts where the last
// ended, the last ends at the plan's end. (At n = 6, shard 0 of every m
// began at unit 1, so merge always refused: a constellation estimated at no
// work sent its unit to no shard.)
import { describe, expect, it } from 'vitest';
import { methodForCount, resolveAlgorithm } from '../../dist/run/methods.js';
import { cliInTempDir } from '../cli-in-dir.js';
import { range } from '../oeis.js';

/** count --shard cuts the plan for this many parts per shard (src/cli/count.ts). */
const PARTS_PER_SHARD = 2;

describe('shards', () => {
  it.each(range(1, 20))('n = %i: every m from 1 to 64 tiles the default plan', (n) => {
    const gaps: string[] = [];
    for (let m = 1; m <= 64; m++) {
      const plan = methodForCount(n, resolveAlgorithm(n, 'auto', 'auto'), m * PARTS_PER_SHARD);
      let next = 0;
      for (let i = 0; i < m; i++) {
        const { from, to } = plan.shardRange(i, m);
        if (from !== next || to < from) gaps.push(`m = ${m}, shard ${i}: ${from}..${to}, expected to start at ${next}`);
        next = Math.max(next, to);
      }
      if (next !== plan.units) gaps.push(`m = ${m}: the shards end at ${next} of ${plan.units} units`);
    }
    expect(gaps).toEqual([]);
  });

  it.each([2, 3, 7])('n = 6 in %i shards merges to 4 / 1', (m) => {
    const { nqueens } = cliInTempDir('nqueens-cover-');
    const files = range(0, m - 1).map((i) => `s${i}.json`);
    files.forEach((file, i) => expect(nqueens('count', '6', '--shard', `${i}/${m}`, '--out', file).code).toBe(0));
    const r = nqueens('merge', ...files, '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 6, total: '4', unique: '1' });
  });
});
