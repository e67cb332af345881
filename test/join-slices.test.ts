// The half-board join's units go through the same slice machinery as the
// search's: shards merge back to the exact count (unique by Burnside at the
// merge), merge refuses mixed methods and tampered counts, --verify recounts
// join units with the join, checkpoints resume, --subtotals lists splits.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoint } from '../dist/cli/checkpoint.js';
import { shardResult } from '../dist/cli/shards.js';
import { joinCounter } from './join-module.js';
import { constellationPlan, joinPlan, unitOf, unitsOf } from './plans.js';
import { cliInTempDir, readJson } from './cli-in-dir.js';
import { plannedMethod } from '../dist/run/methods.js';

const { dir, nqueens } = cliInTempDir('nqueens-join-slices-');
const read = readJson;

describe('join shards', () => {
  const files = [0, 1, 2].map((i) => join(dir, `join-${i}.json`));

  it('three join shards at n = 12 merge to 14200 / 1787', () => {
    for (let i = 0; i < 3; i++) {
      const r = nqueens('count', '12', '--algorithm', 'join', '--shard', `${i}/3`, '--out', files[i], '--threads', '1');
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(new RegExp(`^shard ${i}/3 of n = 12: units \\d+\\.\\.\\d+ of \\d+ \\(join\\)`));
    }
    const plan = joinPlan(12);
    const shards = files.map(read);
    expect(shards.map((s) => s.plan)).toEqual(
      files.map(() => ({
        method: 'join',
        depth: 0,
        formatVersion: plan.identity.formatVersion,
        units: plan.units,
        digest: plan.identity.digest,
      })),
    );
    expect(shards.map((s) => [s.from, s.to])).toEqual([0, 1, 2].map((i) => Object.values(plan.shardRange(i, 3))));
    // A join shard holds part of a total; its unique count follows at the merge.
    for (const s of shards) expect(s.unique8).toBe('0');
    const merged = nqueens('merge', ...files, '--json');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      n: 12,
      total: '14200',
      unique: '1787',
      shards: 3,
      units: plan.units,
      method: 'join',
    });
  });

  // n = 12's join plan has 252 units: 3 shards (the other tests) cut it evenly, 5 do not.
  it('a split that does not divide the units still tiles them: 5 join shards of n = 12 merge to 14200 and 1787', () => {
    const files = [0, 1, 2, 3, 4].map((i) => join(dir, `join5-${i}.json`));
    files.forEach((file, i) => expect(nqueens('count', '12', '--algorithm', 'join', '--shard', `${i}/5`, '--out', file).code).toBe(0));
    const ranges = files.map((file) => readJson(file)).map((s) => [s.from, s.to, s.plan.units]);
    expect(ranges[0][0]).toBe(0);
    for (let i = 1; i < 5; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1]);
    expect(ranges[4][1]).toBe(ranges[4][2]);
    const merged = nqueens('merge', ...files, '--json');
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      n: 12,
      total: '14200',
      unique: '1787',
      shards: 5,
    });
  });

  it('the join plan differs from the search plan, and its digest covers the unit list', () => {
    const plan = joinPlan(12);
    expect(plan.identity.digest).not.toBe(constellationPlan(12, 0).digest);
    expect(joinPlan(13).identity.digest).not.toBe(plan.identity.digest);
    expect([...unitsOf(plan)].map((u) => u.id)).toEqual(Array.from({ length: plan.units }, (_, i) => i));
  });

  it('the join plans are pinned: odd n those of 0.1.0 (files written before still resume and merge), even n new with the transpose', () => {
    // Pinned when the plan was first built in typed arrays; the plan's code has been made faster since, not changed. Even n's
    // units count with the transpose's test since 2026-11-26 (src/join/join-plan.ts): other counts, so other digests.
    const pinned: Record<number, string> = {
      1: '80960926c8e568cf',
      2: '14ec4dc31240e8c2',
      5: '79ebb5f8bce255ca',
      8: 'f7097e9f1cb3cd9c',
      12: 'cb5c1fca7a554966',
      13: 'eb7034cf52e222b0',
      16: '31e56bab43444c71',
      17: 'e253ab747879766b',
      20: '4a489ea4ab64c4f0',
      21: 'ea812afa16a71f40',
      22: '1bf820a653af3a0c',
    };
    for (const [n, hex] of Object.entries(pinned)) expect([n, joinPlan(Number(n)).identity.digest]).toEqual([n, hex]);
  });

  it('merge refuses a join shard mixed with a search shard, naming both files and the reason', () => {
    const search = join(dir, 'search-1.json');
    expect(nqueens('count', '12', '--shard', '1/3', '--out', search).code).toBe(0);
    const r = nqueens('merge', files[0], search, files[2]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `${search} is a shard of a search count \\(plan \\w+\\), ${files[0]} of a join count \\(plan \\w+\\): shards of different methods never mix`,
      ),
    );
  });

  it('merge refuses a tampered join count, edited or re-digested', () => {
    const s1 = read(files[1]);
    const edited = join(dir, 'join-edited.json');
    writeFileSync(edited, JSON.stringify({ ...s1, counts: [String(BigInt(s1.counts[0]) + 1n), ...s1.counts.slice(1)] }));
    const r = nqueens('merge', files[0], edited, files[2]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/join-edited.json: its digest does not match its contents/);

    // A forger who recomputes the digest and the total: Burnside still gives no whole number of classes.
    const counts = s1.counts.map(BigInt);
    counts[0] += 1n;
    const forged = join(dir, 'join-forged.json');
    const spec = { index: 1, count: 3 };
    writeFileSync(
      forged,
      JSON.stringify(shardResult(plannedMethod('join', 12, 0), spec, s1, counts, { engine: 'wasm', threads: 1, elapsedMs: 1 })),
    );
    const f = nqueens('merge', files[0], forged, files[2]);
    expect(f.code).toBe(1);
    expect(f.stderr).toMatch(/the total \d+ cannot be a count of n = 12: .*Burnside's lemma gives no whole number of classes/);
  });

  it('merge --verify recounts join units with the join and catches a consistent forgery', () => {
    const ok = nqueens('merge', ...files, '--verify', '1000', '--seed', '7');
    expect(ok.code).toBe(0);
    const plan = joinPlan(12);
    expect(ok.stdout).toMatch(new RegExp(`^verify\\s+${plan.units} random units recounted, all match \\(seed 7\\)$`, 'm'));
    // A forgery that merge alone cannot see: unit 0 off by 8, digest and total recomputed.
    const s0 = read(files[0]);
    const counts = s0.counts.map(BigInt);
    counts[0] += 8n; // weight x 8 added to the total: Burnside stays whole
    const forged = join(dir, 'join-consistent.json');
    writeFileSync(
      forged,
      JSON.stringify(
        shardResult(plannedMethod('join', 12, 0), { index: 0, count: 3 }, s0, counts, { engine: 'wasm', threads: 1, elapsedMs: 1 }),
      ),
    );
    // Alone, merge sees only that the sum is not n = 12's published one; --verify finds the unit.
    const alone = nqueens('merge', forged, files[1], files[2]);
    expect([alone.code, alone.stderr]).toEqual([
      1,
      expect.stringContaining('add up to 14216 solutions, 1789 unique, but n = 12 has 14200, 1787 unique'),
    ]);
    const caught = nqueens('merge', forged, files[1], files[2], '--verify', String(plan.units), '--engine', 'js');
    expect(caught.code).toBe(1);
    expect(caught.stderr).toMatch(
      new RegExp(`verification failed \\(seed \\d+\\): unit 0 is recorded in ${forged} as ${counts[0]}, but counts ${counts[0] - 8n}`),
    );
  });

  it('merge --subtotals and count --subtotals list one line per split, alike', () => {
    const merged = join(dir, 'join-merged.sub');
    const whole = join(dir, 'join-whole.sub');
    expect(nqueens('merge', ...files, '--subtotals', merged).code).toBe(0);
    expect(nqueens('count', '12', '--algorithm', 'join', '--subtotals', whole).code).toBe(0);
    const text = readFileSync(merged, 'utf8');
    expect(readFileSync(whole, 'utf8')).toBe(text);
    const rows = text
      .split('\n')
      .filter((l) => /^\d/.test(l))
      .map((l) => l.split(' '));
    expect(rows).toHaveLength(joinPlan(12).units);
    expect(rows.every(([, split]) => /^[EW]{12}$/.test(split))).toBe(true);
    expect(rows.reduce((sum, [, , weight, solutions]) => sum + BigInt(weight) * BigInt(solutions), 0n)).toBe(14200n);
  });

  it('odd n: --subtotals marks the centre row C, the east rows E and the rest W, as each unit splits them', () => {
    const file = join(dir, 'join-odd.sub');
    expect(nqueens('count', '11', '--algorithm', 'join', '--subtotals', file).code).toBe(0);
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^\d/.test(l))
      .map((l) => l.split(' '));
    const plan = joinPlan(11);
    expect(rows).toHaveLength(plan.units);
    for (const [id, split] of rows) {
      const unit = unitOf(plan, Number(id));
      const expected = Array.from({ length: 11 }, (_, row) =>
        row === unit.centreRow ? 'C' : (unit.eastRows >>> row) & 1 ? 'E' : 'W',
      ).join('');
      expect([id, split]).toEqual([id, expected]);
      expect(split.replace(/[^C]/g, '')).toBe('C');
    }
    expect(rows.reduce((sum, [, , weight, solutions]) => sum + BigInt(weight) * BigInt(solutions), 0n)).toBe(2680n);
  });

  it('--depth with the join is a usage error', () => {
    const r = nqueens('count', '12', '--algorithm', 'join', '--depth', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--depth refines the search's plan; the join's units are row splits, with no depth/);
  });
});

