// Inputs must be regular files: a device is not read without bound, a FIFO
// does not hang the command, a directory is named for what it is. Each is
// refused at once with the file's name and exit status 1.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli-in-dir.js';
import { readRegularFile } from '../../dist/cli/regular-file.js';

const filesModule = new URL('../../dist/cli/files.js', import.meta.url).href;

const dir = mkdtempSync(join(tmpdir(), 'nqueens-special-'));
const fifo = join(dir, 'fifo');
spawnSync('mkfifo', [fifo]);
mkdirSync(join(dir, 'a-directory'));

/** The CLI, killed after 20 s: a hang shows as status null. */
const nqueens = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 20_000 });

describe('special files as input', () => {
  it.each([
    ['merge', '/dev/zero', 'a character device', 'ERR_NQUEENS_BAD_SHARD'],
    ['merge', fifo, 'a FIFO', 'ERR_NQUEENS_BAD_SHARD'],
    ['merge', join(dir, 'a-directory'), 'a directory', 'ERR_NQUEENS_BAD_SHARD'],
  ])('%s %s is refused: %s', (command, file, kind) => {
    const r = nqueens(command, file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${file} is not a regular file (${kind})`);
  });

  it.each([
    ['a FIFO', fifo],
    ['a character device', '/dev/zero'],
    ['a directory', join(dir, 'a-directory')], // before: "it has 2 names (hard links)", a directory's link count
  ])('count --checkpoint on %s is refused at once', (kind, file) => {
    const r = nqueens('count', '8', '--checkpoint', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${file} is not a regular file (${kind})`);
  });

  it.each(['stdout', 'stderr'])(
    'count --checkpoint FILE with %s redirected to FILE is refused before counting, FILE unchanged',
    (stream) => {
      const file = join(dir, `${stream}.ckpt`);
      const redirect = stream === 'stdout' ? '>>' : '2>>';
      const r = spawnSync(
        'sh',
        ['-c', `"${process.execPath}" "${cli}" count 12 --checkpoint "${file}" ${redirect} "${file}"; echo $? > "${file}.status"`],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      );
      expect(r.status).toBe(0);
      expect(readFileSync(`${file}.status`, 'utf8')).toBe('1\n');
      const text = readFileSync(file, 'utf8');
      // Before: exit 0, and the result table after the units, so that every resume failed ("line 757: damaged").
      expect(r.stderr + text).toMatch(
        new RegExp(`cannot use the checkpoint .*${stream}.ckpt: ${stream} is redirected to it, and its lines would land among the units`),
      );
      expect(text).not.toContain('"unit"');
    },
  );

  it('a checkpoint made read-only (0444) is refused, for root too, and left as it was', () => {
    const file = join(dir, 'read-only.ckpt');
    expect(nqueens('count', '10', '--checkpoint', file).status).toBe(0);
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    const r = nqueens('count', '10', '--checkpoint', file);
    // Before: root appended to it, where --out refuses the same file.
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(
      `cannot use the checkpoint ${file}: it is read-only for this user (mode 0444); make it writable to resume it`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  // As root, every other test takes writableByUs's root branch: here a user's own answer is checked, run as nobody.
  it.runIf(process.getuid?.() === 0)('an existing output or checkpoint is writable to a user by the mode bits that apply to them', () => {
    const users = mkdtempSync(join(tmpdir(), 'nqueens-modes-'));
    chmodSync(users, 0o755);
    const files: [string, number, number, number][] = [
      ['own-0644', 65534, 65534, 0o644],
      ['own-0444', 65534, 65534, 0o444],
      ['own-0466', 65534, 65534, 0o466],
      ['roots-0644', 0, 0, 0o644],
      ['group-0664', 0, 65534, 0o664],
      ['group-0646', 0, 65534, 0o646],
      ['others-0646', 0, 0, 0o646],
    ];
    for (const [name, uid, gid, mode] of files) {
      writeFileSync(join(users, name), 'x');
      chownSync(join(users, name), uid, gid);
      chmodSync(join(users, name), mode);
    }
    const script = `const { writableByUs } = await import(${JSON.stringify(filesModule)});
const { statSync } = await import('node:fs');
console.log(JSON.stringify(process.argv.slice(1).map((file) => writableByUs(file, statSync(file)))));`;
    const paths = files.map(([name]) => join(users, name));
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, ...paths], { encoding: 'utf8', uid: 65534, gid: 65534 });
    expect([r.status, r.stderr, JSON.parse(r.stdout)]).toEqual([0, '', [true, false, false, false, true, false, true]]);
  });

  it('a checkpoint path in a loop of symbolic links is refused naming the checkpoint', () => {
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    const r = nqueens('count', '10', '--checkpoint', 'loop-a');
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^nqueens: cannot use the checkpoint loop-a: ELOOP .*\[ERR_NQUEENS_WRITE_FAILED\]\n$/);
  });
});

describe('an input over its size limit (src/cli/regular-file.ts)', () => {
  it('is refused by its size before a byte is read, and one within the limit is read whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-size-'));
    const file = join(dir, 'big.json');
    truncateSync((writeFileSync(file, ''), file), 600_000_000); // sparse: 600 MB that take no disk
    expect(readRegularFile(file, 1000)).toEqual({
      problem: `${file} is 600000000 bytes, over the 1000 this input may hold; refusing to read it`,
    });
    writeFileSync(file, '{"a":1}');
    expect(readRegularFile(file, 7)).toEqual({ text: '{"a":1}' });
    expect(readRegularFile(file, 6)).toEqual({ problem: `${file} is 7 bytes, over the 6 this input may hold; refusing to read it` });
  });

  // A file whose size says nothing of what it reads (procfs: size 0, a kilobyte or more of text) grows past the limit as it is read.
  it('is refused once more than the limit is read, whatever its size said', () => {
    expect(readRegularFile('/proc/self/status', 100)).toEqual({
      problem: '/proc/self/status grew past the 100 bytes this input may hold while it was read; refusing it',
    });
  });
});
