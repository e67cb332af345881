// Saved counts that carry valid checks but that no count can give are
// refused wherever saved counts are added up (count --checkpoint on resume
// and at the end, merge), with the file's name and the reason; and the
// bound each unit's count is held to is never below a real count.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardResult } from '../../dist/cli/shards.js';
import { methodForCount, plannedMethod, recounter } from '../../dist/run/methods.js';
import { classesTimesEight, countSymmetricSolutions } from '../../dist/shared/symmetric-solutions.js';
import { constellationPlan } from '../plans.js';
import { shortCheck } from '../../dist/shared/digest.js';
import { cliInTempDir, readJson } from '../cli-in-dir.js';
import { range, TOTAL, UNIQUE } from '../oeis.js';

const MAX_U64 = (1n << 64n) - 1n;

/** A checkpoint's lines with one unit's count replaced, its line check recomputed as the program would. */
function forgeCheckpoint(file: string, unit: number, count: (old: bigint) => bigint): void {
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const digest = JSON.parse(header).plan.digest as string;
  const forged = lines.map((line) => {
    const entry = JSON.parse(line) as { unit: number; count: string };
    if (entry.unit !== unit) return line;
    const text = String(count(BigInt(entry.count)));
    return JSON.stringify({ unit, count: text, check: shortCheck(`${digest}|${unit}|${text}`) });
  });
  writeFileSync(file, [header, ...forged].join('\n') + '\n');
}

describe('sealed but impossible checkpoints', () => {
  const { dir, nqueens } = cliInTempDir('nqueens-impossible-');

  /** A finished search checkpoint of n = 10, and the fixes unit of its first symmetric constellation. */
  function searchCheckpoint(name: string): { file: string; fixesUnit: number; stabiliser: number } {
    const file = join(dir, name);
    expect(nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file).code).toBe(0);
    const depth = JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]).plan.depth as number;
    const plan = constellationPlan(10, depth);
    const i = plan.constellations.findIndex((s) => s.symmetries !== 0);
    return { file, fixesUnit: plan.span(i).fixesUnit, stabiliser: plan.constellations[i].stabiliser };
  }

  it('fixes that contradict the symmetry rules: refused, not printed with unique 0', () => {
    const { file, fixesUnit, stabiliser } = searchCheckpoint('fixes.ckpt');
    forgeCheckpoint(file, fixesUnit, (fixes) => fixes + 1n); // solutions + fixes no longer divide by the stabiliser
    expect(stabiliser).toBeGreaterThan(1);
    const r = nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/which no count can give/);
  });

  it('a count above what its unit can hold (2^64 - 1): refused on resume, naming the line', () => {
    const { file } = searchCheckpoint('huge.ckpt');
    forgeCheckpoint(file, 0, () => MAX_U64);
    const r = nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`${file.replace(/[.]/g, '\\.')}, line \\d+: unit 0 records ${MAX_U64} solutions, more than it can hold`),
    );
  });

  it('a join total that Burnside turns into no whole number of classes: refused', () => {
    const file = join(dir, 'join.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'join', '--checkpoint', file).code).toBe(0);
    forgeCheckpoint(file, 0, (count) => count + 1n);
    const r = nqueens('count', '10', '--algorithm', 'join', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Burnside's lemma gives no whole number of classes/);
  });
});

