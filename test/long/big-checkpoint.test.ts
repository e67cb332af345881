// A checkpoint over 512 MB (Node's longest string: such a file was never
// read back, and all its work was lost) resumes exactly, read once in
// bounded memory. It is made as a user would make it: n = 18 at depth 4
// (17.0 M units, a line each, ~811 MB whole), stopped with SIGTERM once
// the file passes 512 MB, then run again.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, peakRssKb, REPORT_PEAK_RSS } from '../cli-in-dir.js';

const MB = 1 << 20;

describe('a checkpoint over 512 MB', () => {
  it('n = 18 at depth 4, stopped past 512 MB, resumes to the exact count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-big-ckpt-'));
    const file = join(dir, 'n18-depth4.ckpt');
    const args = [cli, 'count', '18', '--depth', '4', '--checkpoint', file];
    try {
      // stdout a pipe (an ignored one is a closed stdout, refused), drained.
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.resume();
      let status: number | null | undefined;
      const exited = new Promise<void>((resolve) => child.on('exit', (code) => ((status = code), resolve())));
      while (status === undefined && !(existsSync(file) && statSync(file).size > 512 * MB)) await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGTERM');
      await exited;
      expect(status).toBe(143);
      const size = statSync(file).size;
      expect(size).toBeGreaterThan(512 * MB);

      const resumed = spawnSync(process.execPath, [...REPORT_PEAK_RSS, ...args], { encoding: 'utf8' });
      expect(resumed.status).toBe(0);
      expect(resumed.stdout).toMatch(/^total\s+666090624$/m);
      expect(resumed.stdout).toMatch(/^unique\s+83263591$/m);
      expect(resumed.stderr).toMatch(/resumed from .*: \d+ of 17000116 units were already done/);
      // Read as one string it would not even fit; streamed, the whole resumed count stays well under the file's size.
      expect(peakRssKb(resumed.stderr) * 1024).toBeLessThan(size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
