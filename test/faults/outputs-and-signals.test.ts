// No result is lost without a failure status: a full disk, a second Ctrl-C (which must still clean up), and --out through
// a symbolic link (written through, the link kept; a dangling one refused).
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cli } from '../cli-in-dir.js';

const sh = (command: string) => spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 30_000 });

describe('outputs', () => {
  // A stdout closed at start cannot be told from /dev/null opened for reading and writing, which Node fills a
  // closed stdout with, and which launchers give a child whose output they discard. Before, each of these was
  // taken for a closed stdout and exited 1 with no count.
  it.each([
    ["Node's stdio 'ignore'", () => spawnSync(process.execPath, [cli, 'count', '10'], { stdio: ['pipe', 'ignore', 'pipe'] })],
    ["a read-write /dev/null, as Python's subprocess.DEVNULL", () => sh(`"${process.execPath}" "${cli}" count 10 1<>/dev/null`)],
    ['a stdout closed at start (>&-)', () => sh(`"${process.execPath}" "${cli}" count 10 >&-`)],
    ['version, stdout closed at start', () => sh(`"${process.execPath}" "${cli}" version >&-`)],
  ])('stdout discarded (%s): the command runs, exit 0', (_what, run) => {
    const r = run();
    expect([r.status, String(r.stderr)]).toEqual([0, '']);
  });

  it('a count whose discarded stdout is a read-write /dev/null still writes its --out and --checkpoint', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-devnull-'));
    const r = spawnSync(process.execPath, [cli, 'count', '10', '--checkpoint', 'c.ckpt', '--shard', '0/1', '--out', 's.json'], {
      cwd: dir,
      stdio: ['pipe', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'))).toMatchObject({ n: 10, total: '724' });
    expect(readFileSync(join(dir, 'c.ckpt'), 'utf8').split('\n').length).toBeGreaterThan(2);
  });

  it.each([
    ['--out', ['--shard', '0/2', '--out', 's0.json'], 'cannot resolve s0.json'],
    ['--subtotals', ['--subtotals', 'sub.txt'], 'cannot resolve sub.txt'],
    ['--checkpoint', ['--checkpoint', 'ck'], 'cannot write the checkpoint ck'],
    [
      '--out absolute, --checkpoint relative',
      ['--shard', '0/2', '--out', '/tmp/nqueens-gone-abs.json', '--checkpoint', 'ck'],
      'cannot resolve ck',
    ],
  ])('%s with a relative name in a working directory that was removed: exit 1 naming it', (_option, args, what) => {
    const gone = mkdtempSync(join(tmpdir(), 'nqueens-gone-'));
    const r = sh(`cd "${gone}" && rmdir "${gone}" && exec "${process.execPath}" "${cli}" count 10 ${args.join(' ')}`);
    expect([r.status, r.stdout]).toEqual([1, '']);
    // Before: "nqueens: ENOENT: no such file or directory, uv_cwd [ENOENT]", naming nothing.
    expect(r.stderr).toBe(
      `nqueens: ${what}: the working directory no longer exists; give an absolute path or run from a directory that exists [ERR_NQUEENS_WRITE_FAILED]\n`,
    );
  });

  it('stdout sent to /dev/null on purpose: exit 0', () => {
    expect(sh(`"${process.execPath}" "${cli}" count 8 > /dev/null`).status).toBe(0);
  });

  it('a full disk (/dev/full): exit 1 naming the write error', () => {
    const r = sh(`"${process.execPath}" "${cli}" count 8 > /dev/full`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot write to stdout/);
  });

  it('a full disk (/dev/full) that is given nothing: solve with nothing to list writes nothing, exit 0', () => {
    for (const args of ['solve 8 --limit 0', 'solve 3 --format json', 'solve 8 --after 7,7,7,7,7,7,7,7 --format json']) {
      const r = sh(`"${process.execPath}" "${cli}" ${args} > /dev/full`);
      expect([args, r.status, r.stderr]).toEqual([args, 0, '']);
    }
    // With a line to write, the write error as ever.
    expect(sh(`"${process.execPath}" "${cli}" solve 3 > /dev/full`).status).toBe(1);
  });

  it('--out through a symbolic link writes the file it points to and keeps the link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-link-'));
    writeFileSync(join(dir, 'real.json'), 'old');
    symlinkSync('real.json', join(dir, 'link.json'));
    const r = spawnSync(process.execPath, [cli, 'count', '10', '--shard', '0/1', '--out', 'link.json'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.json'))).toBe('real.json');
    expect(JSON.parse(readFileSync(join(dir, 'real.json'), 'utf8'))).toMatchObject({ n: 10, total: '724' });
  });

  it('--out to a dangling symbolic link is refused before counting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-link-'));
    symlinkSync('nowhere/x.json', join(dir, 'dangling.json'));
    const r = spawnSync(process.execPath, [cli, 'count', '10', '--shard', '0/1', '--out', 'dangling.json'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/dangling\.json: it is a symbolic link to nowhere/);
  });
});

