// What a careless or hostile command line gets: outputs that lead to one of
// the process's descriptors are refused whatever stdout is, shards too big
// for merge to read are refused before counting, options that would do
// nothing are usage errors, and a range of one size is still a table.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliInTempDir } from '../cli-in-dir.js';
import { planUnits } from '../../dist/index.js';
import { sibling } from '../../dist/cli/owner.js';

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
  // The file system's limit on a name (255 on ext4, tmpfs and overlayfs). Before, a name within 7 (--out,
  // --subtotals: FILE.partial) or 4 (--checkpoint: FILE.lock) bytes of it was refused with ENAMETOOLONG, though
  // the file itself could be written; now such a sibling's name is FILE's cut short, with a digest of it.
  const nameMax = Number(spawnSync('getconf', ['NAME_MAX', dir], { encoding: 'utf8' }).stdout);
  const names = () => readdirSync(dir).filter((name) => Buffer.byteLength(name) > 200);

  it.each([['--checkpoint'], ['--subtotals'], ['--out']])('%s: every name up to NAME_MAX bytes is written, no sibling left', (option) => {
    const extra = option === '--out' ? ['--shard', '0/1'] : [];
    // ASCII, and a name whose cut falls inside a two-byte character.
    for (const name of ['x'.repeat(nameMax - 8), 'x'.repeat(nameMax), `y${'é'.repeat((nameMax - 3) / 2)}`]) {
      const r = nqueens('count', '8', ...extra, option, name);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(names()).toEqual([name]);
      expect(readFileSync(join(dir, name), 'utf8')).toMatch(option === '--out' ? /"total": "92"/ : /\S/);
      if (option === '--checkpoint') expect(nqueens('count', '8', option, name).stderr).toMatch(/already done/);
      unlinkSync(join(dir, name));
    }
  });

  it("the cut sibling is FILE's alone, within the limit, and every count finds it", () => {
    const name = 'z'.repeat(nameMax - 2);
    const partial = sibling(join(dir, name), '.partial');
    expect(Buffer.byteLength(basename(partial))).toBe(nameMax);
    expect(basename(partial)).toMatch(new RegExp(`^z{${nameMax - 25}}~[0-9a-f]{16}\\.partial$`));
    expect(sibling(join(dir, `${name}!`), '.partial')).not.toBe(partial);
    // Someone's file there is refused by name, as at FILE.partial: a second count would meet a first one's claim there.
    // Named as a long name is (its first 60 characters, its length), but with the end that tells it from FILE's name.
    writeFileSync(partial, 'not a claim');
    const r = nqueens('count', '8', '--shard', '0/1', '--out', name);
    expect([r.code, r.stdout]).toEqual([1, '']);
    const end = basename(partial).slice(-'~0123456789abcdef.partial'.length);
    expect(r.stderr).toBe(
      `nqueens: cannot write the shard result to ${'z'.repeat(60)}… (${nameMax - 2} characters): ${'z'.repeat(60)}…${end} (${nameMax} characters) already exists and is not a count's owner record; remove it if no count is writing it [ERR_NQUEENS_WRITE_FAILED]\n`,
    );
    expect(existsSync(join(dir, name))).toBe(false);
    unlinkSync(partial);
  });

  it('a name over NAME_MAX, which no file can have, is refused before counting', () => {
    const refused = nqueens('count', '8', '--shard', '0/1', '--out', 'x'.repeat(nameMax + 1));
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/ENAMETOOLONG.*\[ERR_NQUEENS_WRITE_FAILED\]\n$/);
    expect(names()).toEqual([]);
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
