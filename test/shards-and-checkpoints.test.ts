// Shards run as separate processes and merge back to the exact count, and
// merge refuses anything that does not add up; checkpoints resume without
// losing finished work and refuse damage; Ctrl-C stops cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shortCheck } from '../dist/shared/digest.js';
import { planUnits } from '../dist/index.js';
import { constellationPlan } from './plans.js';
import { digestOf, shardResult } from '../dist/cli/shards.js';
import { VERSION } from '../dist/shared/version.js';
import { cli, cliInTempDir, readJson } from './cli-in-dir.js';
import { plannedMethod } from '../dist/run/methods.js';
import { TOTAL, UNIQUE } from './oeis.js';

const { dir, nqueens } = cliInTempDir('nqueens-test-');
const read = readJson;
const killAtLines = fileURLToPath(new URL('./fixtures/kill-at-checkpoint-lines.mjs', import.meta.url));

/** Writes a shard file edited by `edit`, as a tamperer would. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tampering edits arbitrary fields of parsed JSON
function tampered(from: string, name: string, edit: (shard: Record<string, any>) => void): string {
  const shard = read(from);
  edit(shard);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(shard));
  return file;
}

describe('shards', () => {
  const files = [0, 1, 2, 3].map((i) => join(dir, `shard-${i}.json`));

  it('four shard processes merge back to the exact total and unique count', () => {
    for (let i = 0; i < 4; i++) {
      const r = nqueens('count', '13', '--shard', `${i}/4`, '--out', files[i], '--threads', '1');
      expect(r.code).toBe(0);
    }
    const shards = files.map(read);
    const plan = planUnits(13, { parts: 4 * 2 });
    expect(shards.map((s) => [s.n, s.shard, s.of, s.version, s.plan.digest, s.plan.depth])).toEqual(
      [0, 1, 2, 3].map((i) => [13, i, 4, VERSION, plan.digest, plan.depth]),
    );
    // Contiguous, disjoint and complete; one count per unit.
    expect(shards.map((s) => [s.from, s.to])).toEqual([0, 1, 2, 3].map((i) => Object.values(plan.shard(i, 4))));
    expect(shards[0].from).toBe(0);
    expect(shards[3].to).toBe(plan.units);
    for (const s of shards) expect(s.counts).toHaveLength(s.to - s.from);
    const merged = nqueens('merge', ...files, '--json');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ n: 13, total: '73712', unique: '9233', shards: 4, units: plan.units });
  });

  it('a shard with --out - prints its JSON result', () => {
    const r = nqueens('count', '10', '--shard', '0/1', '--out', '-');
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'nqueens-shard', n: 10, total: '724', unique8: String(92 * 8), shard: 0, of: 1 });
  });

  it('merge refuses a missing shard, naming the units', () => {
    const r = nqueens('merge', files[0], files[1], files[3]);
    expect(r.code).toBe(1);
    const s2 = read(files[2]);
    expect(r.stderr.trim()).toBe(
      `nqueens: units ${s2.from}..${s2.to - 1} are missing: no shard between ${files[1]} and ${files[3]} (shard 2/4 would fill them) [ERR_NQUEENS_BAD_SHARD]`,
    );
  });

  it('merge names every missing range and every duplicate, not only the first', () => {
    const r = nqueens('merge', files[0], files[2], files[2], files[0]);
    expect(r.code).toBe(1);
    const [s1, s3] = [read(files[1]), read(files[3])];
    expect(r.stderr.trim()).toBe(
      `nqueens: shard 0/4 appears twice: ${files[0]} (given twice); shard 2/4 appears twice: ${files[2]} (given twice); ` +
        `${s1.to - s1.from + s3.to - s3.from} units are missing, in 2 ranges (units ${s1.from}..${s1.to - 1} and ${s3.from}..${s3.to - 1}): ` +
        `shards 1/4 and 3/4 would fill them [ERR_NQUEENS_BAD_SHARD]`,
    );
  });

  it('merge refuses a duplicated shard', () => {
    const r = nqueens('merge', files[0], files[1], files[2], files[3], files[2]);
    expect(r.stderr.trim()).toBe(`nqueens: shard 2/4 appears twice: ${files[2]} (given twice) [ERR_NQUEENS_BAD_SHARD]`);
    expect(r.code).toBe(1);
  });

  it('merge names a shard given many times once, with how many times, and lists copies of it by at most four names', () => {
    // Before, one line per repeat: 5,000 repeats gave 220 KB of stderr.
    const repeated = nqueens('merge', ...Array<string>(5000).fill(files[1]), files[0], files[2], files[3]);
    expect(repeated.stderr).toBe(`nqueens: shard 1/4 appears 5,000 times: ${files[1]} (given 5,000 times) [ERR_NQUEENS_BAD_SHARD]\n`);
    expect(repeated.code).toBe(1);
    const copies = [1, 2, 3, 4, 5].map((k) => {
      const copy = join(dir, `copy-${k}.json`);
      writeFileSync(copy, readFileSync(files[1]));
      return copy;
    });
    const mixed = nqueens('merge', files[1], ...copies, files[1], files[0], files[2], files[3], copies[0]);
    expect(mixed.stderr).toBe(
      `nqueens: shard 1/4 appears 8 times: ${files[1]} (given twice), ${copies[0]} (given twice), ${copies[1]} and 3 other files [ERR_NQUEENS_BAD_SHARD]\n`,
    );
    const four = nqueens('merge', ...files, ...copies.slice(0, 3));
    expect(four.stderr).toBe(
      `nqueens: shard 1/4 appears 4 times: ${files[1]}, ${copies[0]}, ${copies[1]} and ${copies[2]} [ERR_NQUEENS_BAD_SHARD]\n`,
    );
    expect([mixed.code, four.code]).toEqual([1, 1]);
  });

  it("merge names the shard that would fill a gap at the end, with the plan's units", () => {
    const s3 = read(files[3]);
    expect(nqueens('merge', files[0], files[1], files[2]).stderr).toBe(
      `nqueens: units ${s3.from}..${s3.to - 1} are missing: no shard after ${files[2]} (the plan has ${s3.to} units; shard 3/4 would fill them) [ERR_NQUEENS_BAD_SHARD]\n`,
    );
  });

  /** Writes shard i/m of `plan` with zero counts (merge refuses the gaps before it adds anything up). */
  const zeroShard = (plan: ReturnType<typeof plannedMethod>, i: number, m: number): string => {
    const range = plan.shardRange(i, m);
    const file = join(dir, `zero-${plan.n}-${i}-of-${m}.json`);
    const counts = new Array<bigint>(range.to - range.from).fill(0n);
    writeFileSync(
      file,
      JSON.stringify(shardResult(plan, { index: i, count: m }, range, counts, { engine: 'wasm', threads: 1, elapsedMs: 1 })),
    );
    return file;
  };

  it('merge names many missing ranges in one message of bounded size, with the shards that would fill them', () => {
    // Every other shard of 2,000: before, one "units a..b are missing" phrase per gap (831 of them, 83 KB of stderr).
    const plan = plannedMethod('search', 12, 1);
    const m = 2000;
    const given = Array.from({ length: m / 2 }, (_, k) => 2 * k);
    const r = nqueens('merge', ...given.map((i) => zeroShard(plan, i, m)));
    expect(r.code).toBe(1);
    // The gaps, found unit by unit; each one's shards: the odd ones holding its units, from the first to the last.
    const holder = new Array<number>(plan.units).fill(-1);
    for (let i = 0; i < m; i++) for (let u = plan.shardRange(i, m).from; u < plan.shardRange(i, m).to; u++) holder[u] = i;
    const gaps: { from: number; to: number; shards: number[] }[] = [];
    holder.forEach((i, u) => {
      if (i % 2 === 0) return;
      const last = gaps.at(-1);
      if (last !== undefined && last.to === u) Object.assign(last, { to: u + 1, shards: [...new Set([...last.shards, i])] });
      else gaps.push({ from: u, to: u + 1, shards: [i] });
    });
    const missing = gaps.reduce((sum, g) => sum + g.to - g.from, 0);
    const spans = gaps.map((g) => [g.shards[0], g.shards.at(-1)!]);
    const [a, b, c] = gaps.map((g) => `${g.from}..${g.to - 1}`);
    const [x, y, z] = spans.map(([first, last]) => (first === last ? `${first}/${m}` : `${first}/${m}..${last}/${m}`));
    const others = spans.slice(3).reduce((sum, [first, last]) => sum + last - first + 1, 0);
    expect(gaps.length).toBeGreaterThan(500);
    expect(r.stderr).toBe(
      `nqueens: ${missing.toLocaleString('en-US')} units are missing, in ${gaps.length} ranges (units ${a}, ${b}, ${c} and ${gaps.length - 3} other ranges): ` +
        `shards ${x}, ${y}, ${z} and ${others} other shards would fill them [ERR_NQUEENS_BAD_SHARD]\n`,
    );
    expect(r.stderr.length).toBeLessThan(300);
  });

  it('merge of mixed splits names the shards of a gap where a split starts and ends with it, and counts the others', () => {
    const plan = plannedMethod('search', 10, 0);
    const [a, b, c] = [plan.shardRange(0, 3), plan.shardRange(3, 6), plan.shardRange(3, 4)];
    const fill = plan.shardRange(2, 6);
    // 2/6 is the gap between 0/3 and 3/6 exactly; 4/6 ends past 3/4's start, and no shard of 4 starts at 3/6's end.
    expect([fill.from, fill.to, plan.shardRange(4, 6).to > c.from]).toEqual([a.to, b.from, true]);
    const r = nqueens('merge', zeroShard(plan, 0, 3), zeroShard(plan, 3, 6), zeroShard(plan, 3, 4));
    expect(r.stderr).toBe(
      `nqueens: ${b.from - a.to + c.from - b.to} units are missing, in 2 ranges (units ${a.to}..${b.from - 1} and ${b.to}..${c.from - 1}): ` +
        `shard 2/6 would fill 1 of those ranges [ERR_NQUEENS_BAD_SHARD]\n`,
    );
    const unnamed = nqueens('merge', zeroShard(plan, 0, 3), zeroShard(plan, 3, 4));
    expect(unnamed.stderr).toMatch(
      /^nqueens: units \d+\.\.\d+ are missing: no shard between \S+zero-10-0-of-3\.json and \S+zero-10-3-of-4\.json \[/,
    );
  });

  it('merge refuses units counted twice by shards of different splits', () => {
    const half = join(dir, 'half-0.json');
    nqueens('count', '13', '--shard', '0/2', '--depth', String(read(files[0]).plan.depth), '--out', half);
    const r = nqueens('merge', half, ...files);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^nqueens: \d+ units are counted more than once \(units 0\.\.\d+\): shards of different splits overlap, in .*half-0\.json, .*shard-0\.json/,
    );
  });

  it('merge names overlapping splits in one message of bounded size, however many files overlap', () => {
    // Before, one "counted twice" phrase per overlapping pair: 72 of them here, over 6 KB of stderr.
    const plan = plannedMethod('search', 10, 0);
    const run = { engine: 'wasm', threads: 1, elapsedMs: 1 };
    const write = (i: number, m: number): string => {
      const range = plan.shardRange(i, m);
      const file = join(dir, `split-${i}-of-${m}.json`);
      const counts = new Array<bigint>(range.to - range.from).fill(0n);
      writeFileSync(file, JSON.stringify(shardResult(plan, { index: i, count: m }, range, counts, run)));
      return file;
    };
    const forty = Array.from({ length: 40 }, (_, i) => write(i, 40));
    const all = nqueens('merge', ...forty, ...Array.from({ length: 41 }, (_, i) => write(i, 41)));
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(
      /^nqueens: 288 units are counted more than once \(units 0\.\.287\): shards of different splits overlap, in \S+split-0-of-40\.json, \S+split-0-of-41\.json, \S+split-1-of-40\.json and 78 other files \[ERR_NQUEENS_BAD_SHARD\]\n$/,
    );
    // Every other shard of the second split: overlaps apart from each other, counted and listed by their first three.
    const even = Array.from({ length: 21 }, (_, k) => plan.shardRange(2 * k, 41)).filter((r) => r.to > r.from);
    const units = even.reduce((sum, r) => sum + r.to - r.from, 0);
    const some = nqueens('merge', ...forty, ...even.map((_, k) => join(dir, `split-${2 * k}-of-41.json`)));
    const [a, b, c] = even.map((r) => `${r.from}..${r.to - 1}`);
    expect(some.stderr).toContain(
      `nqueens: ${units} units are counted more than once (units ${a}, ${b}, ${c} and ${even.length - 3} other ranges)`,
    );
    expect(some.stderr.length).toBeLessThan(400);
  });

  it('merge refuses a file of many "[" or "{" before parsing it, in a bounded heap', () => {
    // Before, JSON.parse made an array of each: 10 MB of "[" took 565 MB, and under a 64 MB heap ended the process
    // with V8's "heap out of memory" and a stack trace (exit 134).
    const nested = join(dir, 'nested.json');
    writeFileSync(nested, `${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}`);
    const flat = join(dir, 'flat.json');
    writeFileSync(flat, `{"counts":[${'{},'.repeat(3_000_000)}{}]}`);
    for (const file of [nested, flat]) {
      const r = spawnSync(process.execPath, ['--max-old-space-size=64', cli, 'merge', file, files[0]], { encoding: 'utf8' });
      expect([r.status, r.stdout, r.stderr]).toEqual([
        1,
        '',
        `nqueens: ${file} is not a shard result (it holds over 64 "[" and "{"; a shard file holds 3) [ERR_NQUEENS_BAD_SHARD]\n`,
      ]);
    }
  });

  it('merge refuses edited numbers: total, unique8, a unit count, n, of, shard, the digest, a run that is not one, added fields', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tampering edits arbitrary fields of parsed JSON
    const cases: [string, (s: Record<string, any>) => void, RegExp][] = [
      [
        'total',
        (s) => (s.total = String(BigInt(s.total) + 8n)),
        /edited-total.json: its digest does not match its contents \(edited or damaged\)/,
      ],
      ['unique8', (s) => (s.unique8 = String(BigInt(s.unique8) + 8n)), /edited-unique8.json: its digest does not match/],
      ['count', (s) => (s.counts[3] = String(BigInt(s.counts[3]) + 1n)), /edited-count.json: its digest does not match/],
      ['n', (s) => (s.n = 12), /edited-n.json: its digest does not match/],
      // The digest joins the fields as text, so "13" passes it for 13: refused by its type.
      ['n-text', (s) => (s.n = String(s.n)), /edited-n-text.json: n = "13" is not a board size \(1 to 32\)/],
      ['of', (s) => (s.of = 1e9), /edited-of.json: "of": 1000000000 is not a shard count \(1 to 1000000\)/],
      ['shard', (s) => (s.shard = 7), /edited-shard.json: "shard": 7 is not an index below "of" \(4\)/],
      ['digest', (s) => (s.digest = '0000000000000000'), /edited-digest.json: its digest does not match/],
      ['range', (s) => (s.to = 1e15), /edited-range.json: it covers units \d+\.\.999999999999999 but holds \d+ counts/],
      // The digest joins the fields as text: "288" for 288 passed it (and merge then said 288 units were not 288 units).
      [
        'units',
        (s) => (s.plan.units = String(s.plan.units)),
        /edited-units.json: its plan \(.*"units":"\d+".*\) is not one this version makes/,
      ],
      // Outside the digest, but shaped: merge adds up the times.
      ['elapsedMs', (s) => (s.elapsedMs = -5e12), /edited-elapsedMs.json: "elapsedMs": -5000000000000 is not a time in ms \(0 or more\)/],
      ['time', (s) => (s.elapsedMs = '12'), /edited-time.json: "elapsedMs": "12" is not a time in ms/],
      ['threads', (s) => (s.threads = 0), /edited-threads.json: "threads": 0 is not a thread count \(1 or more\)/],
      [
        'engine',
        (s) => (s.engine = null),
        /edited-engine.json: "engine": null is not the name of an engine that counts shards \(wasm or js\)/,
      ],
      ['engine-name', (s) => (s.engine = 'x'), /edited-engine-name.json: "engine": "x" is not the name of an engine that counts shards/],
      ['engine-empty', (s) => (s.engine = ''), /edited-engine-empty.json: "engine": "" is not the name of an engine that counts/],
      ['engine-auto', (s) => (s.engine = 'auto'), /edited-engine-auto.json: "engine": "auto" is not the name of an engine/],
      // A field no shard file has, at the top or in its plan: an edit, refused before anything is read.
      ['added', (s) => (s.bonus = '8'), /edited-added.json: it has a field no shard file has \("bonus"\): edited/],
      ['added-plan', (s) => (s.plan.weights = [2]), /edited-added-plan.json: it has a field no shard file has \("weights"\): edited/],
    ];
    for (const [what, edit, message] of cases) {
      const bad = tampered(files[1], `edited-${what}.json`, edit);
      const r = nqueens('merge', files[0], bad, files[2], files[3]);
      expect([what, r.code]).toEqual([what, 1]);
      expect(r.stderr).toMatch(message);
    }
  });

  it("merge names a number past a double's range as such, not as the null JSON.stringify makes of it", () => {
    for (const [what, value, shown] of [
      ['huge', '1e400', "a number past a double's range (1e309 or beyond)"],
      ['huge-negative', '-1e400', "a number past a double's range (-1e309 or beyond)"],
    ]) {
      const file = join(dir, `edited-elapsed-${what}.json`);
      writeFileSync(file, JSON.stringify(read(files[1])).replace(/"elapsedMs":[^,]+/, `"elapsedMs":${value}`));
      const r = nqueens('merge', files[0], file, files[2], files[3]);
      expect([what, r.code, r.stderr.trim()]).toEqual([
        what,
        1,
        `nqueens: ${file}: "elapsedMs": ${shown} is not a time in ms (0 or more) [ERR_NQUEENS_BAD_SHARD]`,
      ]);
    }
  });

  it('merge refuses a shard whose digest was recomputed but whose totals or symmetry do not add up', () => {
    const s1 = read(files[1]);
    const plan = constellationPlan(13, s1.plan.depth);
    const counts = s1.counts.map(BigInt);
    const spec = { index: s1.shard, count: s1.of };
    const run = { engine: 'wasm', threads: 1, elapsedMs: 1 };
    // A self-consistent forgery with a total that is not its counts' sum.
    const forged = shardResult(plannedMethod('search', 13, s1.plan.depth), spec, s1, counts, run);
    const lying = tampered(files[1], 'lying-total.json', (s) => Object.assign(s, { ...forged, total: String(BigInt(forged.total) + 2n) }));
    // (its digest no longer matches either: edits are caught twice over)
    expect(nqueens('merge', files[0], lying, files[2], files[3]).code).toBe(1);
    // A fixes unit of a symmetric constellation with more fixes than (h - 1) x solutions.
    const k = files.findIndex((f) => [...plan.unitsIn(read(f).from, read(f).to)].some((u) => u.kind === 'fixes'));
    const sk = read(files[k]);
    const fixes = [...plan.unitsIn(sk.from, sk.to)].find((u) => u.kind === 'fixes')!;
    const impossible = sk.counts.map(BigInt);
    impossible[fixes.id - sk.from] = 1_000_000n;
    const file = join(dir, 'impossible-fixes.json');
    writeFileSync(file, JSON.stringify(shardResult(plannedMethod('search', 13, plan.depth), { index: k, count: 4 }, sk, impossible, run)));
    const r = nqueens('merge', ...files.map((f, i) => (i === k ? file : f)));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `impossible-fixes.json: unit ${fixes.id} \\(the fixes of constellation \\d+, stabiliser \\d\\) records 1000000 fixes for \\d+ solutions, which no count can give`,
      ),
    );
  });

  it('merge --verify recounts random units, prints its seed, and catches a consistent forgery', () => {
    const ok = nqueens('merge', ...files, '--verify', '50', '--seed', '7');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^verify\s+50 random units recounted, all match \(seed 7\)$/m);
    expect(ok.stderr).toMatch(/repeat with --verify 50 --seed 7/);
    // A forged shard: one solution unit's count raised by one, totals and digest recomputed.
    const s1 = read(files[1]);
    const plan = constellationPlan(13, s1.plan.depth);
    const counts = s1.counts.map(BigInt);
    const id = [...plan.unitsIn(s1.from, s1.to)].find((u) => u.kind === 'solutions')!.id;
    counts[id - s1.from] += 1n;
    const forged = join(dir, 'forged.json');
    writeFileSync(
      forged,
      JSON.stringify(
        shardResult(plannedMethod('search', plan.n, plan.depth), { index: 1, count: 4 }, s1, counts, {
          engine: 'wasm',
          threads: 1,
          elapsedMs: 1,
        }),
      ),
    );
    // Each file adds up: alone, merge sees only that the sum is not n = 13's published one; a recount names the unit.
    const alone = nqueens('merge', files[0], forged, files[2], files[3]);
    expect([alone.code, alone.stderr]).toEqual([1, expect.stringContaining(`but n = 13 has ${TOTAL[13]}, ${UNIQUE[13]} unique (OEIS`)]);
    const all = String(plan.units);
    // --verify with every unit (or more) recounts every unit, and says how many it recounted.
    for (const k of [all, String(plan.units + 5)]) {
      const every = nqueens('merge', ...files, '--verify', k, '--seed', '3', '--json');
      expect([every.code, JSON.parse(every.stdout).verified]).toEqual([0, plan.units]);
    }
    const r = nqueens('merge', files[0], forged, files[2], files[3], '--verify', all, '--seed', '1');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `verification failed \\(seed 1\\): unit ${id} is recorded in .*forged.json as ${counts[id - s1.from]}, but counts ${counts[id - s1.from] - 1n}`,
      ),
    );
  });

  it('merge refuses shards of different n, plans or versions, files that are not shards, and huge files before reading', () => {
    const other = join(dir, 'other-n.json');
    nqueens('count', '12', '--shard', '1/4', '--out', other);
    expect(nqueens('merge', files[0], other, files[2], files[3]).stderr).toMatch(/other-n.json is for n = 12, .* for n = 13/);

    const otherDepth = join(dir, 'other-depth.json');
    nqueens('count', '13', '--shard', '1/4', '--depth', '2', '--out', otherDepth);
    expect(nqueens('merge', files[0], otherDepth, files[2], files[3]).stderr).toMatch(
      /other-depth.json uses plan \w+ \(depth 2\), .* plan \w+ \(depth \d\): all shards must share one plan/,
    );

    const old = tampered(files[1], 'old.json', (s) => (s.version = '0.0.1'));
    expect(nqueens('merge', files[0], old, files[2], files[3]).stderr).toMatch(/old.json was made by nqueens-wasm 0.0.1/);
    // Before: "made by nqueens-wasm undefined".
    const unversioned = tampered(files[1], 'unversioned.json', (s) => delete s.version);
    expect(nqueens('merge', files[0], unversioned, files[2], files[3]).stderr).toMatch(
      /unversioned.json was made by an unknown version \(its "version" is missing\) \(shard format 2\); this is /,
    );

    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    expect(nqueens('merge', junk).stderr).toMatch(/junk.json is not a shard result/);
    expect(nqueens('merge', join(dir, 'nope.json')).stderr).toMatch(/cannot read .*nope.json: ENOENT/);
  });

  it.each(['4/4', '-1/4', '1/0', 'x', '1', '0/1000001'])('--shard %s is refused', (spec) => {
    const r = nqueens('count', '10', `--shard=${spec}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shard must be i\/m with 0 <= i < m/);
  });

  it('--shard takes m up to 1,000,000 (the documented bound), its last slice too', () => {
    const first = nqueens('count', '8', '--shard', '0/1000000', '--out', '-');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ n: 8, shard: 0, of: 1_000_000, from: 0 });
    const last = nqueens('count', '8', '--shard', '999999/1000000', '--out', '-');
    expect(last.code).toBe(0);
    // n = 8 has 31 units at its default depth: the last slice ends the plan.
    expect(JSON.parse(last.stdout)).toMatchObject({ n: 8, shard: 999_999, of: 1_000_000, to: 31, plan: { units: 31 } });
  });

  it('shards stay balanced by estimated work up to 100,000 of them', () => {
    const plan = constellationPlan(21, 3);
    const m = 100_000;
    let previous = 0;
    let largest = 0;
    for (const i of [0, 1, 2, 500, 50_000, 99_998, 99_999]) {
      const { from, to } = plan.shardRange(i, m);
      expect(from).toBeLessThanOrEqual(to);
      largest = Math.max(largest, plan.workIn(from, to));
      if (i > 0) expect(plan.shardRange(i - 1, m).to).toBe(from);
      previous = to;
    }
    expect(previous).toBe(plan.units);
    expect(largest).toBeLessThan((plan.work / m) * 1.5);
  });
});

describe('checkpoints', () => {
  const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

  it('records every unit, and a resumed run redoes none of the finished ones; a torn last line runs again', () => {
    const file = join(dir, 'n12.ckpt');
    const first = nqueens('count', '12', '--checkpoint', file);
    expect(first.stdout).toMatch(/^total\s+14200$/m);
    const all = lines(file);
    const header = JSON.parse(all[0]);
    expect(header).toMatchObject({ format: 'nqueens-checkpoint', formatVersion: 2, version: VERSION, n: 12, shard: '0/1', from: 0 });
    expect(all).toHaveLength(1 + header.to);
    expect(JSON.parse(all[1])).toEqual({ unit: 0, count: expect.any(String), check: expect.stringMatching(/^[0-9a-f]{8}$/) });

    // Keep 300 finished lines and a line torn by a crash, as after a kill.
    writeFileSync(file, all.slice(0, 1 + 300).join('\n') + '\n{"unit":300,"cou');
    const resumed = nqueens('count', '12', '--checkpoint', file);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^total\s+14200$/m);
    expect(resumed.stdout).toMatch(/^unique\s+1787$/m);
    expect(resumed.stderr).toMatch(/line 302 was torn \(cut short by a crash\); its unit runs again/);
    expect(resumed.stderr).toMatch(new RegExp(`resumed from .*: 300 of ${header.to} units were already done`));
    const after = lines(file);
    expect(after).toHaveLength(1 + header.to);
    expect(new Set(after.slice(1).map((l) => JSON.parse(l).unit)).size).toBe(header.to);
    // Only a torn header: nothing was recorded, and the message says so (no unit runs "again").
    writeFileSync(file, all[0].slice(0, 40));
    const fromHeader = nqueens('count', '12', '--checkpoint', file);
    expect([fromHeader.code, fromHeader.stderr]).toEqual([
      0,
      expect.stringContaining('its header was torn (cut short by a crash); it is written again'),
    ]);
    expect(fromHeader.stderr).not.toMatch(/resumed|runs again/);
    expect(lines(file)).toHaveLength(1 + header.to);
  });

  it.each([
    ['lines ended by \\r alone', (good: string[]) => good.slice(0, 20).join('\r') + '\r'],
    ['one whole JSON object', () => '{"format":"nqueens-checkpoint","x":1}'],
  ])('refuses, and leaves, a file of one line that is no torn header: %s', (_what, make) => {
    const whole = join(dir, 'whole-n11.ckpt');
    expect(nqueens('count', '11', '--checkpoint', whole).code).toBe(0);
    const file = join(dir, 'one-line.ckpt');
    const text = make(lines(whole));
    writeFileSync(file, text);
    // Before: taken for a torn header and written again (exit 0), its 19 recorded units lost.
    const r = nqueens('count', '11', '--checkpoint', file);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('one-line.ckpt is not a checkpoint cut short by a crash')]);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("writes each unit line's check as FNV-1a 32 in 8 hex digits, its leading zeros kept", () => {
    const file = join(dir, 'checks.ckpt');
    nqueens('count', '10', '--checkpoint', file);
    const [header, ...units] = lines(file).map(
      (text) => JSON.parse(text) as { plan: { digest: string }; unit: number; count: string; check: string },
    );
    const fnv1a32 = (text: string): string => {
      let h = 0x811c9dc5n;
      for (let i = 0; i < text.length; i++) h = ((h ^ BigInt(text.charCodeAt(i))) * 0x01000193n) & 0xffffffffn;
      return h.toString(16).padStart(8, '0');
    };
    const checks = units.map((u) => [u.unit, u.check]);
    expect(checks).toEqual(units.map((u) => [u.unit, fnv1a32(`${header.plan.digest}|${u.unit}|${u.count}`)]));
    expect(units.filter((u) => u.check.startsWith('0')).length).toBeGreaterThan(0);
  });

  it('refuses any other damage with its line number: a damaged middle line, an edited count, a unit outside the slice, a contradicting duplicate, an added field', () => {
    const file = join(dir, 'n10.ckpt');
    nqueens('count', '10', '--checkpoint', file);
    const good = lines(file);
    const { plan } = JSON.parse(good[0]);
    const line = (unit: number, count: string) => JSON.stringify({ unit, count, check: shortCheck(`${plan.digest}|${unit}|${count}`) });
    const cases: [string, string[], string][] = [
      [
        'torn middle line',
        [...good.slice(0, 3), good[3].slice(0, 10), ...good.slice(4)],
        'line 4: damaged (not JSON); only a torn last line can be dropped',
      ],
      [
        'edited count',
        [...good.slice(0, 5), good[5].replace(/"count":"(\d+)"/, '"count":"1$1"'), ...good.slice(6)],
        'line 6: fails its check (edited or damaged)',
      ],
      [
        'outside the slice',
        [...good, line(plan.units, '1')],
        `line ${good.length + 1}: unit ${plan.units} is not in this slice (units 0..${plan.units - 1})`,
      ],
      [
        'contradicting duplicate',
        [...good, line(0, String(BigInt(JSON.parse(good[1]).count) + 1n))],
        `line ${good.length + 1}: unit 0 again with count ${BigInt(JSON.parse(good[1]).count) + 1n}; line 2 said ${JSON.parse(good[1]).count}`,
      ],
      ['edited header', [good[0].replace('"n":10', '"n":11'), ...good.slice(1)], 'line 1 (the header) fails its check: edited or damaged'],
      [
        'a field added to a unit line',
        [...good.slice(0, 2), good[2].replace('{', '{"weight":8,'), ...good.slice(3)],
        'line 3: damaged (not a unit line)',
      ],
    ];
    for (const [what, text, message] of cases) {
      writeFileSync(file, text.join('\n') + '\n');
      const r = nqueens('count', '10', '--checkpoint', file);
      expect([what, r.code, r.stdout]).toEqual([what, 1, '']);
      expect(r.stderr.trim()).toBe(
        `nqueens: ${file}, ${message} [ERR_NQUEENS_BAD_CHECKPOINT]`.replace(`${file}, line 1 (the header)`, `${file}: line 1 (the header)`),
      );
    }
    // A duplicate with the same count is harmless.
    writeFileSync(file, [...good, good[1]].join('\n') + '\n');
    expect(nqueens('count', '10', '--checkpoint', file).stdout).toMatch(/^total\s+724$/m);
  });

  // Before, only the digest was compared: a header whose units or depth were edited, its check recomputed, was accepted.
  it.each([
    ['units', 906, 'depth 1, 906 units, digest DIGEST; that plan is 905 units, digest DIGEST'],
    ['depth', 2, 'depth 2, 905 units, digest DIGEST; that plan is 1591 units, digest 963e4f434bb03658'],
    ['depth', 0, 'depth 0, 905 units, digest DIGEST; that plan is 288 units, digest d3ed3df0f66a6618'],
  ])('refuses a header whose plan.%s was edited (%s) and its check recomputed, with or without --depth', (field, value, says) => {
    const file = join(dir, `n10-forged-${field}-${value}.ckpt`);
    nqueens('count', '10', '--depth', '1', '--checkpoint', file);
    const good = lines(file);
    const { check: _check, ...body } = JSON.parse(good[0]);
    expect(body.plan).toMatchObject({ method: 'search', depth: 1, units: 905 });
    const forged = { ...body, plan: { ...body.plan, [field]: value } };
    for (const depth of [[], ['--depth', '1']]) {
      writeFileSync(file, [JSON.stringify({ ...forged, check: shortCheck(JSON.stringify(forged)) }), ...good.slice(1)].join('\n') + '\n');
      const r = nqueens('count', '10', ...depth, '--checkpoint', file);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr.trim()).toBe(
        `nqueens: ${file}: line 1 (the header) says search, ${says.replaceAll('DIGEST', body.plan.digest)}: edited [ERR_NQUEENS_BAD_CHECKPOINT]`,
      );
    }
  });

  // Before, a header whose method or depth named no plan at all was resumed by its digest alone.
  it.each([
    ['depth', -1, 'search, depth -1'],
    ['depth', 0.5, 'search, depth 0.5'],
    ['depth', 99, 'search, depth 99'],
    ['depth', '1', 'search, depth 1'],
    ['method', 'bogus', 'bogus, depth 1'],
    ['method', 'toString', 'toString, depth 1'],
  ])('refuses a header whose plan.%s names no plan (%s), its check recomputed', (field, value, says) => {
    const file = join(dir, `n10-noplan-${field}-${String(value)}.ckpt`);
    nqueens('count', '10', '--depth', '1', '--checkpoint', file);
    const good = lines(file);
    const { check: _check, ...body } = JSON.parse(good[0]);
    const forged = { ...body, plan: { ...body.plan, [field]: value } };
    writeFileSync(file, [JSON.stringify({ ...forged, check: shortCheck(JSON.stringify(forged)) }), ...good.slice(1)].join('\n') + '\n');
    for (const depth of [[], ['--depth', '1']]) {
      const r = nqueens('count', '10', ...depth, '--checkpoint', file);
      expect([r.code, r.stdout, r.stderr.trim()]).toEqual([
        1,
        '',
        `nqueens: ${file}: line 1 (the header) says ${says}, which names no plan: edited [ERR_NQUEENS_BAD_CHECKPOINT]`,
      ]);
    }
  });

  it('refuses a header naming the join at n = 25 under the digest of the search plan count 25 makes', () => {
    const file = join(dir, 'n25-join-words.ckpt');
    nqueens('count', '10', '--checkpoint', file);
    const { check: _check, ...body } = JSON.parse(lines(file)[0]);
    const write = (plan: object): void => {
      const header = { ...body, n: 25, plan: { ...body.plan, ...plan } };
      writeFileSync(file, JSON.stringify({ ...header, check: shortCheck(JSON.stringify(header)) }) + '\n');
    };
    write({ method: 'join', depth: 0 });
    const other = nqueens('count', '25', '--checkpoint', file);
    expect(other.code).toBe(1);
    const digest = /this count uses search, depth \d+, digest ([0-9a-f]{16})/.exec(other.stderr)?.[1];
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    write({ method: 'join', depth: 0, digest });
    const r = nqueens('count', '25', '--checkpoint', file);
    expect([r.code, r.stdout, r.stderr.trim()]).toEqual([
      1,
      '',
      `nqueens: ${file}: line 1 (the header) says join, which makes no plan of n = 25, under the digest of this count's plan: edited [ERR_NQUEENS_BAD_CHECKPOINT]`,
    ]);
  });

  it('compares a unit recorded twice with its first line, and refuses more than 4096 units recorded twice', () => {
    const file = join(dir, 'n11-repeats.ckpt');
    expect(nqueens('count', '11', '--depth', '4', '--checkpoint', file).stdout).toMatch(/^total\s+2680$/m);
    const good = lines(file);
    const units = good.length - 1;
    expect(units).toBe(8391);
    // Unit 1 again, and again with another count than its first line's (a second pass reads that line).
    const { plan } = JSON.parse(good[0]);
    const { unit, count } = JSON.parse(good[2]);
    const edited = String(BigInt(count) + 1n);
    const line = JSON.stringify({ unit, count: edited, check: shortCheck(`${plan.digest}|${unit}|${edited}`) });
    writeFileSync(file, [...good, good[2], line].join('\n') + '\n');
    let r = nqueens('count', '11', '--checkpoint', file);
    expect(r.stderr.trim()).toBe(
      `nqueens: ${file}, line ${units + 3}: unit ${unit} again with count ${edited}; line ${units + 2} said ${count} [ERR_NQUEENS_BAD_CHECKPOINT]`,
    );
    writeFileSync(file, [...good, line].join('\n') + '\n');
    r = nqueens('count', '11', '--checkpoint', file);
    expect(r.stderr.trim()).toBe(
      `nqueens: ${file}, line ${units + 2}: unit ${unit} again with count ${edited}; line 3 said ${count} [ERR_NQUEENS_BAD_CHECKPOINT]`,
    );
    // 4096 units twice, with their counts, resume; 4097 are damage. The last unit among them: 8391 is no multiple of 8,
    // so it sits in the last, partly used byte of the slice's bitmap.
    writeFileSync(file, [...good, ...good.slice(1, 1 + 4095), good[units]].join('\n') + '\n');
    r = nqueens('count', '11', '--checkpoint', file);
    expect([r.code, r.stderr]).toEqual([0, `resumed from ${file}: ${units} of ${units} units were already done\n`]);
    expect(r.stdout).toMatch(/^total\s+2680$/m);
    writeFileSync(file, [...good, ...good.slice(1, 1 + 4097)].join('\n') + '\n');
    r = nqueens('count', '11', '--checkpoint', file);
    expect(r.stderr.trim()).toBe(
      `nqueens: ${file}, line ${units + 4098}: unit ${JSON.parse(good[4097]).unit} again, and more than 4096 units are recorded twice (edited or damaged) [ERR_NQUEENS_BAD_CHECKPOINT]`,
    );
  });

  it('refuses a checkpoint for another n, plan or version', () => {
    const file = join(dir, 'n11.ckpt');
    nqueens('count', '11', '--checkpoint', file);
    const r = nqueens('count', '12', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`nqueens: ${file} is a checkpoint for n = 11, not n = 12 [ERR_NQUEENS_BAD_CHECKPOINT]`);
    expect(nqueens('count', '11', '--checkpoint', file, '--depth', '3').stderr).toMatch(
      /was made with another plan \(search, depth \d, digest \w+\); this count uses search, depth 3/,
    );

    const [header, ...rest] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(header), version: '9.9.9' }), ...rest].join('\n'));
    expect(nqueens('count', '11', '--checkpoint', file).stderr).toMatch(
      /was written by nqueens-wasm 9.9.9 \(checkpoint format 2\); this is /,
    );
    writeFileSync(file, [JSON.stringify({ format: 'nqueens-checkpoint', formatVersion: 1 }), ...rest].join('\n'));
    expect(nqueens('count', '11', '--checkpoint', file).stderr).toMatch(
      /was written by an unknown version \(its "version" is missing\) \(checkpoint format 1\); this is /,
    );
  });

  async function startAndWait(args: string[], file: string, minLines: number) {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    let running = true;
    void exited.then(() => (running = false));
    while (running) {
      if (existsSync(file) && lines(file).length >= minLines) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { child, exited, stderr: () => stderr };
  }

  it('kill -9 in the middle of a count, then resume: the exact total', () => {
    const file = join(dir, 'n16-killed.ckpt');
    // Killed by itself at its first write of unit lines (test/fixtures/kill-at-checkpoint-lines.mjs). Before, the test
    // sent SIGKILL once a 20 ms poll saw 40 lines: n = 16 counts in 0.7 s here, and a faster machine could end first.
    const args = ['count', '16', '--algorithm', 'search', '--threads', '2', '--checkpoint', file];
    const killed = spawnSync(process.execPath, ['--import', killAtLines, cli, ...args], { cwd: dir, encoding: 'utf8' });
    expect([killed.signal, killed.stdout]).toEqual(['SIGKILL', '']); // killed, not finished: what follows is a resume
    const units = JSON.parse(lines(file)[0]).plan.units as number;
    const kept = lines(file).length - 1;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(units);
    const resumed = nqueens('count', '16', '--algorithm', 'search', '--checkpoint', file);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`resumed from .*: ${kept} of ${units} units were already done`));
    expect(resumed.stdout).toMatch(/^total\s+14772512$/m);
    expect(resumed.stdout).toMatch(/^unique\s+1846955$/m);
  });

  it('Ctrl-C stops a long count, keeps its finished units, and exits 130', async () => {
    const file = join(dir, 'n18.ckpt');
    const { child, exited, stderr } = await startAndWait(
      ['count', '18', '--algorithm', 'search', '--threads', '2', '--checkpoint', file],
      file,
      3,
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr()).toMatch(/interrupted; finished units are in .*n18.ckpt, run the same command to resume/);
    const kept = lines(file);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const line of kept.slice(1)) expect(JSON.parse(line)).toHaveProperty('count');
  });
});