const nonBlocking = fileURLToPath(new URL('../fixtures/nonblocking-stdout.mjs', import.meta.url));

/**
 * Runs the CLI with `flags` and `args`, its stdout a non-blocking FIFO that no one reads until the CLI has found
 * it full (the fixture says so on stderr), then reads it, or with `interrupt` sends SIGINT and reads only once the
 * CLI has exited; its exit code, stdout and stderr. With `prefilled`, the FIFO is full before the CLI starts (so
 * that an output of a few lines meets it full), and what filled it is left out of stdout.
 */
async function intoStalledPipe(
  flags: string[],
  args: string[],
  interrupt = false,
  prefilled = false,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nqueens-fifo-'));
  const fifo = join(dir, 'out');
  const errFile = join(dir, 'stderr');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  let filled = 0;
  if (prefilled) {
    const filler = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const block = Buffer.alloc(4096, '.');
    for (;;) {
      try {
        filled += writeSync(filler, block);
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
        break;
      }
    }
    closeSync(filler);
  }
  const errors = openSync(errFile, 'w');
  const child = spawn(process.execPath, [...flags, '--import', nonBlocking, cli, ...args], { stdio: ['ignore', writeEnd, errors] });
  onTestFinished(() => void child.kill('SIGKILL')); // a child that never ends does not outlive its test
  closeSync(writeEnd);
  closeSync(errors);
  let exited = false;
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => ((exited = true), resolve(code))));
  while (!exited && !readFileSync(errFile, 'utf8').includes('stdout full')) await new Promise((resolve) => setTimeout(resolve, 10));
  if (interrupt) {
    child.kill('SIGINT');
    // Before, the CLI never saw the signal while the pipe stayed full: this wait ran into the test's timeout.
    await exit;
  }
  const chunks: Buffer[] = [];
  const reader = new Socket({ fd: readEnd, readable: true, writable: false });
  reader.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => reader.on('end', resolve).on('error', resolve));
  const code = await exit;
  await ended;
  reader.destroy();
  const stdout = Buffer.concat(chunks);
  if (prefilled) expect(stdout.subarray(0, filled).every((byte) => byte === 0x2e)).toBe(true);
  return { code, stdout: stdout.subarray(filled).toString(), stderr: readFileSync(errFile, 'utf8') };
}

