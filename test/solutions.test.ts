// solutions(): lexicographic placements, checked against an independent
// brute-force enumerator and validated where brute force is too slow.
import { describe, expect, it } from 'vitest';
import { solutions } from 'nqueens-wasm';
import { bruteForce } from './brute-force.js';
import { range, TOTAL } from './oeis.js';

function isSolution(p: number[], n: number): boolean {
  if (p.length !== n) return false;
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(p[i]) || p[i] < 0 || p[i] >= n) return false;
    for (let j = i + 1; j < n; j++) {
      if (p[i] === p[j] || Math.abs(p[i] - p[j]) === j - i) return false;
    }
  }
  return true;
}

function lexLess(p: number[], q: number[]): boolean {
  for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return p[i] < q[i];
  return false;
}

const ENGINES = ['wasm', 'js', 'reference'] as const;

describe.each(ENGINES)('solutions() with engine %s', (engine) => {
  it('gives the two 4-queens placements in order', () => {
    expect([...solutions(4, { engine })]).toEqual([
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]);
  });

  it.each(range(1, 9))('n = %i equals brute force, in the same order', (n) => {
    expect([...solutions(n, { engine })]).toEqual(bruteForce(n));
  });

  it.each([10, 11, 12])('n = %i: every placement is a distinct solution, in increasing order', (n) => {
    let previous: number[] | undefined;
    let found = 0;
    for (const p of solutions(n, { engine })) {
      expect(isSolution(p, n)).toBe(true);
      if (previous) expect(lexLess(previous, p)).toBe(true);
      previous = p;
      found++;
    }
    expect(BigInt(found)).toBe(TOTAL[n]);
  });

  it('stops at the limit and gives independent arrays', () => {
    const first = [...solutions(8, { engine, limit: 3 })];
    expect(first).toEqual([
      [0, 4, 7, 5, 2, 6, 1, 3],
      [0, 5, 7, 2, 6, 3, 1, 4],
      [0, 6, 3, 5, 7, 1, 4, 2],
    ]);
    first[0][0] = 99;
    expect([...solutions(8, { engine, limit: 1 })][0][0]).toBe(0);
    expect([...solutions(8, { engine, limit: 0 })]).toEqual([]);
  });

  it('takes limit: Infinity as no limit, alone and with unique, placed and after (it was a RangeError)', () => {
    const first = [0, 4, 7, 5, 2, 6, 1, 3];
    const all = (options: object) => [...solutions(8, { engine, limit: Infinity, ...options })];
    expect(all({})).toEqual(bruteForce(8));
    expect(all({ unique: true })).toHaveLength(12);
    expect(all({ placed: [[0, 0]] })).toEqual([first, [0, 5, 7, 2, 6, 3, 1, 4], [0, 6, 3, 5, 7, 1, 4, 2], [0, 6, 4, 7, 1, 3, 5, 2]]);
    expect(all({ after: first })).toEqual(bruteForce(8).slice(1));
    expect(all({ after: first, unique: true })).toEqual([...solutions(8, { engine, unique: true })].slice(1));
    expect(all({ after: first, placed: [[0, 0]] })).toHaveLength(3);
  });

  it('is lazy: takes the first solution of n = 24 without enumerating the rest', () => {
    const [p] = solutions(24, { engine, limit: 1 });
    expect(p).toEqual([0, 2, 4, 1, 3, 8, 10, 13, 17, 21, 18, 22, 19, 23, 9, 20, 5, 7, 11, 15, 12, 6, 16, 14]);
    expect(isSolution(p, 24)).toBe(true);
  });
});

describe('interleaved enumerations', () => {
  it('do not share state', () => {
    const a = solutions(6, { engine: 'wasm' });
    const b = solutions(6, { engine: 'wasm' });
    expect(a.next().value).toEqual([1, 3, 5, 0, 2, 4]);
    expect(b.next().value).toEqual([1, 3, 5, 0, 2, 4]);
    expect(a.next().value).toEqual([2, 5, 1, 4, 0, 3]);
    expect(b.next().value).toEqual([2, 5, 1, 4, 0, 3]);
  });
});

describe('enumerations taking turns on one wasm instance', () => {
  /** A deterministic shuffle source (mulberry32). */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it.each([1, 2, 3])('seed %i: 40 enumerations of n = 1..12, placed, unique and after, stepped in random turns, each as on js', (seed) => {
    const next = random(seed);
    const specs = Array.from({ length: 40 }, (_, i) => {
      const n = 1 + (i % 12);
      const kind = i % 4;
      const options =
        kind === 1 && n >= 4
          ? { placed: [[Math.floor(next() * n), Math.floor(next() * n)]] as [number, number][] }
          : kind === 2
            ? { unique: true }
            : kind === 3 && n >= 4
              ? { after: Array.from({ length: n }, () => Math.floor(next() * n)) }
              : {};
      return { n, options };
    });
    const expected = specs.map(({ n, options }) => [...solutions(n, { ...options, engine: 'js' })]);
    const iterators = specs.map(({ n, options }) => solutions(n, { ...options, engine: 'wasm' }));
    const got: number[][][] = specs.map(() => []);
    let open = iterators.map((_, i) => i);
    while (open.length > 0) {
      const i = open[Math.floor(next() * open.length)];
      const step = iterators[i].next();
      if (step.done) open = open.filter((j) => j !== i);
      else got[i].push(step.value);
    }
    expect(got).toEqual(expected);
  });

  it('one inside the loop of another, and 20,000 left open at once: each exact (each had a wasm memory of its own, 10 GB of address space)', () => {
    const outer: number[][] = [];
    for (const p of solutions(6, { engine: 'wasm' })) {
      outer.push(p);
      expect([...solutions(7, { engine: 'wasm', placed: [[0, p[0]]] })].length).toBe(
        [...solutions(7, { engine: 'js', placed: [[0, p[0]]] })].length,
      );
    }
    expect(outer).toHaveLength(4);
    const open = Array.from({ length: 20_000 }, () => solutions(8, { engine: 'wasm' }));
    const firsts = new Set(open.map((it) => it.next().value!.join('')));
    expect([...firsts]).toEqual(['04752613']);
    expect([...open[0]].length + [...open[19_999]].length).toBe(2 * (Number(TOTAL[8]) - 1));
  });
});