describe('merge refuses a forger who recomputes each digest', () => {
  it('refuses shards whose plan digest is not this version’s, even when every shard agrees and each digest was recomputed', () => {
    const files = [0, 1].map((i) => {
      const file = join(dir, `join-${i}.json`);
      expect(nqueens('count', '12', '--algorithm', 'join', '--shard', `${i}/2`, '--out', file).code).toBe(0);
      const shard = readJson(file);
      shard.plan.digest = '0123456789abcdef';
      shard.digest = digestOf(shard);
      const forged = join(dir, `forged-${i}.json`);
      writeFileSync(forged, JSON.stringify(shard));
      return forged;
    });
    const r = nqueens('merge', ...files);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /forged-0\.json: its plan digest 0123456789abcdef \(\d+ units\) is not this version's plan for n = 12, the join .*\[ERR_NQUEENS_BAD_SHARD\]\n$/,
    );
  });

  it.each([
    ['a total that is no number', 'total', 'abc'],
    ['a unique8 that is no number', 'unique8', '1e3'],
    ['a total written as a JSON number', 'total', 724],
    ['a unique8 written as a JSON number', 'unique8', 736],
  ])('refuses a shard with %s, its digest recomputed, naming the file', (_what, key, value) => {
    const file = join(dir, 'whole-10.json');
    expect(nqueens('count', '10', '--shard', '0/1', '--out', file).code).toBe(0);
    const shard = readJson(file);
    shard[key] = value;
    shard.digest = digestOf(shard);
    const forged = join(dir, `forged-${key}.json`);
    writeFileSync(forged, JSON.stringify(shard));
    const r = nqueens('merge', forged);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`nqueens: ${forged} has no valid total/unique8 counts [ERR_NQUEENS_BAD_SHARD]\n`);
  });
});

