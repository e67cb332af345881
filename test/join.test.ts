// The half-board join: exact against OEIS and the search on both engines,
// deterministic units, and the memory limit.
import { describe, expect, it } from 'vitest';
import { countSync } from '../dist/index.js';
import {
  checkJoinSize,
  compileJoinModule,
  countJoin,
  countSymmetricSolutions,
  joinCounter,
  joinMemoryBytes,
  JOIN_MAX_N,
  JOIN_MEMORY_LIMIT,
  planJoin,
  searchSymmetricSolutions,
} from '../dist/join.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

describe.each(['wasm', 'js'] as const)('join on %s', (engine) => {
  it.each(range(1, 16))('n = %i: total and unique match OEIS', (n) => {
    const { total, unique } = countJoin(n, engine);
    expect(total).toBe(TOTAL[n]);
    expect(unique).toBe(UNIQUE[n]);
  });

  it.each([6, 9, 11, 13])('n = %i: every unit times its weight adds up to the search', (n) => {
    const counter = joinCounter(engine);
    let total = 0n;
    for (const unit of planJoin(n)) total += BigInt(unit.weight) * counter.countUnit(n, unit);
    expect(total).toBe(countSync(n).total);
  });
});

describe('join units', () => {
  it('the plan is deterministic, numbered in order, and weights cover every split', () => {
    for (const n of [8, 9, 12, 13]) {
      const plan = planJoin(n);
      expect(planJoin(n)).toEqual(plan);
      expect(plan.map((u) => u.id)).toEqual(range(0, plan.length - 1));
      // Even n: C(n, n/2) splits; odd n: n centre rows times C(n-1, (n-1)/2).
      const binomial = (a: number, b: number): number => (b === 0 ? 1 : (binomial(a - 1, b - 1) * a) / b);
      const splits = n % 2 === 0 ? binomial(n, n / 2) : n * binomial(n - 1, (n - 1) / 2);
      // A unit with mirrorWeight 2 also counts its east-west mirror, a class of the same size.
      const covered = (u: { weight: number; mirrorWeight: number }): number => u.weight * (u.mirrorWeight === 2 ? 2 : 1);
      expect(plan.reduce((s, u) => s + covered(u), 0)).toBe(splits);
      expect(plan.every((u) => u.mirrorWeight === 1 || u.mirrorWeight === 2)).toBe(true);
    }
  });

  it('unit counts agree between engines and builds, and repeat', () => {
    const n = 14;
    const counters = [joinCounter('js'), joinCounter('wasm'), joinCounter('wasm', compileJoinModule('baseline'))];
    for (const unit of planJoin(n).slice(0, 40)) {
      const counts = counters.map((c) => c.countUnit(n, unit));
      expect(new Set(counts).size).toBe(1);
      expect(counters[1].countUnit(n, unit)).toBe(counts[0]);
    }
  });

  it('a unit without a valid mirrorWeight (an older plan shape) is refused on both engines', () => {
    const unit = { ...planJoin(10)[0], mirrorWeight: undefined } as unknown as Parameters<ReturnType<typeof joinCounter>['countUnit']>[1];
    for (const engine of ['wasm', 'js'] as const) expect(() => joinCounter(engine).countUnit(10, unit)).toThrow(/mirrorWeight/);
  });

  it('symmetric solutions: S180 and S90 of small boards', () => {
    expect(countSymmetricSolutions(8)).toEqual({ s180: 4n, s90: 0n });
    expect(countSymmetricSolutions(12)).toEqual({ s180: 80n, s90: 8n });
  });

  it('symmetric solutions: the table agrees with the search for n = 1..17', () => {
    for (let n = 1; n <= 17; n++) expect(countSymmetricSolutions(n)).toEqual(searchSymmetricSolutions(n));
    expect(countSymmetricSolutions(4)).toEqual({ s180: 2n, s90: 2n });
    expect(countSymmetricSolutions(16)).toEqual({ s180: 3000n, s90: 64n });
  });
});

describe('join memory limit', () => {
  it.each([12, 15, 16])('n = %i: the wasm instance stays within joinMemoryBytes on both builds', (n) => {
    for (const build of ['simd', 'baseline'] as const) {
      const instance = new WebAssembly.Instance(compileJoinModule(build), {});
      const unit = planJoin(n)[0];
      (instance.exports.countJoinSplit as (...args: number[]) => bigint)(n, unit.eastRows, unit.centreRow, unit.mirrorWeight);
      const memory = Object.values(instance.exports).find((x) => x instanceof WebAssembly.Memory) as WebAssembly.Memory;
      expect(memory.buffer.byteLength).toBeLessThanOrEqual(joinMemoryBytes(n));
    }
  });

  it('names n and the bytes needed, and throws before allocating', () => {
    expect(joinMemoryBytes(JOIN_MAX_N)).toBeLessThanOrEqual(JOIN_MEMORY_LIMIT);
    expect(joinMemoryBytes(JOIN_MAX_N + 1)).toBeGreaterThan(JOIN_MEMORY_LIMIT);
    expect(() => checkJoinSize(JOIN_MAX_N + 1)).toThrow(RangeError);
    expect(() => countJoin(JOIN_MAX_N + 1, 'wasm')).toThrow(/n = 22 needs up to \d+ bytes/);
    expect(() => planJoin(30)).toThrow(RangeError);
    expect(() => joinCounter('js').countUnit(24, { id: 0, eastRows: 0xfff, centreRow: -1, weight: 1, mirrorWeight: 1 })).toThrow(
      RangeError,
    );
  });
});
