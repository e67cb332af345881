// The join's memory: a wasm instance that cannot grow fails with a coded
// error instead of a count, and units that are not splits of n are refused
// before they reach the kernel (either would otherwise read past its tables).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../dist/index.js';
import { joinCounterFrom } from '../../dist/join/join-counter.js';
import { compileJoinModule, joinCounter } from '../join-module.js';
import { planJoin } from '../plans.js';
import { QUARTER_CACHE_BYTES } from '../../dist/join/join-plan.js';
import { TOTAL } from '../oeis.js';

describe('the join out of memory', () => {
  it.each(['simd', 'baseline'] as const)('%s: memory that cannot grow is ERR_NQUEENS_OUT_OF_MEMORY, and the counter recovers', (build) => {
    let askTooMuch = true;
    // Room for 2^26 half-boards a side: past 4 GiB, so the instance's memory cannot hold it.
    const counter = joinCounterFrom('wasm', compileJoinModule(build), QUARTER_CACHE_BYTES, (n) => (askTooMuch ? 2 ** 26 : 2 ** n));
    const [unit] = planJoin(12);
    let error: unknown;
    try {
      counter.countUnit(12, unit);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({ code: ERROR_CODES.OUT_OF_MEMORY, message: expect.stringMatching(/^join: n = 12 ran out of memory/) });
    expect((error as Error).cause).toBeInstanceOf(WebAssembly.RuntimeError);
    askTooMuch = false;
    let total = 0n;
    for (const u of planJoin(12)) total += BigInt(u.weight) * counter.countUnit(12, u);
    expect(total).toBe(TOTAL[12]);
  });

  it.each([
    ['rows past the board', { id: 0, eastRows: 0x7fffff00, centreRow: -1, weight: 1, mirrorWeight: 1 }],
    ['too few east rows', { id: 0, eastRows: 0b1111, centreRow: -1, weight: 1, mirrorWeight: 1 }],
    ['h east rows, one of them past the board', { id: 0, eastRows: 0xff << 9, centreRow: -1, weight: 1, mirrorWeight: 1 }],
    ['a centre row on an even board', { id: 0, eastRows: 0xff, centreRow: 3, weight: 1, mirrorWeight: 1 }],
    ['a negative row set', { id: 0, eastRows: -1, centreRow: -1, weight: 1, mirrorWeight: 1 }],
  ])('a unit with %s is refused on both engines before it is counted', (_, unit) => {
    for (const engine of ['wasm', 'js'] as const) {
      expect(() => joinCounter(engine).countUnit(16, unit)).toThrow(/is not a row split of n = 16/);
    }
  });

  it('odd n: the centre row must be a row of the board outside the east rows', () => {
    const [unit] = planJoin(13);
    for (const centreRow of [-1, 13, unit.eastRows.toString(2).length - 1]) {
      expect(() => joinCounter('wasm').countUnit(13, { ...unit, centreRow })).toThrow(/is not a row split of n = 13/);
    }
    expect(joinCounter('wasm').countUnit(13, unit)).toBe(joinCounter('js').countUnit(13, unit));
  });
});
