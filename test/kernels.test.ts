// The engines against each other, below the public API: subproblem by
// subproblem, and the symmetry search against the plain bitmask DFS.
import { describe, expect, it } from 'vitest';
import { planSubproblems, contribution } from '../dist/search/constellations.js';
import { getWasmKernel, jsKernel, kernelOf, resolveModule, wasmKernelFrom } from '../dist/search/search-kernel.js';
import { compileKernel, u64, wasmUsesSimd } from '../dist/engines/wasm-loader.js';
import { countFirstRow } from '../dist/baseline/bitmask.js';
import { countReference } from '../dist/engines/reference.js';
import { benchInstance, benchKernel, compileBenchKernel, wasmCountFirstRow } from '../bench/wasm-bench.mjs';
import { range, TOTAL, UNIQUE } from './oeis.js';

const wasm = getWasmKernel()!;
// Node has wasm SIMD, so the shared kernel is the SIMD build; test the other one explicitly.
const baseline = wasmKernelFrom(compileKernel('baseline'));
// The SIMD build with the SIMD search from 2 rows left (it normally starts at
// 11), from the bench/test build that exports the tuning hook: on small
// boards the shipped kernel never reaches its SIMD path.
const simdEverywhere = benchKernel('simd', { laneRows: 16, minRows: 2 });
const wasmFirstRow = wasmCountFirstRow('simd');

