// The symmetry search's subproblem list (src/search/constellations.ts) is a
// pure function of n whose positions are ids: shards, checkpoints and the
// GPU's units refer to subproblems by them, so the list must never change.
// Here it is checked against the plainest construction: each border
// constellation's eight images computed by moving its cells with SYMMETRIES.
import { describe, expect, it } from 'vitest';
import { planSubproblems, SYMMETRIES } from '../dist/search/constellations.js';

type Cell = readonly [number, number];

/** The list as the definition gives it, slowly: canonical constellations, their stabilisers, the cheapest orientation. */
function referencePlan(n: number) {
  const m = n - 1;
  const code = (q: number[]) => ((q[0] * n + q[1]) * n + q[2]) * n + q[3];
  const lines = (cells: Cell[]): number[] => {
    const q = [-1, -1, -1, -1];
    for (const [r, c] of cells) {
      if (r === 0) q[0] = c;
      if (r === m) q[1] = c;
      if (c === 0) q[2] = r;
      if (c === m) q[3] = r;
    }
    return q;
  };
  const attack = ([r1, c1]: Cell, [r2, c2]: Cell) =>
    !(r1 === r2 && c1 === c2) && (r1 === r2 || c1 === c2 || r1 - c1 === r2 - c2 || r1 + c1 === r2 + c2);
  const list = [];
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++)
      for (let c = 0; c < n; c++)
        for (let d = 0; d < n; d++) {
          const cells: Cell[] = [
            [0, a],
            [m, b],
            [c, 0],
            [d, m],
          ];
          if (cells.some((p, i) => cells.some((q, j) => j > i && attack(p, q)))) continue;
          const images = SYMMETRIES.map((g) => lines(cells.map(([r, col]) => g(n, r, col))));
          const own = code([a, b, c, d]);
          const firstSmaller = images.findIndex((q) => code(q) < own);
          if (firstSmaller >= 0) continue;
          const fixedBy = images.map((q, g) => (code(q) === own ? g : -1)).filter((g) => g >= 0);
          const score = ([qa, qb, qc, qd]: number[]) => -2 * Math.abs(qb - m / 2) - Math.min(qc, qd) + Math.abs(qa - qb);
          const cheapest = images.reduce((best, q) => (score(q) < score(best) ? q : best));
          const [sa, sb, sc, sd] = cheapest;
          list.push({
            a: sa,
            b: sb,
            c: sc,
            d: sd,
            stabiliser: fixedBy.length,
            weight: 8 / fixedBy.length,
            symmetries: fixedBy.filter((g) => g > 0).reduce((bits, g) => bits | (1 << g), 0),
            innerRows: n - new Set([0, m, sc, sd]).size,
          });
        }
  list.sort((p, q) => q.innerRows - p.innerRows);
  return list.map((s, id) => ({ id, ...s }));
}

describe('the subproblem list', () => {
  it.each(Array.from({ length: 21 }, (_, i) => i + 1))('n = %i: the same list, in the same order, as the definition gives', (n) => {
    expect(planSubproblems(n)).toEqual(referencePlan(n));
  });

  it('n = 27 and 32: the same as the definition', () => {
    for (const n of [27, 32]) expect(planSubproblems(n)).toEqual(referencePlan(n));
  });
});