describe('sealed but impossible shards', () => {
  it('merge refuses a re-digested shard whose unit count is above what the unit can hold', () => {
    const { dir, nqueens } = cliInTempDir('nqueens-impossible-shard-');
    const files = [0, 1].map((i) => join(dir, `s${i}.json`));
    files.forEach((file, i) => expect(nqueens('count', '12', '--algorithm', 'join', '--shard', `${i}/2`, '--out', file).code).toBe(0));
    const s1 = readJson(files[1]);
    const counts = (s1.counts as string[]).map(BigInt);
    counts[0] = 1n << 40n; // the shard's total stays below 2^64, so only the unit's bound can tell
    const run = { engine: 'wasm', threads: 1, elapsedMs: 1 };
    writeFileSync(files[1], JSON.stringify(shardResult(plannedMethod('join', 12, 0), { index: 1, count: 2 }, s1, counts, run)));
    const r = nqueens('merge', ...files);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${files[1]}: unit ${s1.from} records ${1n << 40n} solutions, more than it can hold (at most 518400)`);
  });
});

describe('sealed but inconsistent search shards', () => {
  const { dir, nqueens } = cliInTempDir('nqueens-inconsistent-shard-');
  const files = [0, 1].map((i) => join(dir, `s${i}.json`));
  files.forEach((file, i) => expect(nqueens('count', '12', '--algorithm', 'search', '--shard', `${i}/2`, '--out', file).code).toBe(0));
  const plan = plannedMethod('search', 12, readJson(files[0]).plan.depth);
  /** Shard 1 sealed anew by a plan that adds `extra` to its first unit's unique8 (a faulty machine's sum, re-digested). */
  function reseal(extra: bigint): void {
    const s1 = readJson(files[1]);
    const lying = Object.create(plan, {
      contribution: {
        value: (id: number, count: bigint) => {
          const c = plan.contribution(id, count);
          return id === s1.from ? { ...c, unique8: c.unique8 + extra } : c;
        },
      },
    });
    const run = { engine: 'wasm', threads: 1, elapsedMs: 1 };
    writeFileSync(files[1], JSON.stringify(shardResult(lying, { index: 1, count: 2 }, s1, (s1.counts as string[]).map(BigInt), run)));
  }

  it('merge refuses a shard whose unique8 is not what its counts give, even one still divisible by 8', () => {
    reseal(8n);
    const r = nqueens('merge', ...files);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/s1\.json: its total \d+ and unique8 \d+ are not what its counts add up to/);
  });

  it('merge refuses a last shard that says it runs past the plan, its extra unit counted as 0', () => {
    const s1 = readJson(files[1]);
    const counts = [...(s1.counts as string[]).map(BigInt), 0n];
    const run = { engine: 'wasm', threads: 1, elapsedMs: 1 };
    writeFileSync(files[1], JSON.stringify(shardResult(plan, { index: 1, count: 2 }, { from: s1.from, to: s1.to + 1 }, counts, run)));
    const r = nqueens('merge', ...files);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(
      `s1.json says it is shard 1/2 with units ${s1.from}..${s1.to}, but shard 1/2 of this plan is units ${s1.from}..${s1.to - 1}`,
    );
  });

  it('the fixes of a symmetric constellation above what its solutions allow, though divisible: refused', () => {
    const file = join(dir, 'fixes-above.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file).code).toBe(0);
    const depth = JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]).plan.depth as number;
    const ten = constellationPlan(10, depth);
    const i = ten.constellations.findIndex((s) => s.symmetries !== 0);
    const h = BigInt(ten.constellations[i].stabiliser);
    const { fixesUnit, first } = ten.span(i);
    const solutions = range(first, fixesUnit - 1).reduce((sum, id) => sum + BigInt(unitCount(file, id)), 0n);
    // At most h - 1 symmetries fix each solution; add h at a time, so (solutions + fixes) still divides by h.
    forgeCheckpoint(file, fixesUnit, (fixes) => {
      let forged = fixes + h;
      while (forged <= (h - 1n) * solutions) forged += h;
      return forged;
    });
    const r = nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      new RegExp(
        `unit ${fixesUnit} \\(the fixes of constellation ${i}, stabiliser ${h}\\) records \\d+ fixes for ${solutions} solutions, which no count can give`,
      ),
    );
  });

  it('fixes above (h - 1) x solutions but at most h x solutions, divisible: refused, not a wrong unique', () => {
    const file = join(dir, 'fixes-just-above.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file).code).toBe(0);
    const depth = JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]).plan.depth as number;
    const ten = constellationPlan(10, depth);
    const solutionsOf = (i: number): bigint => {
      const { fixesUnit, first } = ten.span(i);
      return range(first, fixesUnit - 1).reduce((sum, id) => sum + BigInt(unitCount(file, id)), 0n);
    };
    // A symmetric constellation with solutions: the range ((h - 1) x s, h x s] then holds a count that divides.
    const i = ten.constellations.findIndex((s, k) => s.symmetries !== 0 && solutionsOf(k) >= BigInt(s.stabiliser));
    expect(i).toBeGreaterThanOrEqual(0);
    const h = BigInt(ten.constellations[i].stabiliser);
    const solutions = solutionsOf(i);
    let forged = h * solutions;
    while ((solutions + forged) % h !== 0n) forged--;
    expect(forged).toBeGreaterThan((h - 1n) * solutions);
    const { fixesUnit } = ten.span(i);
    forgeCheckpoint(file, fixesUnit, () => forged);
    const r = nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(
      `unit ${fixesUnit} (the fixes of constellation ${i}, stabiliser ${h}) records ${forged} fixes for ${solutions} solutions, which no count can give`,
    );
  });

  it('a fixes unit may record at most 7 x (n - 2)!: one more is refused on resume', () => {
    const file = join(dir, 'fixes-bound.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file).code).toBe(0);
    const depth = JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]).plan.depth as number;
    const ten = constellationPlan(10, depth);
    const { fixesUnit } = ten.span(ten.constellations.findIndex((s) => s.symmetries !== 0));
    const most = 7n * 40320n; // 7 x 8!
    forgeCheckpoint(file, fixesUnit, () => most + 1n);
    const r = nqueens('count', '10', '--algorithm', 'search', '--checkpoint', file);
    expect(r.stderr).toMatch(new RegExp(`unit ${fixesUnit} records ${most + 1n} solutions, more than it can hold \\(at most ${most}\\)`));
  });
});

/** The count a checkpoint records for a unit. */
function unitCount(file: string, unit: number): string {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((text) => (text ? (JSON.parse(text) as { unit: number; count: string }) : undefined))
    .find((entry) => entry?.unit === unit);
  if (!line) throw new Error(`no line for unit ${unit} in ${file}`);
  return line.count;
}

describe('the rules every real count passes', () => {
  // Before, the join's Burnside check left out the reflections, which fix the one board of n = 1:
  // `count 1 --algorithm join --checkpoint F` and a merge of its shard were refused as impossible.
  it('n = 1 to 21: the exact total is 8 x the unique count by Burnside', () => {
    const eight = range(1, 21).map((n) => classesTimesEight(n, TOTAL[n], countSymmetricSolutions(n)));
    expect(eight).toEqual(range(1, 21).map((n) => 8n * UNIQUE[n]));
  });

  it('n = 1: the join accepts the exact total', () => {
    expect(methodForCount(1, 'join', 1).checkParts(1n, 0n, () => ({ name: '', count: 0n }))).toBeUndefined();
  });

  it('n = 1 with the join: any other total is refused', () => {
    expect(methodForCount(1, 'join', 1).checkParts(0n, 0n, () => ({ name: '', count: 0n }))).toMatch(/no whole number of classes/);
  });

  it.each(['join', 'search'])('n = 1, --algorithm %s: a checkpointed count and a merged shard give 1 and 1', (algorithm) => {
    const { nqueens } = cliInTempDir('nqueens-one-');
    const counted = nqueens('count', '1', '--algorithm', algorithm, '--checkpoint', 'one.ckpt', '--json');
    expect([counted.code, counted.stderr]).toEqual([0, '']);
    expect(JSON.parse(counted.stdout)).toMatchObject({ n: 1, total: '1', unique: '1' });
    expect(nqueens('count', '1', '--algorithm', algorithm, '--shard', '0/1', '--out', 'one.json').code).toBe(0);
    const merged = nqueens('merge', 'one.json', '--json');
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(JSON.parse(merged.stdout)).toMatchObject({ n: 1, total: '1', unique: '1' });
  });
});

describe('the bound on a unit count', () => {
  it.each(range(4, 11))('n = %i: no real unit count is above it (search at depths 0..2, and the join)', (n) => {
    const methods = [0, 1, 2].map((depth) => plannedMethod('search', n, depth)).concat([methodForCount(n, 'join', 1)]);
    for (const method of methods) {
      const recount = recounter(method, 'wasm');
      const over = range(0, method.units - 1).filter((id) => recount(id) > method.maxCount(id));
      expect([method.identity.method, method.identity.depth, over]).toEqual([method.identity.method, method.identity.depth, []]);
    }
  });

  it('n = 10: a search solutions unit at depth d leaves 8 - d rows open, so it is held to (8 - d)!', () => {
    // A looser bound (the whole (n - 2)! at every depth) let a forged deep-unit count through.
    const bounds = [0, 1, 2, 3, 4].map((depth) => plannedMethod('search', 10, depth).maxCount(0));
    expect(bounds).toEqual([40320n, 5040n, 720n, 120n, 24n]);
  });
});