describe('join checkpoints', () => {
  it('a partial join checkpoint resumes to the exact total and unique count', async () => {
    const n = 13;
    const plan = joinPlan(n);
    const file = join(dir, 'join-13.ckpt');
    // Half the units finished, as an interrupted run leaves them.
    const counter = joinCounter('js');
    const checkpoint = await Checkpoint.open(file, plannedMethod('join', n, 0), '0/1', 0, plan.units);
    const half = Math.floor(plan.units / 2);
    for (const unit of plan.unitsIn(0, half)) checkpoint.record(unit.id, counter.countUnit(n, unit));
    checkpoint.close();
    const r = nqueens('count', String(n), '--algorithm', 'join', '--checkpoint', file, '--threads', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^total\s+73712$/m);
    expect(r.stdout).toMatch(/^unique\s+9233$/m);
    expect(r.stdout).toMatch(/^algorithm\s+join$/m);
    expect(r.stderr).toMatch(new RegExp(`resumed from .*: ${half} of ${plan.units} units were already done`));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + plan.units);
    expect(JSON.parse(lines[0]).plan).toMatchObject({ method: 'join', depth: 0, digest: plan.identity.digest });
  });

  it('a join shard with a checkpoint resumes too, and a search checkpoint is refused by the join', async () => {
    const file = join(dir, 'join-12-1.ckpt');
    const out = join(dir, 'join-12-1.json');
    const plan = joinPlan(12);
    const { from, to } = plan.shardRange(1, 3);
    const counter = joinCounter('wasm');
    const checkpoint = await Checkpoint.open(file, plannedMethod('join', 12, 0), '1/3', from, to);
    checkpoint.record(from, counter.countUnit(12, unitOf(plan, from)));
    checkpoint.close();
    const r = nqueens('count', '12', '--algorithm', 'join', '--shard', '1/3', '--checkpoint', file, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`1 of ${to - from} units were already done`));
    expect(read(out).total).toBe(read(join(dir, 'join-1.json')).total);

    const search = join(dir, 'search-12.ckpt');
    expect(nqueens('count', '12', '--checkpoint', search).code).toBe(0);
    const refused = nqueens('count', '12', '--algorithm', 'join', '--checkpoint', search);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/was made with another plan \(search, depth \d, digest \w+\); this count uses join, depth 0/);
  });
});
