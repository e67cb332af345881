// planUnits(n) is the plan count(n) runs, so shards, checkpoints and
// subtotals of a default run agree with it: the join's from n = 16, the
// search's below, and the search's wherever a depth is asked for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, MAX_DEPTH, planUnits } from '../dist/index.js';
import { Digest, digest } from '../dist/shared/digest.js';
import { makesPlan, methodForCount, planLabel, plannedMethod, recordedPlan, resolveAlgorithm } from '../dist/run/methods.js';
import { cliInTempDir } from './cli-in-dir.js';
import { range } from './oeis.js';

describe('planUnits', () => {
  it.each(range(1, 25))('n = %i: the plan count(n) runs with its defaults', (n) => {
    const algorithm = resolveAlgorithm(n, 'auto', 'auto');
    const plan = planUnits(n);
    expect([plan.algorithm, plan.method, plan.digest]).toEqual([algorithm, algorithm, methodForCount(n, algorithm, 2).identity.digest]);
    expect(algorithm).toBe(n >= 16 && n <= 24 ? 'join' : 'search');
    // The join's unique count follows from the whole total (Burnside): it comes with the last unit.
    expect(plan.uniqueWithLastUnit).toBe(n >= 16 && n <= 24);
  });

  it.each(range(1, 14))('n = %i: largestUnitShare is a share, 0 to 1, on both methods (0 where a plan has no units)', (n) => {
    for (const algorithm of ['search', 'join'] as const) {
      const plan = planUnits(n, { algorithm });
      const share = plan.largestUnitShare;
      if (plan.units === 0) expect([n, algorithm, share]).toEqual([n, algorithm, 0]);
      else expect(share > 0 && share <= 1).toBe(true);
    }
  });

  // The units are counted without being made (the last two rows from their free squares): as many as unitsIn() makes.
  it.each(range(1, 13))('n = %i: the search plan at each depth 0..4 has as many units as it yields', (n) => {
    for (const depth of range(0, 4)) {
      const plan = planUnits(n, { algorithm: 'search', depth });
      let made = 0;
      for (const unit of plan.unitsIn()) expect(unit.id).toBe(made++);
      expect([depth, plan.units]).toEqual([depth, made]);
    }
  });

  // A `to` inside a constellation's units (depth 1 and up) ends the range there: the unit `to` is the next range's.
  it.each([1, 2])('n = 11 at depth %i: unitsIn(from, to) yields exactly the units from..to-1, for every cut', (depth) => {
    const plan = planUnits(11, { algorithm: 'search', depth });
    for (let to = 0; to <= plan.units; to++) {
      const from = Math.max(0, to - 3);
      expect([to, [...plan.unitsIn(from, to)].map((u) => u.id)]).toEqual([to, range(from, to - 1)]);
    }
  });

  it('counts the units of deep plans as before (n = 20 at depth 4, n = 17 at depth 2: their pinned digests)', () => {
    expect(planUnits(20, { algorithm: 'search', depth: 4 })).toMatchObject({ units: 66_564_327, digest: '9ac7428bb941f906' });
    expect(planUnits(17, { algorithm: 'search', depth: 2 })).toMatchObject({ units: 307_032, digest: '123a564a923bca1a' });
  });

  it("uniqueWithLastUnit says which plans' unique count comes only at the end", () => {
    expect([planUnits(16, { algorithm: 'search' }).uniqueWithLastUnit, planUnits(12, { algorithm: 'join' }).uniqueWithLastUnit]).toEqual([
      false,
      true,
    ]);
  });

  it('a depth means the search; the join has none', () => {
    expect(planUnits(16, { depth: 1 })).toMatchObject({ algorithm: 'search', method: 'search', depth: 1 });
    expect(() => planUnits(16, { algorithm: 'join', depth: 1 })).toThrow(RangeError);
    expect(planUnits(16, { algorithm: 'search' }).algorithm).toBe('search');
    // Depth 0 is the one the join's plan has, as its message says ("must be 0 or undefined").
    expect(planUnits(16, { algorithm: 'join', depth: 0 })).toMatchObject({ algorithm: 'join', digest: planUnits(16).digest });
  });

  it.each([1, 2, 4, 7])(
    'shard(index, %i): index from 0 to shards - 1, each a range, together the plan; shards itself a RangeError',
    (m) => {
      const plan = planUnits(12);
      const ranges = range(0, m - 1).map((i) => plan.shard(i, m));
      expect(ranges[0].from).toBe(0);
      expect(ranges[m - 1].to).toBe(plan.units);
      for (let i = 1; i < m; i++) expect(ranges[i].from).toBe(ranges[i - 1].to);
      for (const i of [m, -1, 0.5]) {
        const message = `index must be an integer from 0 to ${m - 1}; got ${i}`;
        expect(() => plan.shard(i, m)).toThrow(expect.objectContaining({ name: 'RangeError', message }));
      }
    },
  );

  it('shard(index, shards) names its arguments as the docs do, not `count` (the function)', () => {
    const plan = planUnits(12);
    expect(() => plan.shard(0, 0)).toThrow(
      expect.objectContaining({ name: 'RangeError', message: 'shards must be an integer from 1 to 9007199254740991; got 0' }),
    );
    expect(() => plan.shard(0, '2' as never)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringMatching(/^shards /) }),
    );
  });

  // Before, the join's plan answered a depth of the wrong type with a RangeError ("must be 0 or undefined").
  it.each(['1', null, 1n, true])('depth %s with the join: a coded TypeError, as with the search', (depth) => {
    const expected = expect.objectContaining({
      name: 'TypeError',
      code: ERROR_CODES.INVALID_TYPE,
      message: expect.stringMatching(/^options\.depth /),
    });
    expect(() => planUnits(16, { algorithm: 'join', depth } as never)).toThrow(expected);
    expect(() => planUnits(12, { algorithm: 'search', depth } as never)).toThrow(expected);
  });

  it.each([12, 16])('n = %i: a default count --checkpoint records the plan planUnits(n) names', (n) => {
    const { dir, nqueens } = cliInTempDir('nqueens-plan-');
    expect(nqueens('count', String(n), '--checkpoint', 'c.ckpt').code).toBe(0);
    const header = JSON.parse(readFileSync(join(dir, 'c.ckpt'), 'utf8').split('\n', 1)[0]);
    const plan = planUnits(n);
    // Files label a plan with its algorithm, as PlanInfo.method does.
    expect(header.plan).toEqual({ method: plan.algorithm, depth: plan.depth, units: plan.units, digest: plan.digest });
  });
});

