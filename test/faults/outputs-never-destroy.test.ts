// Outputs change nothing but the named regular file: a device, FIFO or
// directory given as --out or --subtotals is refused before counting (the
// FIFO left a FIFO, its reader never blocked), a leftover FILE.partial that
// is a symbolic link is refused instead of followed, an output naming an
// input (a merge's shard, the checkpoint) is refused, and a file that is not
// a checkpoint is never taken for a torn one and rewritten.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliInTempDir } from '../cli-in-dir.js';

const { dir, nqueens: run } = cliInTempDir('nqueens-outputs-');
/** The CLI in `dir`, killed after 20 s (a hang shows as status null). */
const nqueens = (...args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const at = (name: string) => join(dir, name);

// Special files of our own, so that a failure replaces nothing of the system's.
spawnSync('mkfifo', [at('fifo')]);
mkdirSync(at('a-directory'));
const haveDevice = spawnSync('mknod', [at('null-device'), 'c', '1', '3']).status === 0;

/** Two shards of n = 10 (a.json, b.json), for merge. */
function shards(): void {
  ['a.json', 'b.json'].forEach((file, i) => expect(run('count', '10', '--shard', `${i}/2`, '--out', file).code).toBe(0));
}

describe('special files as outputs: refused before counting, left as they are', () => {
  const kinds: [string, string, string][] = [
    ['a FIFO', 'fifo', 'is a FIFO'],
    ['a directory', 'a-directory', 'is a directory'],
    ...(haveDevice ? [['a character device', 'null-device', 'is a character device'] as [string, string, string]] : []),
  ];
  it.each(kinds)('count --shard --out %s', (_kind, name, says) => {
    const r = nqueens('count', '10', '--shard', '0/1', '--out', name);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(`${name}: it ${says}, not a regular file`);
    expect(r.stderr).toContain('ERR_NQUEENS_WRITE_FAILED');
    expect(lstatSync(at(name)).isFile()).toBe(false);
  });

  it.each(kinds)('count --subtotals %s', (_kind, name, says) => {
    const r = nqueens('count', '10', '--subtotals', name);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(`${name}: it ${says}, not a regular file`);
    expect(lstatSync(at(name)).isFile()).toBe(false);
  });

  it.each(kinds)('merge --subtotals %s', (_kind, name, says) => {
    shards();
    const r = nqueens('merge', 'a.json', 'b.json', '--subtotals', name);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(`${name}: it ${says}, not a regular file`);
    expect(lstatSync(at(name)).isFile()).toBe(false);
  });

  it('--out=- prints the shard result on stdout and creates no file named -', () => {
    const r = nqueens('count', '10', '--shard', '0/1', '--out=-');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'nqueens-shard', n: 10, total: '724' });
    expect(existsSync(at('-'))).toBe(false);
  });
});

describe('a leftover FILE.partial', () => {
  it.each([
    ['--out', ['count', '10', '--shard', '0/1', '--out', 'x.json']],
    ['--subtotals', ['count', '10', '--subtotals', 'x.json']],
  ])('a symbolic link at x.json.partial (%s) is refused, and the file it points to is untouched', (_option, args) => {
    writeFileSync(at('precious.txt'), 'precious');
    symlinkSync('precious.txt', at('x.json.partial'));
    try {
      const r = nqueens(...args);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toContain('x.json.partial already exists');
      expect(readFileSync(at('precious.txt'), 'utf8')).toBe('precious');
      expect(lstatSync(at('x.json.partial')).isSymbolicLink()).toBe(true);
    } finally {
      spawnSync('rm', ['-f', at('x.json.partial'), at('x.json')]);
    }
  });
});

