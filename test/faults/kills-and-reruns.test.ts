// A count stopped by a batch system, however it is stopped, resumes when the
// same command is run again, with no manual step: SIGTERM and SIGHUP save
// and exit 143 / 129 as Ctrl-C does (130); after SIGKILL the rerun takes
// over the killed count's claims; a second count on the same files while
// the first runs is refused. Claims from another host are leases. The waits
// are on the checkpoint's lines, never on fixed times.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cli, cliInTempDir, readJson } from '../cli-in-dir.js';
import { runMerge } from '../../dist/cli/merge.js';
import { removeStale, setLeaseClock } from '../../dist/cli/owner.js';

const { dir, nqueens } = cliInTempDir('nqueens-kills-');
const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The CLI started in `dir`; resolves once `file` has more than `lines` whole lines (or the child ended). */
async function startUntil(args: string[], file: string, lines: number) {
  const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
  onTestFinished(() => void child.kill('SIGKILL')); // a child left stopped by a failed check does not outlive its test
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (status, signal) => {
      code = status ?? (signal ? -1 : null);
      resolve(code);
    }),
  );
  while (code === undefined && lineCount(file) <= lines) await pause();
  return { child, exited, stderr: () => stderr, running: () => code === undefined };
}

describe('a count stopped and run again', () => {
  it('SIGTERM, SIGHUP, SIGKILL, then a second count while the first runs: each rerun resumes, and the end is exact', async () => {
    const ckpt = join(dir, 'n17.ckpt');
    const out = join(dir, 'n17.json');
    const args = ['count', '17', '--algorithm', 'search', '--threads', '1', '--shard', '0/1', '--checkpoint', ckpt, '--out', out];
    let lines = 1; // the header

    for (const [signal, status] of [
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      const run = await startUntil(args, ckpt, lines + 2);
      expect(run.running()).toBe(true);
      run.child.kill(signal);
      expect(await run.exited).toBe(status);
      expect(run.stderr()).toMatch(
        new RegExp(`interrupted \\(${signal}\\); finished units are in .*n17.ckpt, run the same command to resume`),
      );
      // Finished units kept; nothing else left behind.
      expect(lineCount(ckpt)).toBeGreaterThan(lines);
      lines = lineCount(ckpt);
      expect([existsSync(`${out}.partial`), existsSync(`${ckpt}.lock`), existsSync(out)]).toEqual([false, false, false]);
    }

    const killed = await startUntil(args, ckpt, lines + 2);
    killed.child.kill('SIGKILL');
    await killed.exited;
    // Its claims stay, naming a process that is gone.
    expect(readJson(`${out}.partial`)).toMatchObject({ format: 'nqueens-owner', host: hostname(), pid: killed.child.pid });
    expect(readJson(`${ckpt}.lock`)).toMatchObject({ format: 'nqueens-owner', pid: killed.child.pid });
    lines = lineCount(ckpt);

    // The rerun takes them over; a second count of the same command meanwhile is refused, before counting.
    const rerun = await startUntil(args, ckpt, lines + 2);
    expect(rerun.running()).toBe(true);
    // Stopped (SIGSTOP) while the other commands below are tried, so that it is still running then however fast this
    // machine counts (its process, its claims, alive); it goes on (SIGCONT) once they are refused.
    rerun.child.kill('SIGSTOP');
    const second = nqueens(...args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `cannot write the shard result to .*n17.json: .*n17.json.partial is held by a count still running \\(pid ${rerun.child.pid} on this host, since [-0-9T:.Z]+\\) \\[ERR_NQUEENS_WRITE_FAILED\\]`,
      ),
    );
    // The same checkpoint with another output: the checkpoint's lock refuses it.
    const other = nqueens(...args.slice(0, -1), join(dir, 'other.json'));
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      /cannot use the checkpoint .*n17.ckpt: .*n17.ckpt.lock is held by a count still running \(pid \d+ on this host/,
    );
    expect(existsSync(join(dir, 'other.json.partial'))).toBe(false);
    // The checkpoint under a second name: a symbolic link meets the same lock; a hard link is refused as such.
    symlinkSync(ckpt, join(dir, 'soft.ckpt'));
    linkSync(ckpt, join(dir, 'hard.ckpt'));
    for (const [name, refusal] of [
      ['soft.ckpt', /cannot use the checkpoint soft.ckpt: .*n17.ckpt.lock is held by a count still running \(pid \d+ on this host/],
      [
        'hard.ckpt',
        /cannot use the checkpoint hard.ckpt: it has 2 names \(hard links\), and a count under another name would write it too/,
      ],
    ] as const) {
      const again = nqueens(...args.slice(0, -3), name, '--out', join(dir, `${name}.json`));
      expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(refusal)]);
    }
    unlinkSync(join(dir, 'hard.ckpt'));
    // Another count's output onto the running checkpoint, or its checkpoint onto the running output: either would replace the file.
    const onCheckpoint = nqueens('count', '10', '--shard', '0/1', '--out', ckpt);
    expect([onCheckpoint.code, onCheckpoint.stderr]).toEqual([
      1,
      expect.stringMatching(
        /cannot write the shard result to .*n17.ckpt: it is the checkpoint of a count still running \(pid \d+ on this host/,
      ),
    ]);
    const onOutput = nqueens('count', '10', '--checkpoint', out);
    expect([onOutput.code, onOutput.stderr]).toEqual([
      1,
      expect.stringMatching(/cannot use the checkpoint .*n17.json: a count still running writes its output there \(pid \d+ on this host/),
    ]);
    expect([existsSync(`${ckpt}.partial`), existsSync(`${out}.lock`), existsSync(out)]).toEqual([false, false, false]);

    rerun.child.kill('SIGCONT');
    expect(await rerun.exited).toBe(0);
    expect(rerun.stderr()).toMatch(/resumed from .*n17.ckpt: \d+ of 4368 units were already done/);
    expect(readJson(out)).toMatchObject({ n: 17, total: '95815104', unique8: String(11977939n * 8n) });
    expect([existsSync(`${out}.partial`), existsSync(`${ckpt}.lock`)]).toEqual([false, false]);
  }, 120_000);
});

describe('a stop signal while a checkpoint is read', () => {
  // test/fixtures/stop-while-reading-checkpoint.mjs: SIGTERM as the read passes its first megabyte.
  const stopWhileReading = fileURLToPath(new URL('../fixtures/stop-while-reading-checkpoint.mjs', import.meta.url));

  it('stops the command there (exit 143, no result, the checkpoint as it was), and the rerun resumes it', () => {
    const ckpt = join(dir, 'read-14.ckpt');
    const args = ['count', '14', '--algorithm', 'search', '--depth', '2', '--checkpoint', ckpt];
    expect(nqueens(...args).code).toBe(0); // 52,987 units: 2.4 MB of lines
    const before = readFileSync(ckpt);
    const stopped = spawnSync(process.execPath, ['--import', stopWhileReading, cli, ...args], { cwd: dir, encoding: 'utf8' });
    // Before: the signal waited for the whole read, and the count went on to print its result (exit 0, or 143 after it).
    expect([stopped.status, stopped.stdout, stopped.stderr]).toEqual([143, '', 'nqueens: interrupted (SIGTERM)\n']);
    expect(readFileSync(ckpt).equals(before)).toBe(true);
    expect(existsSync(`${ckpt}.lock`)).toBe(false);
    const rerun = nqueens(...args, '--json');
    expect([rerun.code, JSON.parse(rerun.stdout)]).toEqual([0, expect.objectContaining({ total: '365596', unique: '45752' })]);
  }, 60_000);
});

describe('claims left behind', () => {
  const claim = (file: string, fields: Record<string, unknown>) =>
    writeFileSync(
      file,
      JSON.stringify({
        format: 'nqueens-owner',
        host: hostname(),
        boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
        pidns: readlinkSync('/proc/self/ns/pid'),
        pid: 1,
        start: '0',
        checkpoint: null,
        since: '2026-01-01T00:00:00.000Z',
        ...fields,
      }) + '\n',
    );
  const goneProcess = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  it('a gone process on this host, its pid reused by another, or a pid no process has (0, -1, 2^31), is taken over', () => {
    for (const [what, fields] of [
      ['gone', { pid: goneProcess() }],
      ['reused pid', { pid: process.pid, start: '1' }],
      // process.kill(0 or -1, 0) asks about a process group, or every process: both answer alive.
      ['pid 0', { pid: 0 }],
      ['pid -1', { pid: -1 }],
      ['pid 2^31', { pid: 2 ** 31 }],
    ] as const) {
      const out = join(dir, `taken-${what.replace(' ', '-')}.json`);
      claim(`${out}.partial`, fields);
      const r = nqueens('count', '10', '--shard', '0/1', '--out', out);
      expect([what, r.code, r.stderr]).toEqual([what, 0, '']);
      expect(readJson(out)).toMatchObject({ n: 10, total: '724' });
    }
  });

  it("a gone owner's hidden result file is removed with its claim, and only a file of that form with its pid", () => {
    // The claim's folder in a folder of this test's own, so that a name reaching out of it has a file there to remove.
    const outside = join(dir, 'left-files');
    const here = join(outside, 'out');
    mkdirSync(here, { recursive: true });
    const pid = goneProcess();
    const other = goneProcess();
    const ownName = `.nqueens-result-${pid}-17`;
    for (const [leaves, removed] of [
      [ownName, true],
      [`.nqueens-result-${other}-17`, false], // another process's name: an edited record
      ['keep.txt', false],
      [`../${ownName}`, false], // out of the claim's folder: the file there stays
      [`${ownName}/x`, false], // below a folder of that name: the folder and its file stay
    ] as const) {
      // What each name would reach, if it were followed: a file of that name in each place it could point.
      const planted =
        leaves === `../${ownName}`
          ? [join(outside, ownName)]
          : leaves === `${ownName}/x`
            ? [join(here, ownName, 'x')]
            : [join(here, leaves)];
      for (const file of planted) {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, 'left\n');
      }
      claim(join(here, 'out.json.partial'), { pid, leaves });
      const r = nqueens('count', '9', '--shard', '0/1', '--out', join(here, 'out.json'));
      expect([leaves, r.code, r.stderr]).toEqual([leaves, 0, '']);
      expect([leaves, planted.map((file) => existsSync(file))]).toEqual([leaves, planted.map(() => !removed)]);
      // Nothing else is left beside FILE: the rerun's own result file was renamed onto it.
      const mine = new Set([
        'out.json',
        ...planted.filter((file) => file.startsWith(here)).map((file) => file.slice(here.length + 1).split('/')[0]),
      ]);
      expect([leaves, readdirSync(here).filter((name) => !mine.has(name))]).toEqual([leaves, []]);
      for (const file of planted)
        rmSync(file.startsWith(here) ? join(here, file.slice(here.length + 1).split('/')[0]) : file, { recursive: true, force: true });
    }
    expect(readJson(join(here, 'out.json'))).toMatchObject({ n: 9, total: '352' });
  });

  it.runIf(process.platform === 'linux')(
    'a killed count not yet reaped (a zombie: its parent does not wait, or an init that reaps late) is taken over',
    async () => {
      // `sh` starts a child, then becomes `sleep`, which never waits for it: killed, the child stays a zombie.
      const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 600']);
      onTestFinished(() => void parent.kill('SIGKILL'));
      let said = '';
      parent.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
      while (!said.endsWith('\n')) await pause();
      const pid = Number(said);
      process.kill(pid, 'SIGKILL');
      const stat = () =>
        readFileSync(`/proc/${pid}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ');
      while (stat()[0] !== 'Z') await pause();
      const zombie = { pid, start: stat()[19] };
      const out = join(dir, 'zombie.json');
      const ckpt = join(dir, 'zombie.ckpt');
      expect(nqueens('count', '12', '--checkpoint', ckpt).code).toBe(0); // every unit recorded
      claim(`${out}.partial`, { ...zombie, checkpoint: ckpt });
      claim(`${ckpt}.lock`, { ...zombie, checkpoint: ckpt });
      // Before: "... is held by a count still running (pid N ...)", exit 1, until the zombie was reaped.
      const r = nqueens('count', '12', '--shard', '0/1', '--out', out, '--checkpoint', ckpt);
      expect([r.code, r.stderr]).toEqual([0, `resumed from ${ckpt}: 755 of 755 units were already done\n`]);
      expect(readJson(out)).toMatchObject({ n: 12, total: '14200' });
      expect(existsSync(`${ckpt}.lock`)).toBe(false);
      expect(stat()[0]).toBe('Z'); // taken over while still a zombie, not once reaped
    },
  );

  it('a gone count that used another checkpoint, or none, is not taken over', () => {
    const out = join(dir, 'other-checkpoint.json');
    claim(`${out}.partial`, { pid: goneProcess(), checkpoint: join(dir, 'theirs.ckpt') });
    const r = nqueens('count', '10', '--shard', '0/1', '--out', out, '--checkpoint', join(dir, 'mine.ckpt'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /other-checkpoint.json.partial was left by a count that is gone, but it counted with .*theirs.ckpt, not .*mine.ckpt; remove it to start this output afresh/,
    );
    expect(existsSync(out)).toBe(false);
    // A checkpoint's lock whose record names the checkpoint by another path (another host's mount, say): removing it resumes.
    const ckpt = join(dir, 'moved.ckpt');
    claim(`${ckpt}.lock`, { pid: goneProcess(), checkpoint: '/elsewhere/moved.ckpt' });
    const locked = nqueens('count', '10', '--checkpoint', ckpt);
    expect([locked.code, locked.stderr]).toEqual([
      1,
      expect.stringMatching(
        /moved.ckpt.lock was left by a count that is gone, but it counted with \/elsewhere\/moved.ckpt, not .*moved.ckpt; remove it to resume the checkpoint with this count \(its units are kept\)/,
      ),
    ]);
  });

  it("another host's, container's or boot's claim is a lease: refused while renewed, taken over once 120 s old", () => {
    for (const [what, fields, where] of [
      ['host', { host: 'elsewhere.example' }, 'host elsewhere.example'],
      ['container', { pidns: 'pid:[1]' }, `host ${hostname()} \\(another boot or pid namespace\\)`],
      ['boot', { boot: 'an-earlier-boot' }, `host ${hostname()} \\(another boot or pid namespace\\)`],
    ] as const) {
      const out = join(dir, `lease-${what}.json`);
      // pid 1 is alive here: only the lease decides.
      claim(`${out}.partial`, { ...fields, pid: 1 });
      const held = nqueens('count', '10', '--shard', '0/1', '--out', out);
      expect([what, held.code]).toEqual([what, 1]);
      expect(held.stderr).toMatch(
        new RegExp(
          `lease-${what}.json.partial is held by a count still running \\(pid 1 on ${where}, renewed \\d+ s ago; it is taken over once not renewed for 120 s\\)`,
        ),
      );
      const old = (Date.now() - 121_000) / 1000;
      utimesSync(`${out}.partial`, old, old);
      const taken = nqueens('count', '10', '--shard', '0/1', '--out', out);
      expect([what, taken.code]).toEqual([what, 0]);
      expect(readJson(out)).toMatchObject({ total: '724' });
    }
  });

  it('merge --verify renews its claim on --subtotals while it recounts (each unit blocks the event loop)', async () => {
    for (const i of [0, 1]) expect(nqueens('count', '12', '--shard', `${i}/2`, '--out', `renew-${i}.json`).code).toBe(0);
    const out = join(dir, 'renew-subtotals.txt');
    // A lease clock 25 s further on at each look (the heartbeat is 20 s); each look notes the claim's stamp.
    const start = Date.now();
    let now = start;
    const stamps: number[] = [];
    setLeaseClock(() => {
      now += 25_000;
      if (existsSync(`${out}.partial`)) stamps.push(statSync(`${out}.partial`).mtimeMs);
      return now;
    });
    try {
      await runMerge(
        [0, 1].map((i) => join(dir, `renew-${i}.json`)),
        { verify: '20', seed: '3', subtotals: out },
      );
    } finally {
      setLeaseClock();
    }
    // Renewed at every unit recounted, to the clock's time: never older than the lease (120 s) on that clock.
    expect(stamps.length).toBeGreaterThanOrEqual(20);
    expect(Math.max(...stamps)).toBeGreaterThanOrEqual(start + 20 * 25_000);
    expect(readFileSync(out, 'utf8')).toMatch(/^# nqueens-subtotals: /);
  });

  it('a count killed as it writes its owner record leaves no claim, or a whole one: the rerun resumes', () => {
    // test/fixtures/kill-at-owner-record.mjs: SIGKILL at the first write of an owner record. Before, the claim
    // was created empty and written after, so such a kill left an empty lock or FILE.partial that every rerun refused.
    const killAtRecord = fileURLToPath(new URL('../fixtures/kill-at-owner-record.mjs', import.meta.url));
    const here = join(dir, 'killed-at-record');
    mkdirSync(here);
    for (const args of [
      ['count', '11', '--checkpoint', 'record.ckpt', '--json'],
      ['count', '11', '--shard', '0/1', '--out', 'record.json'],
    ]) {
      const killed = spawnSync(process.execPath, ['--import', killAtRecord, cli, ...args], { cwd: here, encoding: 'utf8' });
      expect([args, killed.signal]).toEqual([args, 'SIGKILL']);
      // What it left: its record under a name of its own (hidden, named by its pid), never an empty claim.
      const claims = readdirSync(here).filter((name) => /^\.|\.lock$|\.partial$/.test(name));
      expect(claims).toEqual([expect.stringMatching(new RegExp(`^\\.nqueens-claim-${killed.pid}-\\d+$`))]);
      const rerun = spawnSync(process.execPath, [cli, ...args], { cwd: here, encoding: 'utf8' });
      expect([args, rerun.status, rerun.stderr]).toEqual([args, 0, '']);
      if (args.includes('--json')) expect(JSON.parse(rerun.stdout)).toMatchObject({ n: 11, total: '2680' });
      for (const name of readdirSync(here)) if (name.startsWith('.nqueens-claim-')) unlinkSync(join(here, name));
    }
    expect(readJson(join(here, 'record.json'))).toMatchObject({ n: 11, total: '2680' });
    expect(readdirSync(here).sort()).toEqual(['record.ckpt', 'record.json']);
  });

  it('a count killed as it writes its result leaves its claim whole: the rerun takes it over', () => {
    // test/fixtures/kill-at-result.mjs: SIGKILL at the first write of the result. Before, the result was written
    // into FILE.partial over its owner record, so such a kill (in the fsync, say) left a FILE.partial that was
    // empty or a part of the result, which every rerun refused as no owner record.
    const killAtResult = fileURLToPath(new URL('../fixtures/kill-at-result.mjs', import.meta.url));
    const here = join(dir, 'killed-at-result');
    mkdirSync(here);
    for (const [args, file] of [
      [['count', '11', '--shard', '0/1', '--out', 'result.json'], 'result.json'],
      [['count', '11', '--subtotals', 'result.txt', '--json'], 'result.txt'],
      [['count', '11', '--shard', '0/1', '--out', 'ck.json', '--checkpoint', 'result.ckpt'], 'ck.json'],
    ] as const) {
      const killed = spawnSync(process.execPath, ['--import', killAtResult, cli, ...args], { cwd: here, encoding: 'utf8' });
      expect([args, killed.signal]).toEqual([args, 'SIGKILL']);
      expect(existsSync(join(here, file))).toBe(false);
      const record = readJson(join(here, `${file}.partial`));
      expect(record).toMatchObject({ format: 'nqueens-owner', pid: killed.pid, leaves: expect.stringMatching(/^\.nqueens-result-/) });
      // The kill left the result's hidden file (empty: killed at its first write), named in the record.
      expect([args, readdirSync(here).filter((name) => name.startsWith('.nqueens-'))]).toEqual([args, [record.leaves]]);
      expect(readFileSync(join(here, record.leaves), 'utf8')).toBe('');
      const rerun = spawnSync(process.execPath, [cli, ...args], { cwd: here, encoding: 'utf8' });
      expect([args, rerun.status]).toEqual([args, 0]);
      expect(existsSync(join(here, `${file}.partial`))).toBe(false);
      // Taken over with the claim: removed.
      expect([args, readdirSync(here).filter((name) => name.startsWith('.nqueens-'))]).toEqual([args, []]);
    }
    expect(readJson(join(here, 'result.json'))).toMatchObject({ n: 11, total: '2680' });
    expect(readJson(join(here, 'ck.json'))).toMatchObject({ n: 11, total: '2680' });
    expect(readFileSync(join(here, 'result.txt'), 'utf8')).toMatch(/^# nqueens-subtotals: /);
    expect(readdirSync(here).sort()).toEqual(['ck.json', 'result.ckpt', 'result.json', 'result.txt']);
  });

  it('a claim judged gone is removed only while it is still that one, not a live claim given the same inode since', () => {
    const lock = join(dir, 'reused-inode.ckpt.lock');
    claim(lock, { pid: goneProcess() });
    const judged = { ino: statSync(lock).ino, text: readFileSync(lock, 'utf8') };
    // Meanwhile another count removed it and made its own claim, which the file system gave the freed inode
    // (ext4 does at once): written in place here, the same inode with a live record.
    const live = readFileSync(lock, 'utf8').replace(/"pid":\d+/, `"pid":${process.pid}`);
    writeFileSync(lock, live);
    expect(statSync(lock).ino).toBe(judged.ino);
    expect(removeStale(lock, judged)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(live);
    // Still the one judged: removed, and nothing left beside it.
    expect(removeStale(lock, { ino: judged.ino, text: live })).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('.nqueens-stale-'))).toEqual([]);
  });

  it('a FILE.partial that is no owner record is refused and left as it is', () => {
    const out = join(dir, 'foreign.json');
    writeFileSync(`${out}.partial`, 'someone else\n');
    const r = nqueens('count', '10', '--shard', '0/1', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/foreign.json.partial already exists and is not a count's owner record; remove it if no count is writing it/);
    expect(readFileSync(`${out}.partial`, 'utf8')).toBe('someone else\n');
  });

  it("an output named as a running count's claim (its FILE.partial, its CHECKPOINT.lock) is refused, and the claim left as it is", () => {
    // This test process stands for the running count: its pid, started when it was.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    for (const name of ['running.json.partial', 'running.ckpt.lock']) {
      const file = join(dir, name);
      claim(file, { pid: process.pid, start });
      const before = readFileSync(file, 'utf8');
      for (const args of [
        ['count', '10', '--shard', '0/1', '--out', name],
        ['count', '10', '--subtotals', name],
      ]) {
        const r = nqueens(...args);
        expect([name, r.code, r.stdout]).toEqual([name, 1, '']);
        expect(r.stderr).toContain(`${name}: it is the claim of a count still running (pid ${process.pid} on this host`);
        expect(readFileSync(file, 'utf8')).toBe(before);
      }
    }
  });

  it("a file put at a running count's FILE.partial or CHECKPOINT.lock is neither renamed as its result nor removed", async () => {
    const out = join(dir, 'swapped.json');
    const ckpt = join(dir, 'swapped.ckpt');
    const run = await startUntil(
      ['count', '14', '--depth', '3', '--threads', '1', '--shard', '0/1', '--out', out, '--checkpoint', ckpt],
      ckpt,
      1,
    );
    expect(run.running()).toBe(true);
    run.child.kill('SIGSTOP');
    for (const file of [`${out}.partial`, `${ckpt}.lock`]) {
      writeFileSync(`${file}.other`, 'someone else\n');
      renameSync(`${file}.other`, file);
    }
    run.child.kill('SIGCONT');
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('swapped.json.partial was replaced by another file while counting [ERR_NQUEENS_WRITE_FAILED]');
    expect(existsSync(out)).toBe(false);
    for (const file of [`${out}.partial`, `${ckpt}.lock`]) expect(readFileSync(file, 'utf8')).toBe('someone else\n');
  });

  it.each([
    ['made read-only', 'it is read-only for this user (mode 0444); make it writable or name another file'],
    ['replaced by a FIFO', 'it is a FIFO, not a regular file (outputs are written to regular files only)'],
  ])('an --out file %s while the count runs is refused when the result is written, and left as it is', async (what, says) => {
    const own = join(dir, `changed-${what.split(' ').at(-1)}`);
    mkdirSync(own);
    const [out, ckpt] = [join(own, 'out.json'), join(own, 'out.ckpt')];
    writeFileSync(out, 'keep\n');
    const run = await startUntil(
      ['count', '14', '--depth', '3', '--threads', '1', '--shard', '0/1', '--out', out, '--checkpoint', ckpt],
      ckpt,
      1,
    );
    expect(run.running()).toBe(true);
    run.child.kill('SIGSTOP');
    if (what === 'made read-only') chmodSync(out, 0o444);
    else expect((unlinkSync(out), spawnSync('mkfifo', [out]).status)).toBe(0);
    run.child.kill('SIGCONT');
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toBe(`nqueens: cannot write the shard result to ${out}: ${says} [ERR_NQUEENS_WRITE_FAILED]\n`);
    if (what === 'made read-only') expect(readFileSync(out, 'utf8')).toBe('keep\n');
    else expect(statSync(out).isFIFO()).toBe(true);
    // Neither its FILE.partial nor the result's own hidden file is left beside it.
    expect(readdirSync(own).sort()).toEqual(['out.ckpt', 'out.json']);
  });
});

describe('shard outputs', () => {
  it('--json with --out prints the summary as JSON', () => {
    const r = nqueens('count', '14', '--shard', '0/8', '--out', join(dir, 's14.json'), '--json');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    const shard = readJson(join(dir, 's14.json'));
    expect(summary).toMatchObject({ n: 14, shard: '0/8', units: { from: 0, to: shard.to, of: shard.plan.units }, total: shard.total });
    expect(summary.out).toMatch(/s14.json$/);
  });

  it('an empty shard says it has no units, and is written for merge', () => {
    const out = join(dir, 'empty.json');
    const r = nqueens('count', '12', '--shard', '0/100000', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^shard 0\/100000 of n = 12: no units \(this shard of the \d+ units of the plan, depth \d, is empty\), total 0, written to /,
    );
    expect(readJson(out)).toMatchObject({ from: 0, to: 0, total: '0', counts: [] });
  });

  it('--out onto a read-only file is refused, as a shell would, and the file is left unchanged', () => {
    const out = join(dir, 'read-only.json');
    writeFileSync(out, 'keep\n');
    chmodSync(out, 0o444);
    const r = nqueens('count', '10', '--shard', '0/1', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot write the shard result to .*read-only.json: it is read-only for this user \(mode 0444\)/);
    expect(readFileSync(out, 'utf8')).toBe('keep\n');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