describe('a stdout pipe that is full (non-blocking, its reader late)', () => {
  // Before: with no SharedArrayBuffer the CLI failed to load (its wait was made at import), and with no
  // Atomics the wait threw, ending the listing part-way with exit 1.
  it.each([[[]], [['--no-harmony-sharedarraybuffer']], [['--no-harmony-atomics']]])(
    'node %j: solve 12 --limit all writes every line, exit 0',
    async (flags) => {
      const r = await intoStalledPipe(flags, ['solve', '12', '--limit', 'all', '--format', 'json']);
      expect([r.code, r.stderr]).toEqual([0, 'stdout full\n']); // it met a full pipe, and waited
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(14_200);
      expect(JSON.parse(lines[14_199])).toEqual([11, 9, 7, 4, 2, 0, 6, 1, 10, 5, 3, 8]);
    },
  );

  // Before, solve wrote stdout with writeSync, waiting out the full pipe on its own thread (or blocked in write(2)
  // where the pipe was blocking, `solve 14 --limit all | less` left open): Ctrl-C did nothing until the reader read.
  it.each(['board', 'json'])(
    'Ctrl-C while solve --format %s waits for the reader: exit 130 at once',
    async (format) => {
      const r = await intoStalledPipe([], ['solve', '14', '--limit', 'all', '--format', format], true);
      expect([r.code, r.stderr]).toEqual([130, 'stdout full\nnqueens: interrupted\n']);
      expect(r.stdout.length).toBeGreaterThan(0);
    },
    30_000,
  );
});

describe("count's lines on a stdout pipe full before it starts", () => {
  // Its few lines go out with writeSync, waiting out EAGAIN (files.ts writeAll); no other test met a full pipe there.
  it('count 10 --json and count 4..6: each line arrives once the reader reads, exit 0', async () => {
    const one = await intoStalledPipe([], ['count', '10', '--json'], false, true);
    expect([one.code, one.stderr]).toEqual([0, 'stdout full\n']);
    expect(JSON.parse(one.stdout)).toMatchObject({ n: 10, total: '724', unique: '92' });
    const table = await intoStalledPipe([], ['count', '4..6', '--json'], false, true);
    expect([table.code, table.stderr]).toEqual([0, 'stdout full\n']);
    expect(
      table.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).total),
    ).toEqual(['2', '10', '4']);
  }, 30_000);
});

describe('a shard result on a stdout pipe that is full', () => {
  // Before, `--out -` wrote its result (287 KB here, megabytes at deep plans) with writeSync, waiting out the
  // full pipe on its own thread: a signal then went unanswered until the reader read, and when the reader
  // left instead, the command ended with 0 (a closed pipe), the signal lost.
  it('Ctrl-C while count --shard --out - waits for the reader: exit 130 at once', async () => {
    const r = await intoStalledPipe([], ['count', '13', '--depth', '3', '--shard', '0/1', '--out', '-', '--threads', '1'], true);
    expect([r.code, r.stderr]).toEqual([130, 'stdout full\nnqueens: interrupted\n']);
    expect(r.stdout.startsWith('{\n  "format": "nqueens-shard",')).toBe(true);
  }, 30_000);

  it('read at last, the whole result arrives, exit 0', async () => {
    const r = await intoStalledPipe([], ['count', '13', '--depth', '3', '--shard', '0/1', '--out', '-', '--threads', '1']);
    expect([r.code, r.stderr]).toEqual([0, 'stdout full\n']);
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'nqueens-shard', n: 13, total: '73712', shard: 0, of: 1 });
  }, 30_000);
});

describe('an output in a directory this user cannot write', () => {
  // Before: "EACCES (permission denied, open '…/ro/x.ckpt.lock')", naming a file never typed.
  it.each([
    [['--shard', '0/1', '--out', 'ro/x.json'], 'cannot write the shard result to ro/x.json'],
    [['--subtotals', 'ro/x.txt'], 'cannot write the subtotals to ro/x.txt'],
    [['--checkpoint', 'ro/x.ckpt'], 'cannot write the checkpoint ro/x.ckpt'],
  ])('%j: the directory is named', (args, doing) => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-readonly-'));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'ro'), { mode: 0o555 });
    // Root writes anywhere: run as nobody there, so that the directory's mode counts.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const r = spawnSync(process.execPath, [cli, 'count', '8', ...args], { cwd: dir, encoding: 'utf8', ...user });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `nqueens: ${doing}: its directory ro is not writable for this user (EACCES); write the file elsewhere [ERR_NQUEENS_WRITE_FAILED]\n`,
    );
    expect(readdirSync(join(dir, 'ro'))).toEqual([]);
  });
});

