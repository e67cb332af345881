// The long checks, kept out of `npm test`: run with `npm run test:long`
// (several minutes on 2 cores). Every engine past the default range.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { count } from '../../dist/index.js';
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
  it(`join, wasm, ${threads} threads: n = 20`, async () => {
    const r = await count(20, { engine: 'wasm', algorithm: 'join', threads });
    expect(r).toMatchObject({ total: TOTAL[20], unique: UNIQUE[20], engine: 'wasm', algorithm: 'join' });
  });

  it.each([15])('reference: n = %i', async (n) => {
    const r = await count(n, { engine: 'reference' });
    expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], engine: 'reference' });
  });
});
