// Files label the search's plan 'search'; files written before label it
// 'constellations', and are still merged and resumed, each checked against
// the label it was written with. The old files below were written by the
// CLI before the change (n = 8, depth 0: 87 units, total 92, unique 12).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planUnits } from 'nqueens-wasm';
import { cliInTempDir } from './cli-in-dir.js';

const OLD_SHARDS = [
  '{"format":"nqueens-shard","formatVersion":2,"version":"0.1.0","n":8,"plan":{"method":"constellations","depth":0,"formatVersion":1,"units":87,"digest":"7f99fb255e6ec4ea"},"shard":0,"of":2,"from":0,"to":32,"total":"40","unique8":"40","engine":"wasm","threads":1,"elapsedMs":7.867,"digest":"502485c2d1e008a6","counts":["0","0","0","0","0","1","1","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","1","1","0","0","0","0","0","1","0"]}',
  '{"format":"nqueens-shard","formatVersion":2,"version":"0.1.0","n":8,"plan":{"method":"constellations","depth":0,"formatVersion":1,"units":87,"digest":"7f99fb255e6ec4ea"},"shard":1,"of":2,"from":32,"to":87,"total":"52","unique8":"56","engine":"wasm","threads":1,"elapsedMs":13.239,"digest":"8bb1c1d36221f63f","counts":["0","1","0","0","0","0","0","0","1","0","1","0","0","0","0","1","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","0","1","0","0","0","0","1","0","0","1","1","0","0","0","0"]}',
];

/** The header and the first 11 units (0..10) of an old checkpoint of `count 8 --algorithm search`. */
const OLD_CHECKPOINT = `{"format":"nqueens-checkpoint","formatVersion":2,"version":"0.1.0","n":8,"plan":{"method":"constellations","depth":0,"units":87,"digest":"7f99fb255e6ec4ea"},"shard":"0/1","from":0,"to":87,"check":"339ac511"}
{"unit":0,"count":"0","check":"76be0f81"}
{"unit":1,"count":"0","check":"083a4a3e"}
{"unit":2,"count":"0","check":"19b74e7b"}
{"unit":3,"count":"0","check":"9b1fe850"}
{"unit":4,"count":"0","check":"4c9c556d"}
{"unit":5,"count":"1","check":"df1891bd"}
{"unit":6,"count":"1","check":"6e94c954"}
{"unit":7,"count":"0","check":"ee82fbbc"}
{"unit":8,"count":"0","check":"4ff71f29"}
{"unit":9,"count":"0","check":"def8f0e6"}
{"unit":10,"count":"0","check":"a1e6822a"}
`;

const { dir, nqueens } = cliInTempDir('nqueens-labels-');
const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe("the search's plan label in files", () => {
  it("new shards, checkpoints and subtotals say 'search'; the plan's identity and digest are those of before", () => {
    const shard = JSON.parse(nqueens('count', '8', '--algorithm', 'search', '--shard', '0/2', '--out', '-').stdout);
    expect(shard.plan).toEqual({ method: 'search', depth: 0, formatVersion: 1, units: 87, digest: '7f99fb255e6ec4ea' });
    expect(nqueens('count', '8', '--algorithm', 'search', '--checkpoint', 'new.ckpt', '--subtotals', 'new.txt').code).toBe(0);
    const header = JSON.parse(readFileSync(join(dir, 'new.ckpt'), 'utf8').split('\n', 1)[0]);
    expect(header.plan).toEqual({ method: 'search', depth: 0, units: 87, digest: '7f99fb255e6ec4ea' });
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toMatch(/^# nqueens-subtotals: .*, plan search depth 0 digest 7f99fb255e6ec4ea\n/);
    // The public PlanInfo says 'search' too, with the digest of before (computed over the old word).
    expect(planUnits(8, { algorithm: 'search', depth: 0 })).toMatchObject({
      method: 'search',
      algorithm: 'search',
      digest: '7f99fb255e6ec4ea',
    });
  });

  it("old shards labelled 'constellations' merge, alone and with new ones", () => {
    const [old0, old1] = OLD_SHARDS.map((text, i) => write(`old-${i}.json`, text));
    const merged = nqueens('merge', old0, old1, '--json');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ n: 8, total: '92', unique: '12', units: 87, plan: '7f99fb255e6ec4ea' });
    // `merge --json` names the plan's method as everything else does: 'search', also for old shards.
    expect(JSON.stringify(JSON.parse(merged.stdout))).not.toMatch(/constellations/);
    expect(nqueens('count', '8', '--algorithm', 'search', '--shard', '1/2', '--out', 'new-1.json').code).toBe(0);
    const mixed = nqueens('merge', old0, 'new-1.json');
    expect(mixed.stderr).toBe('');
    expect(mixed.stdout).toMatch(/^total\s+92$/m);
    expect(mixed.stdout).toMatch(/^unique\s+12$/m);
  });

  it('an old shard is checked against the label it was written with: relabelled, its digest fails', () => {
    const relabelled = JSON.parse(OLD_SHARDS[0]);
    relabelled.plan.method = 'search';
    const r = nqueens('merge', write('relabelled.json', JSON.stringify(relabelled)), write('old-1b.json', OLD_SHARDS[1]));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/relabelled\.json: its digest does not match its contents \(edited or damaged\)/);
  });

  it("an old checkpoint labelled 'constellations' resumes, keeping its header", () => {
    const file = write('old.ckpt', OLD_CHECKPOINT);
    const r = nqueens('count', '8', '--algorithm', 'search', '--checkpoint', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^total\s+92$/m);
    expect(r.stdout).toMatch(/^unique\s+12$/m);
    expect(r.stderr).toMatch(/resumed from .*: 11 of 87 units were already done/);
    const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + 87);
    expect(lines[0]).toBe(OLD_CHECKPOINT.split('\n', 1)[0]);
  });
});