describe('an output under a regular file', () => {
  // Before: "plain/x.json: it is a symbolic link to nowhere (ENOTDIR …)", though no link is involved.
  // Then: "ENOTDIR (not a directory, lstat 'plain/x.json')"; a checkpoint named its lock, absolute
  // ("open '/tmp/…/plain/x.ckpt.lock'"), a file never typed. Now the path's part that is no directory.
  it.each([
    [['--shard', '0/1', '--out', 'plain/x.json'], 'cannot write the shard result to plain/x.json'],
    [['--checkpoint', 'plain/x.ckpt'], 'cannot write the checkpoint plain/x.ckpt'],
  ])('%j, where plain is a file: plain is not a directory, not a link to nowhere', (args, doing) => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-notdir-'));
    writeFileSync(join(dir, 'plain'), 'mine');
    const r = spawnSync(process.execPath, [cli, 'count', '8', ...args], { cwd: dir, encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`nqueens: ${doing}: plain is not a directory (a regular file) [ERR_NQUEENS_WRITE_FAILED]\n`);
    expect(readFileSync(join(dir, 'plain'), 'utf8')).toBe('mine');
  });
});

describe('a dangling symbolic link as the checkpoint', () => {
  // Before: "cannot write the checkpoint dangling.ckpt: EEXIST (file already exists, …)", of a file that is not there.
  it('is refused naming the link, not with EEXIST', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-link-'));
    symlinkSync('nowhere/x.ckpt', join(dir, 'dangling.ckpt'));
    const r = spawnSync(process.execPath, [cli, 'count', '8', '--checkpoint', 'dangling.ckpt'], { cwd: dir, encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /^nqueens: cannot write the checkpoint dangling\.ckpt: it is a symbolic link to nowhere\/x\.ckpt, which does not exist \[ERR_NQUEENS_WRITE_FAILED\]\n$/,
    );
    expect(readlinkSync(join(dir, 'dangling.ckpt'))).toBe('nowhere/x.ckpt');
  });
});

