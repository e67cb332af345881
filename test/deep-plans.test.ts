// A deep plan (millions of units) counts in memory that does not grow with
// its units: no object a unit in the runner, the pool, the workers' messages,
// the CLI or the checkpoint (a whole count sums its units per constellation;
// a checkpoint keeps a bit a unit). n = 16 at depth 4 has 3,367,226 units;
// at ~200 bytes a unit it took 661 MB, and with a count a unit kept and
// every unit in flight an object, ~200 MB. Measured against the default plan
// (the join, 3,299 units) on the same machine with the same default
// threads. The count with a checkpoint does all a count without one does
// and writes the checkpoint besides, so it bounds both.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, peakRssKb, REPORT_PEAK_RSS } from './cli-in-dir.js';

/** What a deep plan may take beyond the default plan: 53-62 MB on one or two cores (2026-11-29), ~125 MB before. */
const DEEP_ALLOWANCE_KB = 96 * 1024;

function countWithPeak(...args: string[]) {
  const r = spawnSync(process.execPath, [...REPORT_PEAK_RSS, cli, 'count', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, peakKb: peakRssKb(r.stderr) };
}

/** Cuts FILE after the whole line that ends past `share` of its bytes, as a kill leaves a checkpoint. */
function keepShare(file: string, share: number): void {
  const at = Math.floor(statSync(file).size * share);
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(4096);
  const got = readSync(fd, chunk, 0, chunk.length, at);
  closeSync(fd);
  const newline = chunk.subarray(0, got).indexOf(10);
  expect(newline).toBeGreaterThanOrEqual(0);
  truncateSync(file, at + newline + 1);
}

describe('deep plans', () => {
  it('count 16 --depth 4 (3.4 M units) with a checkpoint, and its resume, are exact and peak within 96 MB of the default plan', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-deep-'));
    const file = join(dir, 'n16-depth4.ckpt');
    const base = countWithPeak('16');
    const deep = countWithPeak('16', '--depth', '4', '--checkpoint', file);
    keepShare(file, 0.9);
    const resumed = countWithPeak('16', '--depth', '4', '--checkpoint', file);
    rmSync(dir, { recursive: true }); // 160 MB
    expect(resumed.stderr).toMatch(/resumed from .*: 30\d{5} of 3367226 units were already done/);
    for (const r of [base, deep, resumed]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^total\s+14772512$/m);
      expect(r.stdout).toMatch(/^unique\s+1846955$/m);
    }
    expect(deep.stdout).toMatch(/^algorithm\s+search$/m);
    expect(base.stdout).toMatch(/^algorithm\s+join$/m);
    // An allowance over the default plan, not a ratio: on one core the default plan runs with no worker (62 MB) and
    // the deep one peaked at 2.0x it; on two cores 76 against 126-129 MB. Every unit in flight an object took ~200 MB.
    expect(deep.peakKb - base.peakKb).toBeLessThan(DEEP_ALLOWANCE_KB);
    expect(resumed.peakKb - base.peakKb).toBeLessThan(DEEP_ALLOWANCE_KB);
  }, 300_000);
});
