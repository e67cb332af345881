// The WebGPU engine in Node: its work units (the refinement and the shader's
// search, replayed on the CPU) and its refusal to run without WebGPU. The
// GPU itself is tested in Chromium (test/browser/webgpu.test.ts).
import { describe, expect, it } from 'vitest';
import { contribution, planSubproblems } from '../dist/search/constellations.js';
import { countSubproblem, countFixesOnly } from '../dist/search/symmetry.js';
import { TABLE_ROWS, refineUnits, type WorkUnits } from '../dist/search/webgpu/webgpu-units.js';
import { unitSearchShader } from '../dist/search/webgpu/webgpu-shader.js';
import { countWebGpu } from '../dist/search/webgpu/webgpu.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

/** The shader's search over one unit, step for step, in TypeScript. */
function searchUnit(work: WorkUnits, j: number): number {
  const [unitCols, unitLd, unitRd, packed] = work.units.subarray(j * 4, j * 4 + 4);
  const table = (packed >>> 10) * TABLE_ROWS;
  const attacks = (row: number): number => work.rowTable[(table + row) * 2];
  const shift = (row: number): number => work.rowTable[(table + row) * 2 + 1];
  const lastRow = packed & 31;
  const search = (row: number, cols: number, ld: number, rd: number): number => {
    let free = ~(cols | ld | rd | attacks(row));
    if (row === lastRow) return free !== 0 ? 1 : 0;
    let count = 0;
    while (free !== 0) {
      const bit = free & -free;
      free ^= bit;
      count += search(row + 1, cols | bit, (ld | bit) << shift(row), (rd | bit) >>> shift(row));
    }
    return count;
  };
  return search((packed >>> 5) & 31, unitCols, unitLd, unitRd);
}

/** Per subproblem: the solutions its units find, plus those found whole on the CPU. */
function solutionsByUnits(work: WorkUnits): bigint[] {
  const solutions = Array.from(work.cpuSolutions, (count) => BigInt(count));
  for (let j = 0; j < work.unitCount; j++) solutions[work.units[j * 4 + 3] >>> 10] += BigInt(searchUnit(work, j));
  return solutions;
}

describe('WebGPU work units', () => {
  it.each([...range(1, 12).map((n) => [n, 100]), [10, 1 << 16], [12, 5000], [13, 1 << 16]])(
    'n = %i, at least %i units: the units of each subproblem find exactly its solutions',
    (n, target) => {
      const subproblems = planSubproblems(n);
      const work = refineUnits(n, subproblems, target);
      const found = solutionsByUnits(work);
      subproblems.forEach((s, i) => expect(found[i], `subproblem ${i}`).toBe(countSubproblem(n, s).solutions));
      let total = 0n;
      let unique = 0n;
      subproblems.forEach((s, i) => {
        const c = contribution(s, { solutions: found[i], fixes: countFixesOnly(n, s) });
        total += c.total;
        unique += c.unique;
      });
      expect({ total, unique }).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    },
  );

  it('refines to the target, keeps each subproblem together and in plan order, and leaves every unit a row', () => {
    const n = 14;
    const work = refineUnits(n, planSubproblems(n));
    expect(work.unitCount).toBeGreaterThanOrEqual(1 << 16);
    const misplaced: number[] = []; // checked in plain code: an expect per unit would take seconds
    let previous = 0;
    for (let j = 0; j < work.unitCount; j++) {
      const packed = work.units[j * 4 + 3];
      const subproblem = packed >>> 10;
      const rowsLeft = (packed & 31) - ((packed >>> 5) & 31) + 1;
      const inOrder = subproblem >= previous && j < work.unitsEnd[subproblem];
      if (!inOrder || rowsLeft < 1 || rowsLeft > work.maxRowsLeft) misplaced.push(j);
      previous = subproblem;
    }
    expect(misplaced).toEqual([]);
    expect(work.unitsEnd[work.unitsEnd.length - 1]).toBe(work.unitCount);
  });

  it("sizes the shader's stack to the rows left", () => {
    expect(unitSearchShader(9)).toContain('array<vec4<u32>, 8>');
    expect(unitSearchShader(1)).toContain('array<vec4<u32>, 1>');
  });
});

describe('WebGPU in Node', () => {
  // With no adapter here (no GPU, or the optional 'webgpu' package absent), the count must refuse clearly.
  it('counts exactly where there is an adapter, and otherwise rejects saying WebGPU is unavailable', async () => {
    const outcome = await countWebGpu(8).catch((error: unknown) => error);
    if (outcome instanceof Error) {
      expect(outcome.message).toMatch(/^engine 'webgpu' is unavailable here: .*Use engine 'wasm' or 'js'/);
    } else {
      expect(outcome).toEqual({ total: 92n, unique: 12n });
    }
  });
});

describe("engine 'webgpu' in the API", () => {
  it('is listed in ENGINES; countSync and solutions refuse it with a TypeError; count refuses threads > 1', async () => {
    const { ENGINES, count, countSync, solutions } = await import('../dist/index.js');
    expect(ENGINES).toContain('webgpu');
    expect(() => countSync(8, { engine: 'webgpu' as never })).toThrow(TypeError);
    expect(() => countSync(8, { engine: 'webgpu' as never })).toThrow(/WebGPU is asynchronous; use count\(\)/);
    expect(() => solutions(8, { engine: 'webgpu' as never })).toThrow(TypeError);
    await expect(count(8, { engine: 'webgpu', threads: 2 })).rejects.toThrow(RangeError);
  });

  it('count(8, { engine: webgpu }) is exact where there is an adapter, and otherwise rejects without falling back', async () => {
    const { count } = await import('../dist/index.js');
    const outcome = await count(8, { engine: 'webgpu' }).catch((error: unknown) => error);
    if (outcome instanceof Error) expect(outcome.message).toMatch(/^engine 'webgpu' is unavailable here/);
    else expect(outcome).toMatchObject({ n: 8, total: 92n, unique: 12n, engine: 'webgpu', threads: 1 });
  });
});
