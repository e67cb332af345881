// A unit of the join whose east side has no half-boards counts nothing, in
// either pass. The wasm counter, counting in pieces, still asked the module
// for the mirror's pass of such a unit: beginPass(1) built tables from the
// west halves the instance had listed for an earlier unit, of another n
// where counts took turns on the thread's kept counter, and once read past
// its memory ("memory access out of bounds", test/every-path.test.ts in CI).
// The module's calls are recorded here through the loader's instantiate.
import { describe, expect, it, vi } from 'vitest';
import { planJoin } from './plans.js';
import { joinCounter } from './join-module.js';

const calls = vi.hoisted((): [string, number][] => []);
vi.mock('../dist/engines/wasm-loader.js', async (original) => {
  const loader = await original<typeof import('../dist/engines/wasm-loader.js')>();
  return {
    ...loader,
    instantiate(module: WebAssembly.Module, memory?: WebAssembly.Memory) {
      const exports = loader.instantiate<Record<string, (...args: number[]) => number>>(module, memory);
      const record =
        (name: string) =>
        (...args: number[]) => {
          const result = exports[name](...args);
          calls.push([name, Number(result)]);
          return result;
        };
      return { ...exports, beginUnit: record('beginUnit'), beginPass: record('beginPass') };
    },
  };
});

describe('a join unit without east halves, counted in pieces on wasm', () => {
  it.each([11, 13])('n = %i: no pass is prepared for it, and every unit counts as the whole count does', (n) => {
    const counter = joinCounter('wasm');
    calls.length = 0;
    let empty = 0;
    let total = 0n;
    for (const unit of planJoin(n)) {
      const from = calls.length;
      const steps = counter.countUnitSteps(n, unit, 0);
      let step = steps.next();
      while (!step.done) step = steps.next();
      total += step.value * BigInt(unit.weight);
      const made = calls.slice(from);
      expect(made[0]?.[0]).toBe('beginUnit');
      if (made[0][1] !== 0) continue;
      empty += unit.mirrorWeight === 2 ? 1 : 0;
      expect([step.value, made]).toEqual([0n, [['beginUnit', 0]]]);
    }
    // n = 11 and 13 have such units of both mirror weights (found by instrumenting the counter).
    expect(empty).toBeGreaterThan(0);
    expect(total).toBe({ 11: 2680n, 13: 73712n }[n]);
  });
});