describe('the costliest plans and digests, as main made them', () => {
  it("planUnits(32, { depth: 4 }): 14,476,169,223 units (counted a row up, they took 9 s), and n = 27's", () => {
    expect(planUnits(32, { depth: 4 })).toMatchObject({ n: 32, depth: 4, units: 14_476_169_223, digest: 'def7a581a47dbbdb' });
    expect(planUnits(27, { depth: 4 })).toMatchObject({ n: 27, depth: 4, units: 2_303_598_022, digest: 'ff1f68c724380bfc' });
  });

  it('the digest is FNV-1a 64 over UTF-16 code units: the published vectors, and code units past a byte', () => {
    const vectors = {
      '': 'cbf29ce484222325',
      a: 'af63dc4c8601ec8c',
      foobar: '85944171f73967e8',
      'n = 23 \u00e9\uffff\u0100': 'fcdb0ec7abb1e045',
      // Halves that begin with 0: still 8 hex digits each, 16 in all.
      'unit 0': '0ee9429112ee5a6f',
      'unit 400': 'a2fd90e2036d0d1b',
    };
    for (const [text, hex] of Object.entries(vectors)) expect([text, digest(text)]).toEqual([text, hex]);
    expect(new Digest().update('foo').update('bar').hex()).toBe(vectors.foobar);
  });
});

describe('plans as files record them', () => {
  it("reads each algorithm's label, the search's old 'constellations' among them, and refuses what no plan is", () => {
    expect(recordedPlan({ method: 'search', depth: 3 })).toEqual({ algorithm: 'search', depth: 3 });
    expect(recordedPlan({ method: 'constellations', depth: 3 })).toEqual({ algorithm: 'search', depth: 3 });
    expect(recordedPlan({ method: 'join', depth: 0 })).toEqual({ algorithm: 'join', depth: 0 });
    for (const bad of [
      { method: 'join', depth: 1 },
      { method: 'constellations', depth: 5 },
      { method: 'search', depth: 5 },
      { method: 'search', depth: -1 },
      { method: 'completions', depth: 0 },
      { method: 'toString', depth: 0 },
      {},
      undefined,
    ])
      expect(recordedPlan(bad)).toBeUndefined();
    expect([makesPlan('join', 24), makesPlan('join', 25), makesPlan('search', 30)]).toEqual([true, false, true]);
    expect([planLabel(planUnits(16)), planLabel(planUnits(12))]).toEqual(['join', `depth ${planUnits(12).depth}`]);
  });
});

describe('plans made for slices and read from headers', () => {
  it("a slice's work is its own units' (the progress of shard 0 of a join count), not the whole plan's", () => {
    const plan = plannedMethod('join', 12, 0);
    let work = 0;
    for (let id = 0; id < 10; id++) work += plan.workOf(id);
    expect(plan.workIn(0, 10)).toBeCloseTo(work, 9);
    expect(plan.workIn(0, 10)).toBeLessThan(plan.workIn(0, plan.units));
  });

  it('a recorded plan deeper than MAX_DEPTH is none this version makes (an edited header is not planned at depth 9)', () => {
    expect(recordedPlan({ method: 'search', depth: MAX_DEPTH })).toEqual({ algorithm: 'search', depth: MAX_DEPTH });
    expect(recordedPlan({ method: 'search', depth: MAX_DEPTH + 1 })).toBeUndefined();
    expect(recordedPlan({ method: 'join', depth: 1 })).toBeUndefined();
  });
});
