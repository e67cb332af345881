// Counts on workers under the Node flags real deployments set: a worker
// inherits them as a plain `new Worker` does, instead of rejecting the count
// with "invalid execArgv flags".
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli-in-dir.js';
import { flushToDisk } from '../../dist/cli/flush-to-disk.js';

const index = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
// count(12) may end on the calling thread before a worker is up (it counts while they start); a completion
// count's units are never counted there, so c and d run on the workers, whatever the machine's speed.
const script = `const { count, countCompletions } = await import(${JSON.stringify(index)});
const a = await count(12, { threads: 2 });
const b = await count(12, { threads: 2, algorithm: 'join' });
const c = await countCompletions(12, [[0, 1]], { threads: 2 });
const d = await countCompletions(12, [[0, 1]], { threads: 2, engine: 'js' });
console.log([a.total, a.unique, a.threads, b.total, b.unique, b.threads, c.total, c.threads, d.total, d.engine].join(" "));`;

describe('Node flags', () => {
  it.each([
    ['--max-old-space-size=4096'],
    ['--expose-gc'],
    ['--stack-size=2000'],
    ['--title=nqueens-test'],
    ['--max-old-space-size=4096', '--expose-gc', '--no-warnings'],
  ])('node %s: counts on 2 threads are exact by both algorithms, and workers count (completions, both engines)', (...flags) => {
    const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect([r.status, r.stderr, r.stdout.trim()]).toEqual([0, '', '14200 1787 2 14200 1787 2 806 2 806 js']);
  });

  it('the CLI under --max-old-space-size counts on workers', () => {
    // --placed: a completion count, whose units only workers count (count 12 could end before a worker is up).
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=4096', cli, 'count', '12', '--placed', '0:1', '--threads', '2', '--json'],
      { encoding: 'utf8' },
    );
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 12, total: '806', threads: 2 });
  });

  // Node 20's permission model refuses every fsync, even of a file --allow-fs-write grants. Before, each of these
  // exited 1 with "fsync API is disabled when Permission Model is enabled".
  it('the CLI under the permission model writes its checkpoint, shards and subtotals where writing is allowed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-permission-'));
    const allowed = ['--experimental-permission', '--allow-fs-read=*', `--allow-fs-write=${dir}/`, '--allow-worker', '--no-warnings'];
    const run = (...args: string[]) => {
      const r = spawnSync(process.execPath, [...allowed, cli, ...args], { encoding: 'utf8', cwd: dir });
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 0]);
      expect(r.stderr).not.toMatch(/fsync|ERR_/);
      return r.stdout;
    };
    expect(JSON.parse(run('count', '13', '--checkpoint', join(dir, 'ck'), '--json'))).toMatchObject({ total: '73712', unique: '9233' });
    // Resumed whole: every unit was in the checkpoint.
    expect(JSON.parse(run('count', '13', '--checkpoint', join(dir, 'ck'), '--json'))).toMatchObject({ total: '73712', unique: '9233' });
    expect(readFileSync(join(dir, 'ck'), 'utf8').trimEnd().split('\n').length).toBeGreaterThan(1130);
    for (const i of [0, 1]) run('count', '13', '--shard', `${i}/2`, '--out', join(dir, `s${i}.json`));
    const merged = run('merge', join(dir, 's0.json'), join(dir, 's1.json'), '--subtotals', join(dir, 'sub.txt'), '--json');
    expect(JSON.parse(merged)).toMatchObject({ total: '73712', unique: '9233' });
    expect(readFileSync(join(dir, 'sub.txt'), 'utf8')).toMatch(/^# nqueens-subtotals: /);
  });

  // Only the permission model's refusal is let pass: any other failed fsync (EIO, a descriptor gone) is the write's failure.
  it("flushToDisk throws an fsync failure that is not the permission model's", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nqueens-fsync-')), 'f');
    const fd = openSync(file, 'w');
    expect(flushToDisk(fd)).toBeUndefined();
    closeSync(fd);
    expect(() => flushToDisk(fd)).toThrow(expect.objectContaining({ code: 'EBADF', syscall: 'fsync' }));
  });

  it('node --jitless (no WebAssembly): auto counts in TypeScript; --engine wasm exits 1 naming its code once', () => {
    const auto = spawnSync(process.execPath, ['--jitless', cli, 'count', '10', '--threads', '2', '--json'], { encoding: 'utf8' });
    expect(auto.status).toBe(0);
    expect(JSON.parse(auto.stdout)).toMatchObject({ total: '724', unique: '92', engine: 'js' });
    const wasm = spawnSync(process.execPath, ['--jitless', cli, 'count', '10', '--engine', 'wasm'], { encoding: 'utf8' });
    expect([wasm.status, wasm.stdout]).toEqual([1, '']);
    // Before: [ERR_NQUEENS_WASM_UNAVAILABLE, cause ERR_NQUEENS_WASM_UNAVAILABLE].
    // Before: "engine 'wasm' is unavailable here (…); use engine 'auto'", the library's words for an option.
    expect(wasm.stderr).toMatch(
      /^nqueens: --engine wasm is unavailable here \(WebAssembly is not available\); use --engine auto to fall back to 'js' \[ERR_NQUEENS_WASM_UNAVAILABLE\]$/m,
    );
    // A range's table too: before, its header was printed, then the error, a table with no rows.
    const range = spawnSync(process.execPath, ['--jitless', cli, 'count', '4..8', '--engine', 'wasm'], { encoding: 'utf8' });
    expect([range.status, range.stdout, range.stderr]).toEqual([1, '', wasm.stderr]);
  });

  it('the CLI under the permission model, its file outside what may be read: exit 1 naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-denied-'));
    const root = join(cli, '../../..'); // the package: what the CLI itself must read
    const flags = ['--experimental-permission', `--allow-fs-read=${root}/`, '--allow-worker', '--no-warnings'];
    const r = spawnSync(process.execPath, [...flags, cli, 'count', '10', '--checkpoint', join(dir, 'ck')], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([1, '']);
    // Before: "nqueens: Access to this API has been restricted [ERR_ACCESS_DENIED]", naming nothing.
    expect(r.stderr).toContain(`(FileSystemRead: ${join(dir, 'ck')}) [ERR_ACCESS_DENIED]`);
  });
});
