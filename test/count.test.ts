// Every engine against the OEIS tables, through the public API.
import { describe, expect, it } from 'vitest';
import { count, countSync } from 'nqueens-wasm';
import { range, TOTAL, UNIQUE } from './oeis.js';

// The reference engine is plain array backtracking: n = 14 alone takes ~11 s,
// n = 15 over a minute (that one is in test/long/).
const ENGINES = [
  { engine: 'wasm', upTo: 16 },
  { engine: 'js', upTo: 16 },
  { engine: 'reference', upTo: 14 },
] as const;

describe.each(ENGINES)('engine $engine', ({ engine, upTo }) => {
  it.each(range(1, upTo))(`countSync(%i) matches A000170 and A002562`, (n) => {
    const r = countSync(n, { engine });
    expect(r).toMatchObject({ n, total: TOTAL[n], unique: UNIQUE[n], engine });
    expect(typeof r.elapsedMs).toBe('number');
  });

  it('count() resolves to the same result as countSync()', async () => {
    const sync = countSync(11, { engine });
    const r = await count(11, { engine });
    const same = (x: typeof sync) => ({ n: x.n, total: x.total, unique: x.unique, engine: x.engine, algorithm: x.algorithm });
    expect(same(r)).toEqual(same(sync));
    expect(same(sync)).toMatchObject({ n: 11, total: 2680n, unique: 341n, engine });
  });
});

describe('auto engine', () => {
  it('uses wasm where WebAssembly works', async () => {
    const r = await count(10);
    expect(r).toMatchObject({ total: 724n, unique: 92n, engine: 'wasm' });
  });

  it('countSync says the engine that ran, not the choice: wasm where WebAssembly works', () => {
    expect(countSync(10)).toMatchObject({ total: 724n, unique: 92n, engine: 'wasm', threads: 1 });
    expect(countSync(10, { engine: 'auto' })).toMatchObject({ total: 724n, unique: 92n, engine: 'wasm', threads: 1 });
  });

  it('returns exact bigints', () => {
    const r = countSync(8);
    expect(typeof r.total).toBe('bigint');
    expect(typeof r.unique).toBe('bigint');
  });
});
