// merge holds every unit of the plan at once (to check coverage, the
// symmetric constellations' parts, and --verify): 8 bytes a unit, never a
// string and a bigint object a unit, and one file's text at a time. Before,
// the documented n = 24 --depth 3 in 5 shards (60.5 M units) peaked at
// 2.4 GB and ended in V8's heap-out-of-memory abort under a 2 GB heap.
// Here n = 16 at depth 4 (3,367,226 units) in 4 shards, merged under a
// 28 MB heap: it aborted (exit 134) at 96 MB before, and at 32 MB where each
// parsed shard kept its array of count strings (4 bytes a unit more); it
// needs about 20 now (Node 20.20, 2026-11-29).
// Their counts are zeros, so merge refuses the sum at the end (not OEIS's).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli-in-dir.js';
import { shardResult } from '../dist/cli/shards.js';
import { plannedMethod } from '../dist/run/methods.js';

describe('merge memory', () => {
  it('merges 3.4 M units in 4 shards under a 28 MB heap, to the end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-merge-memory-'));
    try {
      const plan = plannedMethod('search', 16, 4);
      expect(plan.units).toBe(3_367_226);
      const files: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { from, to } = plan.shardRange(i, 4);
        // Zeros: consistent with every check merge makes alone (what they add up to is the files' business).
        const r = shardResult(plan, { index: i, count: 4 }, { from, to }, new BigUint64Array(to - from), {
          engine: 'wasm',
          threads: 1,
          elapsedMs: 1,
        });
        const file = join(dir, `s${i}.json`);
        writeFileSync(file, JSON.stringify(r));
        files.push(file);
      }
      const r = spawnSync(process.execPath, ['--max-old-space-size=28', cli, 'merge', ...files, '--json'], { encoding: 'utf8' });
      // Read and added up to the end within the heap: refused only there, as a sum that is not n = 16's.
      expect([r.status, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toBe(
        'nqueens: the shards add up to 0 solutions, 0 unique, but n = 16 has 14772512, 1846955 unique (OEIS A000170, A002562): ' +
          'a shard was miscounted or edited; --verify K recounts K random units to find it [ERR_NQUEENS_BAD_SHARD]\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