describe('signals', () => {
  it('two Ctrl-C in a row: exit 130 with a message and no FILE.partial left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-sigint-'));
    const child = spawn(process.execPath, [cli, 'count', '19', '--shard', '0/1', '--out', 'x.json', '--threads', '1'], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The output file is reserved (x.json.partial) before any counting: the signals land mid-count.
    while (!existsSync(join(dir, 'x.json.partial'))) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted/);
    expect(existsSync(join(dir, 'x.json.partial'))).toBe(false);
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
  });

  // test/fixtures/two-signals.mjs: the CLI's handlers around a count that takes its abort and never ends, the
  // second signal sent once the first's abort is seen. Before, the second was named alone, with its own status.
  const twoSignals = fileURLToPath(new URL('../fixtures/two-signals.mjs', import.meta.url));
  it.each([
    ['SIGTERM', 'SIGINT', 143, 'nqueens: interrupted (SIGTERM), then SIGINT: stopped at once\n'],
    ['SIGINT', 'SIGTERM', 130, 'nqueens: interrupted (SIGINT), then SIGTERM: stopped at once\n'],
    ['SIGHUP', 'SIGINT', 129, 'nqueens: interrupted (SIGHUP), then SIGINT: stopped at once\n'],
    ['SIGINT', 'SIGINT', 130, 'nqueens: interrupted again: stopped at once\n'],
    ['SIGTERM', 'SIGTERM', 143, 'nqueens: interrupted (SIGTERM) again: stopped at once\n'],
  ])("%s, then %s: exit %i (the first's status), its message naming each", (first, second, status, message) => {
    const r = spawnSync(process.execPath, [twoSignals, first, second], { encoding: 'utf8', timeout: 30_000 });
    expect([r.status, r.signal, r.stdout, r.stderr]).toEqual([status, null, '', message]);
  });

  // test/fixtures/sigint-after-sigterm.mjs sends SIGINT as the SIGTERM is taken: a batch system's SIGTERM, then
  // Ctrl-C. Before, the count exited 130, as if Ctrl-C had stopped it.
  it('SIGTERM, then SIGINT, on a count: exit 143 and no FILE.partial left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-sigterm-'));
    const thenSigint = fileURLToPath(new URL('../fixtures/sigint-after-sigterm.mjs', import.meta.url));
    const args = ['--import', thenSigint, cli, 'count', '19', '--shard', '0/1', '--out', 'x.json', '--threads', '1'];
    const child = spawn(process.execPath, args, { cwd: dir });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!existsSync(join(dir, 'x.json.partial'))) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    // Named both once the count has taken its abort; only the first where it had stopped before the second came.
    expect(stderr).toMatch(/^nqueens: interrupted \(SIGTERM\)[,;] /);
    expect([existsSync(join(dir, 'x.json.partial')), existsSync(join(dir, 'x.json'))]).toEqual([false, false]);
  });

  it('Ctrl-C on a count without --checkpoint says the work is lost and how to keep it', async () => {
    // A table: once n = 15's row is out, n = 16.. is being counted.
    const child = spawn(process.execPath, [cli, 'count', '1..19', '--threads', '1', '--json']);
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('"n":15,')) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted; the work done is lost \(with --checkpoint FILE a count keeps its finished units and resumes\)/);
  });

  // Before, solve's search and merge --verify's recounts never let the event loop run: Ctrl-C waited for the end
  // (hours for solve 18 --limit all), and a merge then printed its result before exiting 130.
  /** Starts the CLI in `dir`, sends SIGINT once `ready` holds of what it printed, and returns how it ended. */
  async function interruptWhen(dir: string, args: string[], ready: (stdout: string, stderr: string) => boolean) {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
    let [stdout, stderr, sent] = ['', '', false];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const check = () => {
      if (!sent && ready(stdout, stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < 1024) stdout += d.toString();
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    try {
      return { code: await exited, stdout, stderr };
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('Ctrl-C during solve --limit all stops the listing: exit 130 (solve has no output files to speak of)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-sigint-solve-'));
    const r = await interruptWhen(dir, ['solve', '18', '--limit', 'all', '--format', 'json'], (stdout) => stdout.length > 0);
    expect([r.code, r.stderr]).toEqual([130, 'nqueens: interrupted\n']);
  }, 60_000);

  it('Ctrl-C during merge --verify stops the recounts: exit 130, no result printed, its --subtotals not written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-sigint-verify-'));
    expect(spawnSync(process.execPath, [cli, 'count', '17', '--shard', '0/1', '--out', 's.json'], { cwd: dir }).status).toBe(0);
    const args = ['merge', 's.json', '--verify', '54779', '--engine', 'js', '--subtotals', 'sub.txt'];
    const r = await interruptWhen(dir, args, (_, stderr) => stderr.includes('verifying'));
    expect([r.code, r.stdout]).toEqual([130, '']);
    expect(r.stderr).toMatch(/\nnqueens: interrupted; output files not written\n$/);
    expect([existsSync(join(dir, 'sub.txt')), existsSync(join(dir, 'sub.txt.partial'))]).toEqual([false, false]);
  }, 60_000);
});