describe('checkpoints as no count leaves them, and a later slice resumed', () => {
  it('refuses a last line no crash leaves: a unit id longer than any this program writes', () => {
    const file = join(dir, 'long-id.ckpt');
    expect(nqueens('count', '10', '--checkpoint', file).code).toBe(0);
    const text = readFileSync(file, 'utf8') + '{"unit":12345678901234567';
    writeFileSync(file, text);
    const lines = text.split('\n').length;
    const r = nqueens('count', '10', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      new RegExp(`long-id\\.ckpt, line ${lines}: damaged \\(not the beginning of a unit line, without a newline\\)`),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('a shard that does not start at unit 0, resumed from its finished checkpoint, counts nothing again', () => {
    const file = join(dir, 'shard-1-2.ckpt');
    const out = join(dir, 'shard-1-2.json');
    const first = nqueens('count', '12', '--shard', '1/2', '--out', out, '--checkpoint', file);
    expect(first.code).toBe(0);
    const total = readJson(out).total as string;
    const lines = readFileSync(file, 'utf8');
    const again = nqueens('count', '12', '--shard', '1/2', '--out', out, '--checkpoint', file);
    expect(again.code).toBe(0);
    // The total said on stdout is the file's (each finished unit once), and no unit was recorded again.
    expect(again.stdout).toMatch(
      new RegExp(`^shard 1/2 of n = 12: units \\d+\\.\\.\\d+ of \\d+ \\(depth \\d\\), total ${total}, written to `),
    );
    expect(again.stderr).toMatch(/resumed from .*: (\d+) of \1 units were already done/);
    expect(readFileSync(file, 'utf8')).toBe(lines);
    expect(readJson(out).total).toBe(total);
  });

  it('refuses a checkpoint of another slice, even one that holds only its header', () => {
    const file = join(dir, 'slice.ckpt');
    expect(nqueens('count', '12', '--shard', '0/2', '--out', join(dir, 'a.json'), '--checkpoint', file).code).toBe(0);
    const header = readFileSync(file, 'utf8').split('\n', 1)[0];
    writeFileSync(file, header + '\n');
    const r = nqueens('count', '12', '--shard', '1/2', '--out', join(dir, 'b.json'), '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /slice\.ckpt is a checkpoint for shard 0\/2 \(units 0\.\.\d+\), not 1\/2 \(units \d+\.\.\d+\) \[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/,
    );
    expect(readFileSync(file, 'utf8')).toBe(header + '\n'); // left as it was
  });

  it('refuses a line longer than 4 KB, even a unit line that is valid JSON with its check', () => {
    const file = join(dir, 'long-line.ckpt');
    expect(nqueens('count', '10', '--checkpoint', file).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // JSON.parse takes the spaces; only the length says it is no line this program wrote.
    lines[2] = lines[2].replace('{', '{' + ' '.repeat(5000));
    writeFileSync(file, lines.join('\n') + '\n');
    const r = nqueens('count', '10', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/long-line\.ckpt, line 3: damaged \(longer than any checkpoint line\) \[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/);
    // The same line last, without a newline: refused as too long too, not read on past the buffer.
    writeFileSync(file, lines.slice(0, 3).join('\n'));
    const torn = nqueens('count', '10', '--checkpoint', file);
    expect([torn.code, torn.stdout, torn.stderr]).toEqual([
      1,
      '',
      `nqueens: ${file}, line 3: damaged (longer than any checkpoint line) [ERR_NQUEENS_BAD_CHECKPOINT]\n`,
    ]);
  });
});
