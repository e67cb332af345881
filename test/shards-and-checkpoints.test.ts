// Shards run as separate processes and merge back to the exact count;
// checkpoints resume without losing finished work; Ctrl-C stops cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planSubproblems } from '../dist/index.js';
import { VERSION } from '../dist/version.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nqueens-test-'));

function nqueens(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('shards', () => {
  const files = [0, 1, 2, 3].map((i) => join(dir, `shard-${i}.json`));

  it('four shard processes merge back to the exact total and unique count', () => {
    for (let i = 0; i < 4; i++) {
      const r = nqueens('count', '13', '--shard', `${i}/4`, '--out', files[i], '--threads', '1');
      expect(r.code).toBe(0);
    }
    const shards = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
    expect(shards.map((s) => [s.n, s.shard, s.of, s.version])).toEqual([0, 1, 2, 3].map((i) => [13, i, 4, VERSION]));
    // Disjoint and complete: the slices' sizes add up to the whole list.
    expect(shards.reduce((sum, s) => sum + s.subproblems, 0)).toBe(planSubproblems(13).length);
    expect(shards.every((s) => BigInt(s.total) > 0n && BigInt(s.total) < 73712n)).toBe(true);
    const merged = nqueens('merge', ...files, '--json');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ n: 13, total: '73712', unique: '9233', shards: 4 });
  });

  it('a shard without --out prints its JSON result', () => {
    const r = nqueens('count', '10', '--shard', '0/1');
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'nqueens-shard', n: 10, total: '724', unique: '92', shard: 0, of: 1 });
  });

  it('merge refuses a missing shard', () => {
    const r = nqueens('merge', files[0], files[1], files[3]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('nqueens: missing shard 2 of 4');
  });

  it('merge refuses a duplicated shard', () => {
    const r = nqueens('merge', files[0], files[1], files[2], files[3], files[2]);
    expect(r.stderr).toMatch(/shard 2\/4 appears twice/);
    expect(r.code).toBe(1);
  });

  it('merge refuses shards of different n, m or version, and files that are not shards', () => {
    const other = join(dir, 'other-n.json');
    nqueens('count', '12', '--shard', '1/4', '--out', other);
    expect(nqueens('merge', files[0], other, files[2], files[3]).stderr).toMatch(/is for n = 12, .* for n = 13/);

    const otherM = join(dir, 'other-m.json');
    nqueens('count', '13', '--shard', '1/3', '--out', otherM);
    expect(nqueens('merge', files[0], otherM, files[2], files[3]).stderr).toMatch(/all shards must use the same m/);

    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...JSON.parse(readFileSync(files[1], 'utf8')), version: '0.0.1' }));
    expect(nqueens('merge', files[0], old, files[2], files[3]).stderr).toMatch(/made by nqueens-wasm 0.0.1/);

    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    expect(nqueens('merge', junk).stderr).toMatch(/junk.json is not a shard result/);
    expect(nqueens('merge', join(dir, 'nope.json')).stderr).toMatch(/cannot read .*nope.json: ENOENT/);
  });

  it.each(['4/4', '-1/4', '1/0', 'x', '1'])('--shard %s is refused', (spec) => {
    const r = nqueens('count', '10', `--shard=${spec}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shard must be i\/m with 0 <= i < m/);
  });
});

describe('checkpoints', () => {
  it('resume() sums the finished part of the slice, counts and expected work, and returns the rest', async () => {
    const { Checkpoint } = await import('../dist/cli/checkpoint.js');
    const { contribution, expectedWork } = await import('../dist/constellations.js');
    const { jsKernel } = await import('../dist/engines.js');
    const plan = planSubproblems(11);
    const file = join(dir, 'resume-unit.ckpt');
    const first = Checkpoint.open(file, 11, 'all', plan);
    const finished = [plan[0], plan[5], plan[plan.length - 1]];
    for (const s of finished) first.record(s, jsKernel.countSubproblem(11, s));
    const { already, remaining } = Checkpoint.open(file, 11, 'all', plan).resume(plan);
    const counts = finished.map((s) => contribution(s, jsKernel.countSubproblem(11, s)));
    expect(already).toEqual({
      finished: 3,
      total: counts.reduce((sum, c) => sum + c.total, 0n),
      unique: counts.reduce((sum, c) => sum + c.unique, 0n),
      work: finished.reduce((sum, s) => sum + expectedWork(11, s), 0),
    });
    // A corner queen leaves 8 rows, not 7, and weighs (11 - 4) / 2 = 3.5.
    expect(already.work).toBe(finished.reduce((sum, s) => sum + (s.innerRows === 8 ? 3.5 : 1), 0));
    expect([plan[0].innerRows, plan[plan.length - 1].innerRows]).toEqual([8, 7]);
    expect(remaining.map((s) => s.id)).toEqual(plan.filter((s) => !finished.includes(s)).map((s) => s.id));
  });

  it('records every subproblem, and a resumed run redoes none of the finished ones', () => {
    const file = join(dir, 'n12.ckpt');
    const first = nqueens('count', '12', '--checkpoint', file);
    expect(first.stdout).toMatch(/^total\s+14200$/m);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const plan = planSubproblems(12);
    expect(lines).toHaveLength(1 + plan.length);
    expect(JSON.parse(lines[0])).toMatchObject({ format: 'nqueens-checkpoint', version: VERSION, n: 12 });

    // Keep half the finished lines and a line torn by a crash, as after a kill.
    const kept = lines.slice(0, 1 + 300);
    writeFileSync(file, kept.join('\n') + '\n{"id":31');
    const resumed = nqueens('count', '12', '--checkpoint', file);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^total\s+14200$/m);
    expect(resumed.stdout).toMatch(/^unique\s+1787$/m);
    expect(resumed.stderr).toMatch(/resumed from .*: 300 of 730 subproblems were already done/);
    const after = readFileSync(file, 'utf8').trim().split('\n');
    expect(after).toHaveLength(1 + plan.length);
    expect(new Set(after.slice(1).map((l) => JSON.parse(l).id)).size).toBe(plan.length);
  });

  it('refuses a checkpoint for another n or version', () => {
    const file = join(dir, 'n11.ckpt');
    nqueens('count', '11', '--checkpoint', file);
    const r = nqueens('count', '12', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`nqueens: ${file} is a checkpoint for n = 11, not n = 12`);

    const [header, ...rest] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(header), version: '9.9.9' }), ...rest].join('\n'));
    expect(nqueens('count', '11', '--checkpoint', file).stderr).toMatch(/was written by nqueens-wasm 9.9.9; this is /);
  });

  it('Ctrl-C stops a long count, keeps its finished subproblems, and exits 130', async () => {
    const file = join(dir, 'n18.ckpt');
    const child = spawn(process.execPath, [cli, 'count', '18', '--threads', '2', '--checkpoint', file], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until some subproblems are recorded, then interrupt.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (existsSync(file) && readFileSync(file, 'utf8').trim().split('\n').length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const interruptedAt = Date.now();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(Date.now() - interruptedAt).toBeLessThan(2000);
    expect(stderr).toMatch(/interrupted; finished subproblems are in .*n18.ckpt, run the same command to resume/);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.slice(1)) expect(JSON.parse(line)).toHaveProperty('solutions');
  });
});
