// Each join unit against an independent count of the same unit, row by row
// (test/brute-force.ts): the join's totals are checked against OEIS, this
// checks the parts, every unit up to n = 12 and a spread of units to 17
// (test:long samples n = 23 and 24, past OEIS' reach of a quick count).
import { describe, expect, it } from 'vitest';
import { joinPlan, unitOf } from './plans.js';
import { joinCounter } from './join-module.js';
import { bruteForce, joinUnitByRows, transposeShare } from './brute-force.js';
import { range } from './oeis.js';

/** Every unit of small plans; 40 spread over the larger ones, the first and last among them. */
function sample(units: number): number[] {
  if (units <= 400) return range(0, units - 1);
  return Array.from({ length: 40 }, (_, i) => Math.round((i * (units - 1)) / 39));
}

describe.each(['wasm', 'js'] as const)('join units, engine %s', (engine) => {
  it.each(range(1, 17))('n = %i: sampled units match a row-by-row count of the same split', (n) => {
    const plan = joinPlan(n);
    const counter = joinCounter(engine);
    for (const id of sample(plan.units)) {
      const unit = unitOf(plan, id);
      expect([n, id, counter.countUnit(n, unit)]).toEqual([n, id, joinUnitByRows(n, unit)]);
    }
  });
});

describe("the transpose's test (join-plan.ts), as the row-by-row count applies it", () => {
  it.each([4, 6, 8])('n = %i: a board and its transpose share 2 between them, a board its own transpose 1', (n) => {
    const pairs = new Set<number>();
    const seen = new Set<number>();
    for (const board of bruteForce(n)) {
      const transposed = board.map((_, c) => board.indexOf(c));
      pairs.add(transposeShare(n, board) + transposeShare(n, transposed));
      seen.add(transposeShare(n, board));
      if (transposed.every((c, r) => c === board[r])) expect(transposeShare(n, board)).toBe(1);
    }
    expect([...pairs]).toEqual([2]);
    if (n === 8) expect([...seen].sort()).toEqual([0, 1, 2]); // not all 1
  });
});
