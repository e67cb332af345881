// A deep plan (millions of units) counts in memory that does not grow with
// its units: no object a unit in the runner, the CLI or the checkpoint.
// n = 16 at depth 4 has 3,367,226 units, 18.6 times depth 2's 180,918; at
// ~200 bytes a unit (a Map entry and a bigint each, as before) it took
// 661 MB. What remains (about 150-200 MB on 2 cores, against 75 MB for
// the default plan's 0.4 s count) is V8 sizing two threads' heaps for a long
// count's garbage, about the same at depth 2 and depth 4.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, peakRssKb, REPORT_PEAK_RSS } from './cli-in-dir.js';

function countWithPeak(...args: string[]) {
  const r = spawnSync(process.execPath, [...REPORT_PEAK_RSS, cli, 'count', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, peakKb: peakRssKb(r.stderr) };
}

describe('deep plans', () => {
  it('count 16 --depth 4 (3.4 M units) is exact and peaks within 2x of depth 2 (181 k units)', () => {
    const shallow = countWithPeak('16', '--depth', '2');
    const deep = countWithPeak('16', '--depth', '4');
    for (const r of [shallow, deep]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^total\s+14772512$/m);
      expect(r.stdout).toMatch(/^unique\s+1846955$/m);
    }
    expect(deep.peakKb).toBeLessThan(2 * shallow.peakKb);
    expect(deep.peakKb).toBeLessThan(400_000);
  }, 300_000);
});
