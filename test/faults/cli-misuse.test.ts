// What a careless or hostile command line gets: outputs that lead to one of
// the process's descriptors are refused whatever stdout is, shards too big
// for merge to read are refused before counting, options that would do
// nothing are usage errors, and a range of one size is still a table.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliInTempDir } from '../cli-in-dir.js';
import { planUnits } from '../../dist/index.js';

const { dir, nqueens } = cliInTempDir('nqueens-misuse-');

/** The CLI with stdout redirected to `file` (as `> file` would). */
function intoFile(file: string, ...args: string[]) {
  const fd = openSync(file, 'w');
  try {
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    return { code: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe("outputs that lead to one of the process's descriptors", () => {
  symlinkSync('/dev/stdout', join(dir, 'to-stdout'));
  it.each([
    ['--out', '/dev/stdout', ['count', '10', '--shard', '0/2'], 'the shard result', ' (for stdout, use --out -)'],
    ['--out', '/dev/fd/1', ['count', '10', '--shard', '0/2'], 'the shard result', ' (for stdout, use --out -)'],
    ['--out', '/proc/self/fd/1', ['count', '10', '--shard', '0/2'], 'the shard result', ' (for stdout, use --out -)'],
    ['--out', 'to-stdout', ['count', '10', '--shard', '0/2'], 'the shard result', ' (for stdout, use --out -)'],
    ['--subtotals', '/dev/stderr', ['count', '10'], 'the subtotals', ''],
    ['--checkpoint', '/dev/stdout', ['count', '10'], '', ''],
  ])('%s %s is refused before counting, with stdout a file (it would be replaced) or a pipe', (option, file, command, what, hint) => {
    const redirected = join(dir, 'redirected.txt');
    writeFileSync(redirected, 'kept\n');
    const doing = option === '--checkpoint' ? `cannot use the checkpoint ${file}` : `cannot write ${what} to ${file}`;
    const refusal = new RegExp(`^nqueens: ${doing}: it leads to /(proc/self|dev)/fd/[12], one of this process's descriptors, not a file`);
    const viaFile = intoFile(redirected, ...command, option, file);
    expect([viaFile.code, viaFile.stderr]).toEqual([1, expect.stringMatching(refusal)]);
    expect(viaFile.stderr.trimEnd().endsWith(`${hint} [ERR_NQUEENS_WRITE_FAILED]`)).toBe(true);
    expect(readFileSync(redirected, 'utf8')).toBe(''); // opened for writing (as `>` does), nothing written, not replaced
    const viaPipe = nqueens(...command, option, file);
    expect([viaPipe.code, viaPipe.stdout, viaPipe.stderr]).toEqual([1, '', expect.stringMatching(refusal)]);
  });
});

describe('shards too big to merge', () => {
  // Shards are cut by work, so they differ in units: 4 shards of n = 24 at depth 3 average 15.1 million units, but
  // the last holds 17.4 million. Every task of the split is refused, the one that would fit too.
  it.each(['0/1', '1/2', '0/4', '3/4'])(
    'n = 24 at depth 3 (60.5 million units), shard %s: refused before counting, naming 5 shards, where each fits',
    (shard) => {
      const r = nqueens('count', '24', '--depth', '3', '--shard', shard, '--out', 'big.json');
      expect(r.code).toBe(2);
      const widest = { '0/1': '0/1 would hold 60543017', '1/2': '1/2 would hold 34181058' }[shard] ?? '3/4 would hold 17368408';
      expect(r.stderr).toContain(
        `--shard ${shard}: shard ${widest} of the plan's 60543017 units, over the 16777216 a shard file holds; split the count into 5 shards, where each fits`,
      );
      expect([existsSync(join(dir, 'big.json')), existsSync(join(dir, 'big.json.partial'))]).toEqual([false, false]);
    },
  );

  it('in 5 shards, each holds at most 2^24 units (the split the refusal names)', () => {
    const plan = planUnits(24, { depth: 3 });
    const sizes = Array.from({ length: 5 }, (_, i) => plan.shard(i, 5)).map(({ from, to }) => to - from);
    expect(sizes.reduce((a, b) => a + b)).toBe(60543017);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 ** 24);
  });
});

describe('options that would do nothing', () => {
  it.each([
    [['version', '--threads', '2'], '--threads does not apply to version; it takes no options'],
    [['help', '--json'], '--json does not apply to help; it takes no options'],
    [['help', 'count', '--engine', 'js'], '--engine does not apply to help; it takes no options'],
    [['--json'], '--json needs a command, e.g. `nqueens count 12 --json ...`'],
    [['count', '10', '--shard', '0/2', '--out', '-', '--json'], '--json goes with --out FILE'],
    [['merge', ''], 'merge: a shard file name is empty ("")'],
    [['merge', 'a.json', '--seed', '5'], '--seed goes with --verify K'],
    // Before: accepted, and it did nothing.
    [['merge', 'a.json', '--engine', 'js'], '--engine goes with --verify K: the engine that recounts'],
  ])('%j is a usage error', (args, message) => {
    const r = nqueens(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(message);
  });

  it('--help and --version win over any other option', () => {
    expect(nqueens('--version', '--json')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(nqueens('count', '8', '--help')).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage:') });
  });
});

describe("a name long enough that its sibling's would not fit", () => {
  // The file system's limit on a name (255 on ext4, tmpfs and overlayfs), and the longest name each option takes.
  const nameMax = Number(spawnSync('getconf', ['NAME_MAX', dir], { encoding: 'utf8' }).stdout);
  it.each([
    ['--checkpoint', '.lock'],
    ['--subtotals', '.partial'],
    ['--out', '.partial'],
  ])('%s: a name of NAME_MAX less the length of its %s suffix is taken, one byte longer is refused before counting', (option, suffix) => {
    const longest = 'x'.repeat(nameMax - suffix.length);
    const extra = option === '--out' ? ['--shard', '0/1'] : [];
    expect(nqueens('count', '8', ...extra, option, longest).code).toBe(0);
    const refused = nqueens('count', '8', ...extra, option, `${longest}y`);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toContain('ENAMETOOLONG');
    expect(refused.stderr).toContain(`${longest}y${suffix}`);
  });
});

describe('a range of one size', () => {
  it.each(['3..3', '8..8'])('count %s prints the table of a range (one row), as its --json does one line', (range) => {
    const n = Number(range.split('..')[0]);
    const table = nqueens('count', range);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\s+N\s+total\s+unique\s+engine/);
    expect(lines[1]).toMatch(new RegExp(`^\\s+${n}\\s+${n === 3 ? 0 : 92}\\s+${n === 3 ? 0 : 12}\\s`));
    expect(nqueens('count', range, '--checkpoint', 'x.ckpt')).toMatchObject({ code: 2, stderr: expect.stringContaining('not a range') });
  });
});