describe('an output that is also an input: refused before counting, the input untouched', () => {
  it('merge a.json b.json --subtotals b.json', () => {
    shards();
    const before = readFileSync(at('b.json'), 'utf8');
    const r = nqueens('merge', 'a.json', 'b.json', '--subtotals', 'b.json');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('b.json is both a shard to merge and the --subtotals file');
    expect(readFileSync(at('b.json'), 'utf8')).toBe(before);
  });

  it('merge --subtotals through another name of a shard (a hard link, a symbolic link, ./)', () => {
    shards();
    const before = readFileSync(at('b.json'), 'utf8');
    spawnSync('rm', ['-f', at('hard.json'), at('soft.json')]);
    linkSync(at('b.json'), at('hard.json'));
    symlinkSync('b.json', at('soft.json'));
    for (const other of ['hard.json', 'soft.json', './b.json', at('b.json')]) {
      const r = nqueens('merge', 'a.json', 'b.json', '--subtotals', other);
      expect([other, r.code, r.stdout]).toEqual([other, 2, '']);
      expect(r.stderr).toContain(`${other} is both a shard to merge and the --subtotals file`);
    }
    expect(readFileSync(at('b.json'), 'utf8')).toBe(before);
  });

  it.each([
    ['--subtotals', ['count', '10', '--checkpoint', 'c.ckpt', '--subtotals', 'c.ckpt']],
    ['--out', ['count', '10', '--shard', '0/1', '--checkpoint', 'c.ckpt', '--out', 'c.ckpt']],
  ])('--checkpoint X %s X, X a checkpoint', (option, args) => {
    expect(run('count', '10', '--checkpoint', 'c.ckpt').code).toBe(0); // a whole count's checkpoint is shard 0/1's too
    const before = readFileSync(at('c.ckpt'), 'utf8');
    const r = nqueens(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`c.ckpt is both the checkpoint and the ${option} file`);
    expect(readFileSync(at('c.ckpt'), 'utf8')).toBe(before);
  });

  it.each([
    ['a new', false],
    ['an existing', true],
  ])("--checkpoint X.partial --subtotals X, %s checkpoint: the output's temporary is the checkpoint, refused", (_what, existing) => {
    spawnSync('rm', ['-f', at('s.txt'), at('s.txt.partial')]);
    if (existing) expect(run('count', '10', '--checkpoint', 's.txt.partial').code).toBe(0);
    const r = nqueens('count', '10', '--checkpoint', 's.txt.partial', '--subtotals', 's.txt');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('s.txt.partial (where --subtotals s.txt is written first) is the checkpoint');
    expect(() => statSync(at('s.txt'))).toThrow();
  });

  it.each([
    ['--subtotals', ['count', '12', '--checkpoint', 'own.ckpt', '--subtotals', 'own.ckpt.lock']],
    ['--out', ['count', '12', '--shard', '0/2', '--checkpoint', 'own.ckpt', '--out', './own.ckpt.lock']],
  ])("%s naming the command's own CHECKPOINT.lock: refused before counting", (_option, args) => {
    // Before: exit 0, the result renamed onto the lock, and every rerun refused ("not a count's owner record").
    const r = nqueens(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /own\.ckpt\.lock, where the checkpoint own\.ckpt keeps its lock; name another output file \(see nqueens --help\)\n$/,
    );
    expect(existsSync(at('own.ckpt.lock'))).toBe(false);
    expect(existsSync(at('own.ckpt'))).toBe(false);
  });

  it('--checkpoint X --subtotals X with X not yet there: refused by its path', () => {
    const r = nqueens('count', '10', '--checkpoint', 'new.ckpt', '--subtotals', './new.ckpt');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('./new.ckpt is both the checkpoint and the --subtotals file');
    expect(() => statSync(at('new.ckpt'))).toThrow();
  });
});

describe('a file that is not a checkpoint is refused with its name, never rewritten', () => {
  it.each([
    ['one line of JSON without a final newline', '{"precious":true}'],
    ['one line of JSON with a newline', '{"precious":true}\n'],
    ['text', 'dear diary'],
    ['a torn line of something else', '{"format":"something-else","formatVe'],
  ])('%s', (_what, text) => {
    writeFileSync(at('precious.json'), text);
    const r = nqueens('count', '10', '--checkpoint', 'precious.json');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain('precious.json is not a checkpoint');
    expect(r.stderr).toContain('ERR_NQUEENS_BAD_CHECKPOINT');
    expect(readFileSync(at('precious.json'), 'utf8')).toBe(text);
  });

  it('an empty file, or a checkpoint header torn by a crash, is started again', () => {
    expect(run('count', '10', '--checkpoint', 'whole.ckpt').code).toBe(0);
    const header = readFileSync(at('whole.ckpt'), 'utf8').split('\n', 1)[0];
    for (const text of ['', header.slice(0, 40), header]) {
      writeFileSync(at('torn.ckpt'), text);
      const r = nqueens('count', '10', '--checkpoint', 'torn.ckpt');
      expect([r.code, r.stdout.match(/^total\s+(\d+)$/m)?.[1]]).toEqual([0, '724']);
      expect(readFileSync(at('torn.ckpt'), 'utf8').split('\n', 1)[0]).toBe(header);
    }
  });
});