describe('kernels agree', () => {
  it('wasm is available in this test run, as the SIMD build', () => {
    expect(wasm.name).toBe('wasm');
    expect(wasmUsesSimd()).toBe(true);
  });

  it('a thread holds one kernel per module, instantiated and warmed once (countSync makes a counter per call)', () => {
    const module = resolveModule('auto')!;
    expect(kernelOf(module)).toBe(kernelOf(module));
    expect(kernelOf(module)).toBe(wasm);
    const other = compileKernel('baseline');
    expect(kernelOf(other)).toBe(kernelOf(other));
    expect(kernelOf(other)).not.toBe(wasm);
  });

  it.each(['simd', 'baseline'] as const)(
    'the shipped %s build exports only what the package calls (the bench/test build adds the rest)',
    (build) => {
      const names = (module: WebAssembly.Module): string[] =>
        WebAssembly.Module.exports(module)
          .map((e) => e.name)
          .sort();
      const shipped = ['countConstellation', 'countConstellationFixes', 'memory'];
      expect(names(compileKernel(build))).toEqual(shipped);
      expect(names(compileBenchKernel(build))).toEqual([...shipped, 'countFirstRow', 'setSimdTuning'].sort());
    },
  );

  // Each adding up to OEIS too: at n = 2 and 3, which have no subproblems, a check all the same.
  it.each(range(1, 13))('n = %i: the wasm build without SIMD agrees with the SIMD search on every subproblem', (n) => {
    let total = 0n;
    for (const s of planSubproblems(n)) {
      const expected = baseline.countSubproblem(n, s);
      expect(simdEverywhere.countSubproblem(n, s)).toEqual(expected);
      expect(wasm.countSubproblem(n, s)).toEqual(expected);
      total += contribution(s, expected).total;
    }
    expect(total).toBe(TOTAL[n]);
  });

  // The shipped SIMD build with its own tuning, where its SIMD path runs: subproblems with 11 rows or more.
  it.each([14, 15, 16, 17])('n = %i: the wasm build without SIMD agrees with the shipped SIMD build on a sample of subproblems', (n) => {
    const plan = planSubproblems(n);
    const step = n >= 16 ? 61 : 7;
    let simdRan = 0;
    for (let i = 0; i < plan.length; i += step) {
      const s = plan[i];
      expect(wasm.countSubproblem(n, s)).toEqual(baseline.countSubproblem(n, s));
      if (s.innerRows >= 11) simdRan++;
    }
    expect(simdRan).toBeGreaterThan(0);
  });

  // Past 16 rows the SIMD search runs the top rows plainly and the last 16 in
  // lanes; fewer lanes exercise that split on boards small enough to test.
  it.each([2, 3, 5, 8, 16])('n = 9..12: the SIMD search, on every subproblem, with %i lane rows agrees with js', (rows) => {
    const raw = benchInstance('simd');
    raw.setSimdTuning(rows, 0);
    for (let n = 9; n <= 12; n++) {
      for (const s of planSubproblems(n)) {
        const expected = jsKernel.countSubproblem(n, s).solutions;
        expect(u64(raw.countConstellation(n, s.a, s.b, s.c, s.d, 0, 0, 0, 0))).toBe(expected);
      }
    }
  });

  it('the wasm build without SIMD counts n = 15 exactly', () => {
    let total = 0n;
    let unique = 0n;
    for (const s of planSubproblems(15)) {
      const c = contribution(s, baseline.countSubproblem(15, s));
      total += c.total;
      unique += c.unique;
    }
    expect({ total, unique }).toEqual({ total: TOTAL[15], unique: UNIQUE[15] });
  });

  it.each(range(1, 13))('n = %i: wasm and js give identical counts for every subproblem, adding up to OEIS', (n) => {
    let total = 0n;
    for (const s of planSubproblems(n)) {
      const expected = jsKernel.countSubproblem(n, s);
      expect(wasm.countSubproblem(n, s)).toEqual(expected);
      total += contribution(s, expected).total;
    }
    expect(total).toBe(TOTAL[n]);
  });

  // At large n the TS search adds bigints in the rows far from the bottom; a
  // low threshold runs that path (and its hand-over) on boards small enough to test.
  it.each([0, 1, 2, 4, 5, 7])('n = 8..12: the js search with only %i rows counted in a number agrees with wasm', async (rows) => {
    const { setExactRows } = await import('../dist/search/row-search.js');
    setExactRows(rows);
    try {
      for (let n = 8; n <= 12; n++) {
        for (const s of planSubproblems(n)) {
          expect(jsKernel.countSubproblem(n, s)).toEqual(wasm.countSubproblem(n, s));
        }
      }
    } finally {
      setExactRows(18);
    }
  });

  it.each(range(1, 14))("n = %i: plain bitmask DFS (the benchmark's), per first-row column, wasm = js = table", (n) => {
    let wasmTotal = 0n;
    let jsTotal = 0n;
    for (let col = 0; col < n; col++) {
      const w = wasmFirstRow(n, col);
      const j = countFirstRow(n, col);
      expect(w).toBe(j);
      wasmTotal += w;
      jsTotal += j;
    }
    expect(wasmTotal).toBe(TOTAL[n]);
    expect(jsTotal).toBe(TOTAL[n]);
  });

  it.each(range(1, 11))('n = %i: the reference agrees with the tables', (n) => {
    expect(countReference(n)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
  });
});

describe('the subproblem list', () => {
  it.each(range(2, 14))('n = %i: classes cover every placeable constellation once', (n) => {
    const plan = planSubproblems(n);
    // Brute force: border constellations whose queens do not attack each other.
    let placeable = 0;
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        for (let c = 0; c < n; c++)
          for (let d = 0; d < n; d++) {
            const cells = [
              [0, a],
              [n - 1, b],
              [c, 0],
              [d, n - 1],
            ];
            let ok = true;
            for (let i = 0; i < 4 && ok; i++)
              for (let j = i + 1; j < 4 && ok; j++) {
                const [p, q] = [cells[i], cells[j]];
                if (p[0] === q[0] && p[1] === q[1]) continue;
                if (p[0] === q[0] || p[1] === q[1] || Math.abs(p[0] - q[0]) === Math.abs(p[1] - q[1])) ok = false;
              }
            if (ok) placeable++;
          }
    expect(plan.every((s) => s.weight * s.stabiliser === 8)).toBe(true);
    expect(plan.reduce((sum, s) => sum + s.weight, 0)).toBe(placeable);
  });

  it('is deterministic: ids are positions, and a second plan is identical', () => {
    const plan = planSubproblems(12);
    expect(plan.map((s) => s.id)).toEqual(range(0, plan.length - 1));
    expect(JSON.parse(JSON.stringify(plan))).toEqual(JSON.parse(JSON.stringify(planSubproblems(12))));
    expect(plan.length).toBe(730);
  });

  // The symmetric classes, checked against brute force: enumerate every
  // solution with the plain search, keep those whose border constellation
  // some non-identity symmetry maps to itself, and count them and their D4
  // classes independently of the subproblem list.
  it.each(range(6, 11))('n = %i: symmetric subproblems add up to the brute-force count of their solutions and classes', async (n) => {
    const { solutions } = await import('../dist/index.js');
    const { SYMMETRIES } = await import('../dist/search/constellations.js');
    const border = (p: number[]): string => {
      const cells = [
        [0, p[0]],
        [n - 1, p[n - 1]],
        [p.indexOf(0), 0],
        [p.indexOf(n - 1), n - 1],
      ];
      return cells
        .map(([r, c]) => r * n + c)
        .sort((x, y) => x - y)
        .join();
    };
    const image = (p: number[], g: number): number[] => {
      const q = new Array<number>(n);
      p.forEach((c, r) => {
        const [row, col] = SYMMETRIES[g](n, r, c);
        q[row] = col;
      });
      return q;
    };
    let bruteTotal = 0n;
    const classes = new Set<string>();
    for (const p of solutions(n)) {
      const key = border(p);
      let symmetric = false;
      for (let g = 1; g < 8; g++) if (border(image(p, g)) === key) symmetric = true;
      if (!symmetric) continue;
      bruteTotal++;
      classes.add(
        range(0, 7)
          .map((g) => image(p, g).join())
          .sort()[0],
      );
    }
    for (const kernel of [wasm, baseline, jsKernel]) {
      let total = 0n;
      let unique = 0n;
      for (const s of planSubproblems(n)) {
        if (s.stabiliser === 1) continue;
        const c = contribution(s, kernel.countSubproblem(n, s));
        total += c.total;
        unique += c.unique;
      }
      expect({ total, unique }).toEqual({ total: bruteTotal, unique: BigInt(classes.size) });
    }
    if (n >= 8) expect(bruteTotal).toBeGreaterThan(0n);
  });
});

describe('what the fixes search relies on', () => {
  it('only turns fix a solution of n > 1, what a quarter turn fixes the half turn fixes, and isFixedByQuarterTurn agrees with SYMMETRIES (n = 1..10)', async () => {
    const { isFixedByQuarterTurn } = await import('../dist/search/symmetry.js');
    const { SYMMETRIES } = await import('../dist/search/constellations.js');
    const { solutions } = await import('../dist/index.js');
    const fixedSeen = new Set<number>();
    for (let n = 1; n <= 10; n++) {
      for (const placement of solutions(n)) {
        const fixedBy = range(0, 7).map((g) => {
          const image = new Array<number>(n);
          placement.forEach((c, r) => {
            const [row, col] = SYMMETRIES[g](n, r, c);
            image[row] = col;
          });
          return image.every((c, r) => c === placement[r]);
        });
        expect(isFixedByQuarterTurn(placement, n)).toBe(fixedBy[1]);
        if (n === 1) continue;
        for (let g = 1; g < 8; g++) if (fixedBy[g]) fixedSeen.add(g);
        if (fixedBy[1] || fixedBy[3]) expect(fixedBy[2]).toBe(true);
      }
    }
    // A reflection maps some queen onto its own row, column or diagonal.
    expect([...fixedSeen].sort()).toEqual([1, 2, 3]);
  });

  // The TypeScript search places a queen and its half-turn image together; the wasm one goes row by row.
  it.each(range(1, 19))('n = %i: the TypeScript fixes search agrees with the wasm one on every symmetric subproblem', async (n) => {
    const { countFixesOnly } = await import('../dist/search/symmetry.js');
    const symmetric = planSubproblems(n).filter((s) => s.symmetries !== 0);
    const ts = symmetric.map((s) => countFixesOnly(n, s));
    expect(ts).toEqual(symmetric.map((s) => baseline.countFixes(n, s)));
    expect(ts.length === 0 || ts.some((fixes) => fixes > 0n) || n < 4).toBe(true); // n = 2, 3 have none
  });
});

describe('SafeCounter (the TS kernels count past 2^53 through it)', () => {
  it('carries whole numbers into a bigint exactly', async () => {
    const { SafeCounter, FLUSH_AT } = await import('../dist/baseline/safe-counter.js');
    const counter = new SafeCounter();
    let count = FLUSH_AT + 1;
    count = counter.flush(count);
    expect(count).toBe(0);
    for (let i = 0; i < 8; i++) counter.flush(2 ** 53 - 1);
    expect(counter.total(7)).toBe(2n ** 50n + 1n + 8n * (2n ** 53n - 1n) + 7n);
  });
});
