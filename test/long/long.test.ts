// The long checks, kept out of `npm test`: run with `npm run test:long`
// (several minutes on 2 cores). Every engine past the default range.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { count } from 'nqueens-wasm';
import { joinPlan, unitOf } from '../plans.js';
import { countSymmetricSolutions, joinCounter, searchSymmetricSolutions, uniqueFromTotal } from '../join-module.js';
import { joinUnitByRows } from '../brute-force.js';
import { TOTAL, UNIQUE } from '../oeis.js';

const threads = availableParallelism();

describe('long counts against OEIS A000170 / A002562', () => {
  describe.each(['search', 'join'] as const)('algorithm %s', (algorithm) => {
    it.each([17, 18, 19])(`wasm, ${threads} threads: n = %i`, async (n) => {
      const r = await count(n, { engine: 'wasm', algorithm, threads });
      expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], engine: 'wasm', algorithm });
    });

    it(`js, ${threads} threads: n = 17`, async () => {
      const r = await count(17, { engine: 'js', algorithm, threads });
      expect(r).toMatchObject({ total: TOTAL[17], unique: UNIQUE[17], engine: 'js', algorithm });
    });
  });

  // n = 20: the join's quarter tables (59 MB in all) outgrow a generation (32 MiB), so tables are dropped and
  // rebuilt during the count; every worker's count must still add up.
  // n = 21: 970,288 units, about 10 minutes on 2 cores of the EPYC VM (2026-11-26); with other programs on both cores
  // it ran past the config's 30 minutes twice (2026-11-29), so its limit is 2 hours: a guard against a hang, not a
  // measure of speed.
  it.each([20, 21])(
    `join, wasm, ${threads} threads: n = %i`,
    async (n) => {
      const r = await count(n, { engine: 'wasm', algorithm: 'join', threads });
      expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], engine: 'wasm', algorithm: 'join', threads });
    },
    7_200_000,
  );

  it.each([15])('reference: n = %i', async (n) => {
    const r = await count(n, { engine: 'reference' });
    expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], engine: 'reference' });
  });
});

// Past what can be counted whole here (n = 23: ~53 h of one core): units against a row-by-row count of the same
// split, on both engines. The brute force takes about 2.5 min for n = 24's unit 670,000.
describe('join units past a whole count', () => {
  it.each([
    [23, [4050000, 4000000, 3900000]],
    [24, [677000, 670000]],
  ])('n = %i: units %j match a row-by-row count, on wasm and js', (n, ids) => {
    const plan = joinPlan(n);
    for (const id of ids) {
      const unit = unitOf(plan, id);
      const expected = joinUnitByRows(n, unit);
      expect(expected).toBeGreaterThan(0n);
      for (const engine of ['wasm', 'js'] as const)
        expect([n, id, engine, joinCounter(engine).countUnit(n, unit)]).toEqual([n, id, engine, expected]);
    }
  });
});

// The table of symmetric counts past the default tests' reach (the search takes 4 s at n = 22, half a minute at 24).
it.each([22, 23, 24])('n = %i: the search agrees with the table of symmetric counts, and Burnside gives OEIS unique', (n) => {
  const symmetric = searchSymmetricSolutions(n);
  expect(symmetric).toEqual(countSymmetricSolutions(n));
  expect(uniqueFromTotal(n, TOTAL[n], symmetric)).toBe(UNIQUE[n]);
});