describe('a stop signal after the result is written', () => {
  // test/fixtures/stay-after-result.mjs keeps the process alive once its result is out, so that the signal, sent
  // when the last line has been read, always comes after it. Before, it printed "interrupted" under a complete
  // result and exited 129 / 143 / 130; a signal in the last milliseconds of Node's own exit was a death by signal.
  const stay = fileURLToPath(new URL('../fixtures/stay-after-result.mjs', import.meta.url));

  /** Runs the CLI in `dir` under the fixture, sends `signal` once stdout ends with `last`, and returns how it ended. */
  async function signalAfter(dir: string, args: string[], last: RegExp, signal: NodeJS.Signals) {
    const child = spawn(process.execPath, ['--import', stay, cli, ...args], { cwd: dir });
    let [stdout, stderr] = ['', ''];
    const exited = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, sig) => resolve([code, sig])));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (last.test(stdout)) child.kill(signal);
    });
    try {
      return { ended: await exited, stdout, stderr };
    } finally {
      child.kill('SIGKILL');
    }
  }

  it.each(['SIGHUP', 'SIGTERM', 'SIGINT'] as const)('%s after count prints its result: exit 0, the result whole', async (signal) => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-late-signal-'));
    const r = await signalAfter(dir, ['count', '8'], /\nrate .*\n$/, signal);
    expect(r.ended).toEqual([0, null]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^N\s+8\ntotal\s+92\nunique\s+12\n/);
  });

  it('SIGHUP after a shard is written: exit 0, its file whole, no FILE.partial or FILE.lock left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-late-signal-'));
    const args = ['count', '10', '--shard', '0/1', '--out', 'x.json', '--checkpoint', 'x.ckpt'];
    const r = await signalAfter(dir, args, /written to x\.json\n$/, 'SIGHUP');
    expect(r.ended).toEqual([0, null]);
    expect(r.stderr).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'x.json'), 'utf8')).total).toBe('724');
    expect([existsSync(join(dir, 'x.json.partial')), existsSync(join(dir, 'x.ckpt.lock'))]).toEqual([false, false]);
  });

  it('a failure keeps its own status: SIGTERM after a usage error exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-late-signal-'));
    const child = spawn(process.execPath, ['--import', stay, cli, 'count', '0'], { cwd: dir });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.endsWith('\n')) child.kill('SIGTERM');
    });
    try {
      expect(await exited).toBe(2);
    } finally {
      child.kill('SIGKILL');
    }
    expect(stderr).toBe('nqueens: n must be an integer from 1 to 32; got "0" (see nqueens --help)\n');
  });
});

describe('a checkpoint write that fails part-way', () => {
  // test/fixtures/short-checkpoint-write.mjs: half the lines written, then ENOSPC, then room again.
  const shortWrite = fileURLToPath(new URL('../fixtures/short-checkpoint-write.mjs', import.meta.url));

  it.each(['search', 'join'])('--algorithm %s: exit 1 naming ENOSPC, and the rerun resumes the checkpoint and is exact', (algorithm) => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-short-'));
    const args = [cli, 'count', '14', '--algorithm', algorithm, '--threads', '1', '--checkpoint', 'x.ckpt'];
    const failed = spawnSync(process.execPath, ['--import', shortWrite, ...args], { cwd: dir, encoding: 'utf8' });
    expect([failed.status, failed.stderr]).toEqual([1, expect.stringMatching(/cannot write the checkpoint x.ckpt: ENOSPC/)]);
    // Before: a retry (the search's, on close) wrote the lines from the first again after the half written, and the
    // rerun was refused; where the failed write was the last (the join's, on close), its torn line is run again.
    const rerun = spawnSync(process.execPath, [...args, '--json'], { cwd: dir, encoding: 'utf8' });
    expect([rerun.status, rerun.stderr]).toEqual([
      0,
      expect.stringMatching(
        /^(x.ckpt: line \d+ was torn \(cut short by a crash\); its unit runs again\n)?resumed from x.ckpt: [1-9]\d* of \d+ units were already done\n$/,
      ),
    ]);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ n: 14, total: '365596', unique: '45752' });
  });
});
