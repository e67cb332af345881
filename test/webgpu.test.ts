// The WebGPU engine in Node, without a GPU: its units found by the shader's
// loop run on the CPU (test/fixtures/webgpu/cpu-twin.mjs), its dispatch loop
// on a stand-in device that runs dispatches with that loop
// (test/fixtures/webgpu/fake-device.mjs), and its refusal to run without
// WebGPU. The real shader runs in Chromium (test/browser/webgpu.test.ts).
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { contribution, planSubproblems } from '../dist/search/constellations.js';
import { countFixesOnly, countSubproblem, diagonalAttacks } from '../dist/search/symmetry.js';
import {
  attacksWord,
  BatchMemory,
  BRANCH_WORDS,
  prepareSubproblems,
  shiftWord,
  UnitBatch,
  UnitStream,
  type PreparedSubproblems,
} from '../dist/search/webgpu/webgpu-units.js';
import { BINDING_NAMES, unitSearchShader } from '../dist/search/webgpu/webgpu-shader.js';
import { countWebGpu } from '../dist/search/webgpu/webgpu.js';
import { SubproblemCounter } from '../dist/search/webgpu/webgpu-counter.js';
import { countOnDevice } from '../dist/search/webgpu/webgpu-run.js';
import { inErrorScopes } from '../dist/search/webgpu/webgpu-errors.js';
import { holdsIdleDevice, setDeviceIdleMs } from '../dist/search/webgpu/webgpu-device.js';
import { DEFAULT_LIMITS, planGpuWork, unitRoom } from '../dist/search/webgpu/webgpu-plan.js';
import type { GpuDeviceLike } from '../dist/search/webgpu/webgpu-types.js';
import type { Progress } from '../dist/index.js';
import {
  searchUnitLikeShader,
  shaderBacksOver,
  shaderKeepsLdHigh,
  shaderLookahead,
  shaderStackRows,
  unitStart,
} from './fixtures/webgpu/cpu-twin.mjs';
import { createFakeDevice } from './fixtures/webgpu/fake-device.mjs';
import { smallPlan } from './fixtures/webgpu/small-plan.mjs';
import { range, TOTAL, UNIQUE } from './oeis.js';

/** Per subproblem: the solutions its units find with the shader's loop, plus those found whole on the CPU. */
function solutionsByUnits(prepared: PreparedSubproblems, rowsLeft: number, batch: number, lookahead = 0): bigint[] {
  return searchUnits(prepared, rowsLeft, batch, lookahead).solutions;
}

/** The units' solutions per subproblem, and the loop steps they took, with the shader's loop and `lookahead`. */
function searchUnits(prepared: PreparedSubproblems, rowsLeft: number, batch: number, lookahead: number) {
  const solutions = Array.from(prepared.cpuSolutions, (count) => BigInt(count));
  let steps = 0;
  const stream = new UnitStream(prepared, rowsLeft);
  const units = new UnitBatch(batch);
  const stackRows = shaderStackRows(unitSearchShader(rowsLeft));
  for (let count = stream.fill(units); count > 0; count = stream.fill(units)) {
    expect(count).toBeLessThanOrEqual(batch);
    for (let j = 0; j < count; j++) {
      const unit = searchUnitLikeShader(units, prepared.rowTable, j, stackRows, lookahead);
      solutions[unit.subproblem] += BigInt(unit.low) + (BigInt(unit.high) << 32n);
      steps += unit.steps;
    }
  }
  return { solutions, steps };
}

/** Loop steps of every unit of n = 14 (11 rows left) with lookahead 0 to 3, by the shader's loop on the CPU. */
const LOOKAHEAD_STEPS_14 = [8_062_057, 6_969_555, 5_635_002, 5_147_301];

function totals(n: number, found: readonly bigint[]): { total: bigint; unique: bigint } {
  let total = 0n;
  let unique = 0n;
  planSubproblems(n).forEach((s, i) => {
    const c = contribution(s, { solutions: found[i], fixes: countFixesOnly(n, s) });
    total += c.total;
    unique += c.unique;
  });
  return { total, unique };
}

describe("WebGPU work units, searched with the shader's loop on the CPU", () => {
  // [n, rows left per unit, most units per batch]: from whole subproblems to units of one row, batches from the
  // fewest units a batch may hold (a branch's most, 32) up.
  const cases = [
    ...range(1, 12).map((n) => [n, 3, 64]),
    [9, 1, 32],
    [10, 2, 33],
    [12, 5, 1000],
    [13, 4, 4096],
    [13, 11, 64],
    [14, 8, 1 << 16],
  ];
  it.each(cases)('n = %i, units of at most %i rows, %i per batch: each subproblem gets exactly its solutions', (n, rowsLeft, batch) => {
    const subproblems = planSubproblems(n);
    const found = solutionsByUnits(prepareSubproblems(n, subproblems), rowsLeft, batch);
    subproblems.forEach((s, i) => expect(found[i], `subproblem ${i}`).toBe(countSubproblem(n, s).solutions));
    expect(totals(n, found)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
  });

  // Lookahead drops only subtrees without a solution: every subproblem keeps its count, n = 1..12 and deeper units.
  it.each([
    ...range(1, 12).flatMap((n) => [1, 2, 3].map((lookahead) => [n, 4, lookahead])),
    ...[1, 2, 3].map((lookahead) => [13, 11, lookahead]),
  ])('n = %i, units of at most %i rows, lookahead %i: each subproblem gets exactly its solutions', (n, rowsLeft, lookahead) => {
    const subproblems = planSubproblems(n);
    const found = solutionsByUnits(prepareSubproblems(n, subproblems), rowsLeft, 64, lookahead);
    subproblems.forEach((s, i) => expect(found[i], `subproblem ${i}`).toBe(countSubproblem(n, s).solutions));
    expect(totals(n, found)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] }); // a check at n = 2 and 3 too, which have none
  });

  it('n = 14, 11 rows left: each row of lookahead takes fewer loop steps for the same solutions', () => {
    const n = 14;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const runs = [0, 1, 2, 3].map((lookahead) => searchUnits(prepared, 11, 1 << 16, lookahead));
    for (const run of runs) expect(totals(n, run.solutions)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(runs.map((run) => run.steps)).toEqual(LOOKAHEAD_STEPS_14);
  });

  it('n = 14 with the planned rows left: the exact totals', () => {
    const n = 14;
    const found = solutionsByUnits(prepareSubproblems(n, planSubproblems(n)), planGpuWork(n).rowsLeft, 1 << 16);
    expect(totals(n, found)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
  });

  it('the twin refuses a unit deeper than the stack it is given, as the shader would overrun it', () => {
    const prepared = prepareSubproblems(10, planSubproblems(10));
    const batch = new UnitBatch(64);
    expect(new UnitStream(prepared, 5).fill(batch)).toBeGreaterThan(32);
    expect(() => searchUnitLikeShader(batch, prepared.rowTable, 0, 2)).toThrow(/needs 3 stacked rows, the shader has 2/);
  });

  it('fills a batch to the units asked and the branches it has room for, whole branches only, and the same units in all', () => {
    const n = 12;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const cut = (units: number, branches: number, limit?: number) => {
      const stream = new UnitStream(prepared, 5);
      const batch = new UnitBatch(units, branches);
      const counts: number[] = [];
      const shapes: number[] = [];
      for (let count = stream.fill(batch, limit); count > 0; count = stream.fill(batch, limit)) {
        counts.push(count);
        shapes.push(batch.branchCount);
        for (let j = 0; j < count; j++) expect(searchUnitLikeShader(batch, prepared.rowTable, j, 3, 1).steps).toBeGreaterThan(0);
      }
      return { counts, shapes, units: counts.reduce((a, b) => a + b, 0) };
    };
    const free = cut(256, 256);
    const roomy = cut(1024, 1024, 256); // asked for 256 of its 1,024
    expect(roomy).toEqual(free);
    expect(free.counts.slice(0, -1).every((units) => units > 256 - 32 && units <= 256)).toBe(true);
    const narrow = cut(256, 8); // 8 branches a batch: the branches bind first
    expect(narrow.units).toBe(free.units);
    expect(narrow.shapes.slice(0, -1).every((branches) => branches === 8)).toBe(true);
    expect(narrow.counts.every((units) => units <= 256)).toBe(true);
    for (const [units, branches] of [
      [31, 31],
      [64, 0],
      [64, 65],
      [64, 1.5],
    ]) {
      expect(() => new UnitBatch(units, branches)).toThrow(RangeError);
    }
    expect(() => new UnitBatch(64, 65)).toThrow('a batch of 64 units holds 1 to 64 branches, got 65');
    const stream = new UnitStream(prepared, 5);
    for (const limit of [31, 65, 40.5, Number.NaN]) {
      expect(() => stream.fill(new UnitBatch(64), limit)).toThrow(`a fill takes 32 to 64 units (the batch's room), got ${limit}`);
    }
  });

  it('batches on one memory share its arrays, each within its own room; a larger one takes new arrays, the others keep theirs', () => {
    const n = 12;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const memory = new BatchMemory();
    const [a, b] = [new UnitBatch(256, 64, memory), new UnitBatch(128, 48, memory)];
    expect(b.branches.buffer).toBe(a.branches.buffer);
    expect(b.firstUnit.buffer).toBe(a.firstUnit.buffer);
    expect(b.blockBranch.buffer).toBe(a.blockBranch.buffer);
    expect([a.branches.length, a.firstUnit.length, a.blockBranch.length]).toEqual([64 * BRANCH_WORDS, 64, 256 / 32 + 1]);
    expect([b.branches.length, b.firstUnit.length, b.blockBranch.length]).toEqual([48 * BRANCH_WORDS, 48, 128 / 32 + 1]);
    const big = new UnitBatch(1024, 512, memory);
    expect(big.branches.buffer).not.toBe(a.branches.buffer);
    expect(new UnitBatch(64, 64, memory).branches.buffer).toBe(big.branches.buffer);
    expect(a.branches.length).toBe(64 * BRANCH_WORDS);
    expect(new UnitBatch(4096, 32, memory).blockBranch.length).toBe(4096 / 32 + 1); // more blocks, not more branches
    // Batches that take turns on one memory (filled and read in turn) cut the same units as batches of their own.
    const cut = (batches: UnitBatch[]) => {
      const stream = new UnitStream(prepared, 5);
      const out: number[][] = [];
      for (let k = 0; ; k++) {
        const batch = batches[k % batches.length];
        if (stream.fill(batch) === 0) return out;
        out.push([batch.unitCount, batch.branchCount, ...batch.branches.subarray(0, batch.branchCount * BRANCH_WORDS)]);
      }
    };
    const shared = new BatchMemory();
    const rooms = [64, 256, 128];
    expect(cut(rooms.map((units) => new UnitBatch(units, units, shared)))).toEqual(cut(rooms.map((units) => new UnitBatch(units))));
  });

  // A plan may end each dispatch with units walked a row finer (webgpu-plan.ts, tailUnits): other units, the same work.
  it.each([
    [8, 3, 64, 16],
    [10, 2, 64, 32],
    [11, 4, 128, 64],
    [12, 5, 256, 64],
    [13, 6, 512, 128],
    [13, 11, 64, 32],
    [14, 8, 4096, 1024],
  ])(
    'n = %i, %i rows left, fills of %i units whose last %i go a row finer: the same units counted whole, each subproblem exact',
    (n, rowsLeft, units, tail) => {
      const subproblems = planSubproblems(n);
      const prepared = prepareSubproblems(n, subproblems);
      const plain = new UnitStream(prepared, rowsLeft);
      let plainUnits = 0;
      for (let count = plain.fill(new UnitBatch(units)); count > 0; count = plain.fill(new UnitBatch(units))) plainUnits += count;
      const stream = new UnitStream(prepared, rowsLeft);
      const room = units + 8 * tail;
      const batch = new UnitBatch(room);
      const stackRows = shaderStackRows(unitSearchShader(rowsLeft));
      const found = Array.from(prepared.cpuSolutions, (count) => BigInt(count));
      let whole = 0;
      let searched = 0;
      const lastRows: number[] = [];
      for (let count = stream.fill(batch, units, tail); count > 0; count = stream.fill(batch, units, tail)) {
        expect(batch.wholeUnits).toBeLessThanOrEqual(units);
        expect(batch.wholeUnits).toBeGreaterThan(0);
        whole += batch.wholeUnits;
        searched += count;
        const packed = batch.branches[(batch.branchCount - 1) * BRANCH_WORDS + 3];
        lastRows.push((packed & 31) - ((packed >>> 5) & 31));
        for (let j = 0; j < count; j++) {
          const unit = searchUnitLikeShader(batch, prepared.rowTable, j, stackRows, 2);
          found[unit.subproblem] += BigInt(unit.low) + (BigInt(unit.high) << 32n);
        }
      }
      expect(stream.done).toBe(true);
      expect(whole).toBe(plainUnits);
      // Other units where some were cut finer (dead ends then drop out: fewer at one or two rows left), the same
      // where no subproblem's units had rowsLeft rows to cut.
      const cut = Math.max(...prepared.innerRows) > rowsLeft;
      expect(searched === plainUnits).toBe(!cut);
      // Every full fill ends in the tail: its last branch's units search fewer rows than rowsLeft.
      expect(lastRows.slice(0, -1).every((rows) => rows < rowsLeft)).toBe(true);
      subproblems.forEach((s, i) => expect(found[i], `subproblem ${i}`).toBe(countSubproblem(n, s).solutions));
      expect(totals(n, found)).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    },
  );

  it("refuses a fill's tail that is not 0 to the units asked", () => {
    const stream = new UnitStream(prepareSubproblems(10, planSubproblems(10)), 4);
    for (const tail of [-1, 65, 0.5, Number.NaN]) {
      expect(() => stream.fill(new UnitBatch(128), 64, tail)).toThrow(`a fill's tail is 0 to 64 units, got ${tail}`);
    }
  });

  it("lays out each subproblem's rows as pairs (shift below row k, attacks on row k + 1), the last pair holding row 0's attacks", () => {
    const n = 12;
    const subproblems = planSubproblems(n);
    const prepared = prepareSubproblems(n, subproblems);
    subproblems.forEach((s, i) => {
      const inner = prepared.innerRows[i];
      // The inner rows: those without a border queen.
      const rows = range(1, n - 2).filter((r) => r !== s.c && r !== s.d);
      expect(rows).toHaveLength(inner);
      rows.forEach((row, k) => {
        const attacks =
          diagonalAttacks(n, row, 0, s.a) |
          diagonalAttacks(n, row, n - 1, s.b) |
          diagonalAttacks(n, row, s.c, 0) |
          diagonalAttacks(n, row, s.d, n - 1);
        expect(prepared.rowTable[attacksWord(i, k)], `subproblem ${i}, row ${k}`).toBe(attacks);
        if (k + 1 < inner) {
          expect(prepared.rowTable[shiftWord(i, k)]).toBe(rows[k + 1] - row);
          expect(attacksWord(i, k + 1)).toBe(shiftWord(i, k) + 1); // one pair: the shift below row k, the attacks on k + 1
        }
      });
    });
    expect(attacksWord(3, 0)).toBe((3 * 32 + 31) * 2 + 1);
  });

  it("prepared lazily, a subproblem's rows are made when the stream reaches it, and the units are the same", () => {
    const sameWords = (x: Uint32Array, y: Uint32Array): boolean => x.length === y.length && x.every((word, i) => word === y[i]);
    for (const n of [1, 8, 12, 13]) {
      const subproblems = planSubproblems(n);
      const eager = prepareSubproblems(n, subproblems);
      const lazy = prepareSubproblems(n, subproblems, 'lazy');
      expect(eager.rowsReady).toBe(subproblems.length);
      expect(lazy.rowsReady).toBe(0);
      expect([lazy.innerRows, lazy.cpuSolutions]).toEqual([eager.innerRows, eager.cpuSolutions]);
      const [fromEager, fromLazy] = [new UnitStream(eager, 5), new UnitStream(lazy, 5)];
      const [a, b] = [new UnitBatch(256), new UnitBatch(256)];
      const mismatches: string[] = [];
      let batches = 0;
      for (let count = fromEager.fill(a); count > 0; count = fromEager.fill(a), batches++) {
        if (fromLazy.fill(b) !== count) mismatches.push(`batch ${batches}: units`);
        if (!sameWords(a.branches.subarray(0, a.branchCount * 4), b.branches.subarray(0, b.branchCount * 4)))
          mismatches.push(`batch ${batches}: branches`);
        // Every subproblem of the batch has its rows; none past the stream has any yet.
        const { first, span } = b.subproblems();
        if (lazy.rowsReady < first + span) mismatches.push(`batch ${batches}: rows of ${first + span - 1} missing`);
        if (batches === 0 && !lazy.rowTable.subarray(lazy.rowsReady * 64).every((word) => word === 0))
          mismatches.push('rows made past the stream');
      }
      expect(mismatches).toEqual([]);
      expect(fromLazy.fill(b)).toBe(0);
      expect(sameWords(lazy.rowTable, eager.rowTable)).toBe(true);
    }
    // A plan whose inner rows disagree with the board's is refused, never searched.
    const [s] = planSubproblems(10);
    expect(() => prepareSubproblems(10, [{ ...s, innerRows: s.innerRows + 1 }])).toThrow(
      `subproblem 0 of n = 10 has ${s.innerRows} inner rows, its plan says ${s.innerRows + 1}`,
    );
  });

  it('filled in slices (begin, proceed, end), a batch is the one a whole fill makes, for every slice size', () => {
    const sameBatch = (x: UnitBatch, y: UnitBatch): boolean =>
      x.unitCount === y.unitCount &&
      x.wholeUnits === y.wholeUnits &&
      x.branches.subarray(0, x.branchCount * 4).every((word, i) => word === y.branches[i]) &&
      x.blockBranch.subarray(0, x.blockCount).every((word, i) => word === y.blockBranch[i]);
    for (const [n, rowsLeft, units, tail, steps] of [
      [8, 3, 64, 0, 1],
      [12, 5, 256, 32, 7],
      [13, 4, 1000, 100, 64],
      [14, 6, 4096, 0, 1000],
    ]) {
      const prepared = prepareSubproblems(n, planSubproblems(n), 'lazy');
      const [whole, sliced] = [
        new UnitStream(prepared, rowsLeft),
        new UnitStream(prepareSubproblems(n, planSubproblems(n), 'lazy'), rowsLeft),
      ];
      const [a, b] = [new UnitBatch(units + units), new UnitBatch(units + units)];
      const wrong: string[] = [];
      let slices = 0;
      for (let batch = 0; ; batch++) {
        const count = whole.fill(a, units, tail);
        sliced.begin(b, units, tail);
        while (!sliced.proceed(steps)) slices++;
        expect(sliced.proceed(steps)).toBe(true); // filled stays filled: no step past it
        if (sliced.end() !== count || !sameBatch(a, b)) wrong.push(`n = ${n}, batch ${batch}`);
        if (count === 0) break;
      }
      expect(wrong).toEqual([]);
      expect([n, slices > 0]).toEqual([n, true]);
    }
    const stream = new UnitStream(prepareSubproblems(8, planSubproblems(8)), 3);
    expect(() => stream.proceed(1)).toThrow('UnitStream.proceed: no fill begun');
    stream.begin(new UnitBatch(64));
    expect(() => stream.end()).toThrow('UnitStream.end: the fill is not done');
  });

  it("indexes each block of 32 units by the branch of its first unit, so a unit's branch is among the few its block spans", () => {
    for (const [n, rowsLeft, units] of [
      [10, 3, 64],
      [12, 5, 1000],
      [13, 4, 4096],
      [14, 8, 1 << 16],
    ]) {
      const prepared = prepareSubproblems(n, planSubproblems(n));
      const stream = new UnitStream(prepared, rowsLeft);
      const batch = new UnitBatch(units);
      let widest = 0;
      let seen = 0;
      const wrong: string[] = []; // one expect at the end: one per unit took seconds
      for (let count = stream.fill(batch); count > 0; count = stream.fill(batch)) {
        expect(batch.blockCount).toBe(Math.ceil(count / 32) + 1);
        expect(batch.blockBranch[batch.blockCount - 1]).toBe(batch.branchCount - 1);
        // Unit i's branch (the last whose first unit is at or before it), found by walking the branches.
        let branch = 0;
        for (let i = 0; i < count; i++, seen++) {
          while (branch + 1 < batch.branchCount && batch.firstUnit[branch + 1] <= i) branch++;
          const block = Math.floor(i / 32);
          const [from, to] = [batch.blockBranch[block], batch.blockBranch[block + 1]];
          if ((i % 32 === 0 && from !== branch) || branch < from || branch > to) {
            wrong.push(`n = ${n}, unit ${i}: branch ${branch}, its block ${block} spans ${from}..${to}`);
          }
          widest = Math.max(widest, to - from + 1);
        }
      }
      expect(wrong).toEqual([]);
      expect(seen).toBeGreaterThan(0); // the loop ran over the units the stream handed out
      expect(widest).toBeLessThanOrEqual(33); // at most 6 steps of a binary search
    }
  });

  it('declares its lookahead and checks the rows below a queen only where asked; refuses a lookahead out of 0..3', () => {
    const plain = unitSearchShader(11, { lookahead: 0 });
    expect(plain).not.toContain('LOOKAHEAD');
    expect(plain).toContain('      } else {\n        stack[');
    expect(shaderLookahead(plain)).toBe(0);
    // The engine's default: no push of a queen where one of the next two rows has no free square.
    expect(unitSearchShader(11)).toBe(unitSearchShader(11, { lookahead: 2 }));
    expect(unitSearchShader(11)).toContain('const LOOKAHEAD = 2u;');
    expect(unitSearchShader(11, { lookahead: 1 })).toContain('      } else if (nextFree != 0u) {\n        stack[');
    // The table's pair k holds the shift below inner row k and the attacks on row k + 1.
    const two =
      '~(nextCols | (nextLd << rowTable[table + row + 1u].x) | (nextRd >> rowTable[table + row + 1u].x) | rowTable[table + row + 1u].y) != 0u';
    expect(unitSearchShader(11, { lookahead: 2 })).toContain(`} else if (nextFree != 0u && ${two}) {`);
    const reach = '(rowTable[table + row + 1u].x + rowTable[table + row + 2u].x)';
    const three = `~(nextCols | (nextLd << ${reach}) | (nextRd >> ${reach}) | rowTable[table + row + 2u].y) != 0u`;
    expect(unitSearchShader(11, { lookahead: 3 })).toContain(`} else if (nextFree != 0u && ${two} && (row + 3u > lastRow || ${three})) {`);
    // Where the pair is carried, the next row's pair is loaded once and becomes that row's pair on a push.
    const ahead = 'let ahead = rowTable[table + row + 1u];';
    const carried = (lookahead: number) => unitSearchShader(11, { lookahead, carryPair: true });
    expect(carried(0)).toContain(`      } else {\n        ${ahead}\n        stack[`);
    expect(carried(1)).toContain(`      } else if (nextFree != 0u) {\n        ${ahead}\n        stack[`);
    for (const lookahead of [0, 1, 2, 3]) expect(carried(lookahead)).toContain('        below = ahead;\n');
    const twoAhead = '~(nextCols | (nextLd << ahead.x) | (nextRd >> ahead.x) | ahead.y) != 0u';
    expect(carried(2)).toContain(`      } else {\n        ${ahead}\n        if (nextFree != 0u && ${twoAhead}) {`);
    const reachAhead = '(ahead.x + rowTable[table + row + 2u].x)';
    const threeAhead = `~(nextCols | (nextLd << ${reachAhead}) | (nextRd >> ${reachAhead}) | rowTable[table + row + 2u].y) != 0u`;
    expect(carried(3)).toContain(`        if (nextFree != 0u && ${twoAhead} && (row + 3u > lastRow || ${threeAhead})) {`);
    expect(unitSearchShader(11)).not.toContain('ahead');
    for (const lookahead of [1, 2, 3]) expect(shaderLookahead(unitSearchShader(11, { lookahead }))).toBe(lookahead);
    for (const bad of [-1, 4, 1.5, Number.NaN]) {
      expect(() => unitSearchShader(11, { lookahead: bad })).toThrow(RangeError);
      expect(() => unitSearchShader(11, { lookahead: bad })).toThrow(`lookahead must be an integer from 0 to 3, got ${bad}`);
    }
  });

  it('declares its buffers in the order BINDING_NAMES gives the hosts (the engine, the probe)', () => {
    for (const code of [
      unitSearchShader(12),
      unitSearchShader(12, { stackPlace: 'private', lookahead: 0 }),
      unitSearchShader(12, { lookahead: 3 }),
    ]) {
      const declared = [...code.matchAll(/@group\(0\) @binding\((\d+)\) var<[^>]+> (\w+):/g)].map((m) => [Number(m[1]), m[2]]);
      expect(declared).toEqual(BINDING_NAMES.map((name, binding) => [binding, name]));
    }
  });

  it("sizes the shader's stack to the rows left", () => {
    expect(unitSearchShader(9)).toContain('const STACK_ROWS = 7u;');
    expect(unitSearchShader(1)).toContain('const STACK_ROWS = 1u;');
    expect(shaderStackRows(unitSearchShader(13))).toBe(11);
  });

  it('keeps the stack in workgroup memory, one word per invocation and row, or in each invocation where asked', () => {
    const shared = unitSearchShader(13);
    expect(shared).toContain('var<workgroup> stack: array<u32, STACK_ROWS * WORKGROUP_SIZE>;');
    expect(shared).toContain('stack[(row - firstRow) * WORKGROUP_SIZE + lane] = free | bit;');
    expect(shared).not.toContain('var stack');
    // Within the 16 KiB of workgroup memory every device has by default, for every rows left a plan may ask
    // (1 to 13: checkGpuWorkPlan); at 13, 11 rows x 64 invocations x 4 bytes.
    const workgroupBytes = (code: string) => shaderStackRows(code) * Number(/const WORKGROUP_SIZE = (\d+)u;/.exec(code)?.[1]) * 4;
    expect(workgroupBytes(shared)).toBe(11 * 64 * 4);
    for (const rows of range(1, 13)) expect(workgroupBytes(unitSearchShader(rows))).toBeLessThanOrEqual(16_384);
    const own = unitSearchShader(13, { stackPlace: 'private' });
    expect(own).toContain('var stack: array<u32, STACK_ROWS>;');
    expect(own).toContain('stack[row - firstRow]');
    expect(own).not.toContain('var<workgroup>');
  });

  it("restores the left diagonals past bit 31 where a unit's shifts can push a bit that matters past it, and only there", () => {
    // n - 2 + rows left >= 32 (webgpu-shader.ts: losesLeftBits).
    for (const [rows, lastLean] of [
      [11, 22],
      [12, 21],
      [13, 20],
    ]) {
      for (const n of [1, 16, lastLean])
        expect(shaderKeepsLdHigh(unitSearchShader(rows, { boardSize: n })), `${rows} rows, n = ${n}`).toBe(false);
      for (const n of [lastLean + 1, 32]) {
        const wide = unitSearchShader(rows, { boardSize: n });
        expect(shaderKeepsLdHigh(wide), `${rows} rows, n = ${n}`).toBe(true);
        expect(wide).toContain('ld = ((ld >> shift) | (ldHigh << (32u - shift))) & ~placed;');
        expect(wide).toContain('ldHigh = (ldHigh << shift) | ((ld | bit) >> (32u - shift));');
        const carried = unitSearchShader(rows, { boardSize: n, carryPair: true });
        expect(carried).toContain('ld = ((ld >> back) | (ldHigh << (32u - back))) & ~placed;');
        expect(carried).toContain('ldHigh = (ldHigh << shift) | ((ld | bit) >> (32u - shift));');
      }
    }
  });

  it('goes back one row a step, or over every row with no square left where asked: the same solutions in 0.7-0.8x the steps', () => {
    expect(unitSearchShader(12)).toBe(unitSearchShader(12, { backOver: false }));
    expect(shaderBacksOver(unitSearchShader(12))).toBe(false);
    for (const carryPair of [false, true]) {
      const over = unitSearchShader(12, { backOver: true, carryPair, boardSize: 22 });
      expect(shaderBacksOver(over)).toBe(true);
      expect(over).toContain('      loop {\n        row -= 1u;');
      expect(over).toContain('        ld = ((ld >> back) | (ldHigh << (32u - back))) & ~placed;');
      expect(over).toContain('        if (free != 0u || row == firstRow) {\n          break;\n        }');
    }
    // The twin, with every restore checked, on units of the plan's first and later subproblems, wide boards too.
    for (const [n, rowsLeft, skip] of [
      [16, 11, 0],
      [18, 11, 20],
      [22, 12, 3],
    ] as const) {
      const prepared = prepareSubproblems(n, planSubproblems(n));
      const stream = new UnitStream(prepared, rowsLeft);
      const batch = new UnitBatch(2048);
      for (let d = 0; d <= skip; d++) stream.fill(batch);
      const wide = shaderKeepsLdHigh(unitSearchShader(rowsLeft, { boardSize: n }));
      const steps = [0, 0];
      let solutions = 0;
      const differs: string[] = [];
      for (let j = 0; j < batch.unitCount; j += 3) {
        const one = searchUnitLikeShader(batch, prepared.rowTable, j, rowsLeft - 2, 2, wide, true, false);
        const over = searchUnitLikeShader(batch, prepared.rowTable, j, rowsLeft - 2, 2, wide, true, true);
        if (over.low !== one.low || over.high !== one.high) differs.push(`n = ${n}, unit ${j}`);
        steps[0] += one.steps;
        steps[1] += over.steps;
        solutions += one.low;
      }
      expect(differs).toEqual([]);
      expect(solutions, `n = ${n}`).toBeGreaterThan(0);
      expect(steps[1] / steps[0], `n = ${n}`).toBeGreaterThan(0.7);
      expect(steps[1] / steps[0], `n = ${n}`).toBeLessThan(0.8);
    }
  });

  it('carries its indexes from step to step where asked: the row as a table index, the stack entry moved with it', () => {
    expect(unitSearchShader(12)).toBe(unitSearchShader(12, { carryIndexes: false }));
    expect(unitSearchShader(12)).not.toContain('var at');
    for (const [stackPlace, stride, base] of [
      ['workgroup', 'WORKGROUP_SIZE', 'lane'],
      ['private', '1u', '0u'],
    ] as const) {
      for (const carryPair of [false, true]) {
        const code = unitSearchShader(12, { carryIndexes: true, stackPlace, carryPair, boardSize: 22 });
        const loop = code.slice(code.indexOf('      continue;\n    }')); // the steps, after a unit's start
        expect(loop).not.toContain('table + row');
        expect(loop).not.toContain('firstRow) *');
        expect(loop).toMatch(/ row -= 1u;\n +at -= /);
        expect(loop).toContain(`at -= ${stride};\n`);
        expect(loop).toMatch(/ row \+= 1u;\n +at \+= /);
        expect(loop).toContain(`at += ${stride};\n`);
        expect(loop).toContain('let tried = stack[at];');
        expect(loop).toContain('stack[at] = free | bit;');
        // A unit's start turns its rows into table indexes once, after reading its own row's pairs.
        expect(code).toContain(`      row += table;\n      lastRow += table;\n      at = ${base};\n      firstRow = row;`);
      }
    }
  });

  it('going back restores the masks that were pushed (on the columns still free), n = 21..32, 11 to 13 rows left', () => {
    let neededHigh = 0;
    for (const rowsLeft of [11, 12, 13]) {
      for (const n of [21, 22, 23, 24, 28, 32]) {
        const prepared = prepareSubproblems(n, planSubproblems(n));
        const stream = new UnitStream(prepared, rowsLeft);
        const batch = new UnitBatch(512);
        const wide = shaderKeepsLdHigh(unitSearchShader(rowsLeft, { boardSize: n }));
        for (let d = 0; d < 2; d++) {
          stream.fill(batch);
          for (let j = 0; j < batch.unitCount; j++) {
            // The twin throws where a row's masks come back other than they were pushed.
            searchUnitLikeShader(batch, prepared.rowTable, j, rowsLeft - 2, 2, wide, true);
            if (wide) {
              try {
                searchUnitLikeShader(batch, prepared.rowTable, j, rowsLeft - 2, 2, false, true);
              } catch {
                neededHigh++;
              }
            }
          }
        }
      }
    }
    expect(neededHigh).toBeGreaterThan(10); // the check sees the bits ldHigh gives back
  });

  it('counts each unit as a recursive search does (n = 20, units of 11 rows)', () => {
    /** The unit searched by recursion: each row's masks live on the call stack, so nothing is restored. */
    function recursiveCount(start: ReturnType<typeof unitStart>): number {
      const { lastRow, attacksOn, shiftBelow } = start;
      const search = (row: number, cols: number, ld: number, rd: number, free: number): number => {
        if (row === lastRow) return free === 0 ? 0 : 1;
        let found = 0;
        for (let left = free; left !== 0; left = (left & (left - 1)) >>> 0) {
          const bit = (left & -left) >>> 0;
          const shift = shiftBelow(row);
          const nextCols = (cols | bit) >>> 0;
          const nextLd = ((ld | bit) << shift) >>> 0;
          const nextRd = (rd | bit) >>> shift;
          found += search(row + 1, nextCols, nextLd, nextRd, ~(nextCols | nextLd | nextRd | attacksOn(row + 1)) >>> 0);
        }
        return found;
      };
      return search(start.row, start.cols, start.ld, start.rd, start.free);
    }
    for (const n of [20]) {
      const prepared = prepareSubproblems(n, planSubproblems(n));
      const stream = new UnitStream(prepared, 11);
      const batch = new UnitBatch(600);
      for (let d = 0; d < 3; d++) stream.fill(batch); // the third batch: units of the largest subproblems, 11 rows left
      let found = 0;
      for (let j = 0; j < batch.unitCount; j += 3) {
        const expected = recursiveCount(unitStart(batch, prepared.rowTable, j));
        const unit = searchUnitLikeShader(batch, prepared.rowTable, j, 9, 2, false, true);
        expect([unit.low, unit.high], `n = ${n}, unit ${j}`).toEqual([expected, 0]);
        found += expected;
      }
      expect(found, `n = ${n}`).toBeGreaterThan(0);
    }
  });

  it('keeps every shift between inner rows at 1 to 3, as the one-word stack assumes', () => {
    const outside: string[] = []; // one expect at the end: millions of them took seconds
    let checked = 0;
    for (const n of range(4, 24)) {
      const { rowTable, subproblems } = prepareSubproblems(n, planSubproblems(n));
      for (let s = 0; s < subproblems.length; s++) {
        for (let k = 0; k + 1 < subproblems[s].innerRows; k++) {
          const shift = rowTable[(s * 32 + k) * 2];
          checked++;
          if (!(shift >= 1 && shift <= 3)) outside.push(`n = ${n}, subproblem ${s}, row ${k}: shift ${shift}`);
        }
      }
    }
    expect(outside).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

type FakeDevice = ReturnType<typeof createFakeDevice>;
const onDevice = (device: FakeDevice): GpuDeviceLike => device as unknown as GpuDeviceLike;

describe("the host's sums: subproblems into the total, the unique count by Burnside's lemma", () => {
  /** Each subproblem's solutions as the GPU sums them (those found whole on the CPU are the counter's own). */
  function gpuSums(n: number, prepared: PreparedSubproblems): Uint32Array {
    const sums = new Uint32Array(prepared.subproblems.length * 2);
    prepared.subproblems.forEach((s, i) => {
      const found = countSubproblem(n, s).solutions - BigInt(prepared.cpuSolutions[i]);
      sums[2 * i] = Number(found & 0xffff_ffffn);
      sums[2 * i + 1] = Number(found >> 32n);
    });
    return sums;
  }

  it.each(range(1, 13))('n = %i: the exact total and unique count, the unique count 0 until every subproblem is in', (n) => {
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const counter = new SubproblemCounter(prepared);
    counter.add(gpuSums(n, prepared), 0, prepared.subproblems.length);
    counter.finishUpTo(prepared.subproblems.length - 1);
    expect(counter.result().unique).toBe(0n);
    // docs/api-details.md (onProgress): the WebGPU engine's unique is 0 until its last report.
    expect(counter.progress(false).unique).toBe(0n);
    counter.finishUpTo(Infinity);
    expect(counter.result()).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(counter.progress(true)).toMatchObject({ fraction: 1, total: TOTAL[n], unique: UNIQUE[n] });
  });

  it('refuses a total that no count can have (one solution too many where a class has fewer than 8 members)', () => {
    const n = 10;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const sums = gpuSums(n, prepared);
    const symmetric = prepared.subproblems.findIndex((s) => s.weight < 8);
    expect(symmetric).toBeGreaterThanOrEqual(0);
    sums[2 * symmetric] += 1;
    const counter = new SubproblemCounter(prepared);
    counter.add(sums, 0, prepared.subproblems.length);
    expect(() => counter.finishUpTo(Infinity)).toThrow(
      new RegExp(`^engine webgpu: the total ${TOTAL[n] + BigInt(prepared.subproblems[symmetric].weight)} cannot be a count of n = 10`),
    );
  });
});

describe("the host's sums past 2^32, and the buffers it frees", () => {
  // Every other test counts n <= 13, whose sums never reach 2^32: dropping the high word passed them all.
  it("adds the high word of a subproblem's sum (a dispatch of 2^32 or more solutions in one subproblem, large n)", () => {
    const n = 10;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const counter = new SubproblemCounter(prepared);
    const sums = new Uint32Array(prepared.subproblems.length * 2);
    sums[0] = 5; // low word of subproblem 0
    sums[1] = 3; // its high word: 3 x 2^32
    counter.add(sums, 0, prepared.subproblems.length);
    counter.add(sums, 0, 1); // a second dispatch of the same subproblem adds again
    counter.finishUpTo(1);
    const expected = (BigInt(prepared.cpuSolutions[0]) + 2n * (5n + 3n * 2n ** 32n)) * BigInt(prepared.subproblems[0].weight);
    expect(counter.result().total).toBe(expected);
  });

  it('adds a sum whose low word is 0 (exactly 2^32 solutions in a subproblem)', () => {
    const n = 10;
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const counter = new SubproblemCounter(prepared);
    const sums = new Uint32Array(prepared.subproblems.length * 2);
    sums[1] = 1; // subproblem 0: low word 0, high word 1
    sums[3] = 2; // subproblem 1: low word 0, high word 2
    counter.add(sums, 0, prepared.subproblems.length);
    counter.finishUpTo(2);
    const [first, second] = prepared.subproblems;
    const expected =
      (BigInt(prepared.cpuSolutions[0]) + 2n ** 32n) * BigInt(first.weight) +
      (BigInt(prepared.cpuSolutions[1]) + 2n * 2n ** 32n) * BigInt(second.weight);
    expect(counter.result().total).toBe(expected);
  });

  it('destroys every buffer it made once the count ends, the slots that dispatches outgrew included', async () => {
    const device = createFakeDevice();
    const made: { destroyed: boolean }[] = [];
    const stand = device as unknown as {
      createBuffer: (descriptor: unknown) => { destroyed: boolean };
    };
    const createBuffer = stand.createBuffer;
    stand.createBuffer = (descriptor) => {
      const buffer = createBuffer(descriptor);
      made.push(buffer);
      return buffer;
    };
    let t = 0;
    const plan = smallPlan({ maxUnitsPerDispatch: 1024, growth: 2 });
    const r = await countOnDevice(13, device as unknown as GpuDeviceLike, DEFAULT_LIMITS, { plan, clock: () => (t += 1) });
    expect(r).toEqual({ total: 73712n, unique: 9233n });
    expect(made.length).toBeGreaterThan(1 + 3 * 7); // slots grew, so some were outgrown
    expect(made.filter((buffer) => !buffer.destroyed)).toHaveLength(0);
  });
});

describe('the dispatch loop on a stand-in device (dispatches run with the CPU twin)', () => {
  it.each(range(1, 12))('n = %i in dispatches of at most 64 units, 3 in flight: exact, in order, as the stream cut them', async (n) => {
    const device = createFakeDevice();
    const plan = smallPlan({ rowsLeft: 4 });
    const reported: number[] = [];
    const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, onDispatch: (d) => reported.push(d.units) });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    const prepared = prepareSubproblems(n, planSubproblems(n));
    const stream = new UnitStream(prepared, plan.rowsLeft);
    const planned: number[] = [];
    for (let count = stream.fill(new UnitBatch(64)); count > 0; count = stream.fill(new UnitBatch(64))) planned.push(count);
    const ran = device.log.dispatches.map((d) => d.units);
    expect(ran).toEqual(planned);
    expect(reported).toEqual(planned);
    // Whole branches only: a dispatch stops short of 64 units only where the next branch would not fit.
    expect(ran.slice(0, -1).every((units) => units > 64 - 32 && units <= 64)).toBe(true);
    expect(device.log.dispatches.every((d) => d.workgroups === 1)).toBe(true);
    expect(device.log.errors).toEqual([]);
    // The stack holds the rows above the last of the deepest unit.
    const deepest = Math.min(plan.rowsLeft, Math.max(1, ...prepared.innerRows));
    expect(device.log.stackRows).toEqual([Math.max(1, deepest - 2)]);
  });

  it('n = 1..12 in workgroups of 32: exact, each dispatch as many workgroups as its invocations need', async () => {
    for (const n of range(1, 12)) {
      const device = createFakeDevice();
      const plan = smallPlan({ rowsLeft: 6, unitsPerDispatch: 256, maxUnitsPerDispatch: 256, invocations: 96, tailPerInvocation: 1 });
      const counted = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, layout: { workgroupSize: 32 } });
      expect(counted, `n = ${n}`).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
      expect(device.log.errors).toEqual([]);
      for (const { units, workgroups } of device.log.dispatches) expect(workgroups).toBe(Math.ceil(Math.min(units, 96) / 32));
    }
  });

  // The other tests here run the default, lookahead 2.
  it.each([0, 1, 3])(
    'n = 1..12 with lookahead %i: exact on the stand-in device, which runs the lookahead the shader declares',
    async (lookahead) => {
      for (const n of range(1, 12)) {
        const device = createFakeDevice();
        const plan = smallPlan({ rowsLeft: 6, unitsPerDispatch: 256, maxUnitsPerDispatch: 256, tailPerInvocation: 1 });
        expect(await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, layout: { lookahead } })).toEqual({
          total: TOTAL[n],
          unique: UNIQUE[n],
        });
        expect(device.log.errors).toEqual([]);
      }
    },
  );

  it('n = 1..12 going back over every row with no square left, the pair carried or not: exact on the stand-in device', async () => {
    for (const carryPair of [false, true]) {
      for (const n of range(1, 12)) {
        const device = createFakeDevice();
        const plan = smallPlan({ rowsLeft: 6, unitsPerDispatch: 256, maxUnitsPerDispatch: 256, tailPerInvocation: 1 });
        const layout = { backOver: true, carryPair };
        expect(await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, layout }), `n = ${n}`).toEqual({
          total: TOTAL[n],
          unique: UNIQUE[n],
        });
        expect(device.log.errors).toEqual([]);
        if (n >= 6) expect(device.log.backsOver).toEqual([true]); // the stand-in ran the shader's own way back
      }
    }
  });

  it('keeps 3 dispatches queued while work remains, and reports progress in order, ending at 1 with the exact counts', async () => {
    const n = 13;
    const device = createFakeDevice();
    const seen: Progress[] = [];
    const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, {
      plan: smallPlan({ unitsPerDispatch: 256, maxUnitsPerDispatch: 256, invocations: 128 }),
      onProgress: (p) => seen.push(p),
    });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(device.log.dispatches.length).toBeGreaterThan(10);
    expect(device.log.mostQueued).toBe(3);
    // Two workgroups per dispatch take all of its units (the last dispatch has fewer than 128).
    expect(device.log.dispatches.slice(0, -1).every((d) => d.units > 256 - 32 && d.units <= 256 && d.workgroups === 2)).toBe(true);
    // Every dispatch after the first two went in behind two others still queued.
    expect(device.log.dispatches.slice(2, -2).every((d) => d.queuedBefore === 2)).toBe(true);
    const fractions = seen.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const totalsSoFar = seen.map((p) => p.total);
    expect(totalsSoFar).toEqual([...totalsSoFar].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(seen.at(-1)).toMatchObject({ fraction: 1, finished: 1105, units: 1105, total: TOTAL[n], unique: UNIQUE[n] });
  });

  it.each([1, 2, 3, 4, 5])('n = %i: progress starts at 0 and ends at 1 with the exact counts, also with no subproblems', async (n) => {
    const seen: Progress[] = [];
    const r = await countOnDevice(n, onDevice(createFakeDevice()), DEFAULT_LIMITS, { onProgress: (p) => seen.push(p) });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(seen[0]).toMatchObject({ fraction: 0, finished: 0, total: 0n });
    expect(seen.at(-1)).toMatchObject({ fraction: 1, total: TOTAL[n], unique: UNIQUE[n] });
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('reads no key through Object.prototype: not its own settings, not in the descriptors it gives WebGPU', async () => {
    const device = createFakeDevice();
    // Every descriptor, and each object in it, without a prototype: a browser's WebGPU reads a member left out
    // (a binding's offset and size, a pipeline's constants) through Object.prototype.
    const prototypes: unknown[] = [];
    // The descriptors' own dictionaries (a pipeline's compute stage, a bind group's entries and their resources),
    // not the GPU objects they name (buffers, modules, layouts).
    const noted = (descriptor: object): void => {
      prototypes.push(Object.getPrototypeOf(descriptor));
      const { compute, entries, resource } = descriptor as { compute?: object; entries?: object[]; resource?: object };
      for (const inner of [compute, resource, ...(entries ?? [])]) if (inner) noted(inner);
    };
    const spied = device as unknown as Record<string, (descriptor: object) => unknown>;
    for (const name of ['createBuffer', 'createShaderModule', 'createComputePipelineAsync', 'createBindGroup']) {
      const original = spied[name];
      spied[name] = (descriptor: object) => (noted(descriptor), original(descriptor));
    }
    // Before: `plan` was taken for the count's plan (a RangeError naming plan.rowsLeft), `offset` reached the bindings.
    const keys = { plan: 1, layout: { workgroupSize: 7 }, offset: 1, size: 1, constants: { x: 1 }, lookahead: 9 };
    for (const [key, value] of Object.entries(keys)) Object.defineProperty(Object.prototype, key, { value, configurable: true });
    try {
      expect(await countOnDevice(11, onDevice(device), DEFAULT_LIMITS)).toEqual({ total: TOTAL[11], unique: UNIQUE[11] });
    } finally {
      for (const key of Object.keys(keys)) delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(prototypes.length).toBeGreaterThan(10);
    expect(prototypes.filter((p) => p !== null)).toEqual([]);
  });

  it('has the driver compile the shader while the host makes the buffers and the first units', async () => {
    const device = createFakeDevice();
    expect(await countOnDevice(13, onDevice(device), DEFAULT_LIMITS)).toEqual({ total: TOTAL[13], unique: UNIQUE[13] });
    // The row table, then the first dispatch's branches, their first units, block index, sums, read-back, sizes and
    // counter: all before compiling ends.
    expect(device.log.calls.slice(0, 10)).toEqual(['compile', ...Array<string>(1 + 7).fill('createBuffer'), 'compiled']);
  });

  // The dispatch loop's clock is a counter here, so the sizes it picks do not depend on this machine's speed.
  const ticking = (msPerCall: number): (() => number) => {
    let now = 0;
    return () => (now += msPerCall);
  };

  it.each([2, 4])(
    "grows the dispatches at most %ix a step, up to the plan's most, while they take less than plan.dispatchMs",
    async (growth) => {
      const n = 13;
      const device = createFakeDevice();
      const plan = smallPlan({ maxUnitsPerDispatch: 1024, growth });
      const timed: number[] = [];
      const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, {
        plan,
        clock: ticking(1), // every dispatch seems to take a few ms
        onDispatch: (d) => timed.push(d.gpuMs),
      });
      expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
      expect(device.log.errors).toEqual([]);
      const sizes = device.log.dispatches.map((d) => d.units);
      // The first three are filled before any is timed; each later one holds up to `growth` times the one timed
      // before it (three back), and whole branches of up to 32 units, so it stops at most 31 short of that.
      expect(sizes.slice(0, 3).every((units) => units <= 64)).toBe(true);
      for (let k = 3; k < sizes.length - 1; k++) {
        const wanted = Math.min(1024, Math.max(64, growth * sizes[k - 3]));
        expect(sizes[k]).toBeLessThanOrEqual(wanted);
        expect(sizes[k]).toBeGreaterThan(wanted - 32);
      }
      expect(Math.max(...sizes)).toBeGreaterThan(1024 - 32);
      expect(timed.every((ms) => ms > 0 && ms < 10)).toBe(true);
      // Each slot grew as the dispatches did: more buffers than the first three slots' 7 each.
      expect(device.log.calls.filter((c) => c === 'createBuffer').length).toBeGreaterThan(1 + 3 * 7);
    },
  );

  it("times each dispatch's GPU share from the previous read-back: the shares add up to no more than the count's time", async () => {
    const n = 13;
    let now = 0;
    const clock = (): number => (now += 1);
    const dispatches: { ms: number; gpuMs: number }[] = [];
    const r = await countOnDevice(n, onDevice(createFakeDevice()), DEFAULT_LIMITS, {
      plan: smallPlan({ maxUnitsPerDispatch: 1024 }),
      clock,
      onDispatch: (d) => dispatches.push(d),
    });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    expect(dispatches.length).toBeGreaterThan(3); // more than the ring holds: later ones were queued behind others
    // Three in flight: a dispatch's time from its submission includes its wait behind the one before it.
    expect(dispatches.some((d) => d.gpuMs < d.ms)).toBe(true);
    for (const d of dispatches) expect(d.gpuMs).toBeGreaterThan(0);
    const gpuMs = dispatches.reduce((sum, d) => sum + d.gpuMs, 0);
    expect(gpuMs).toBeLessThanOrEqual(now);
  });

  it('with finer tails: exact for n = 1..13, the first dispatch as the stream cut it, each within its room, paced by whole units', async () => {
    const plan = smallPlan({ rowsLeft: 6, maxUnitsPerDispatch: 512, tailPerInvocation: 1 });
    for (const n of range(1, 13)) {
      const device = createFakeDevice();
      const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, clock: ticking(1) });
      expect(r, `n = ${n}`).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
      expect(device.log.errors).toEqual([]);
      const sizes = device.log.dispatches.map((d) => d.units);
      const plainFirst = new UnitStream(prepareSubproblems(n, planSubproblems(n)), plan.rowsLeft).fill(new UnitBatch(64));
      expect(sizes[0] ?? 0).toBe(plainFirst); // made before the GPU starts: no tail (n = 1: no dispatch)
      expect(sizes.every((units) => units <= unitRoom(plan, plan.maxUnitsPerDispatch, DEFAULT_LIMITS))).toBe(true);
      if (n === 13) {
        // Paced by what they hold, not by their (finer, more) units: they grow to the plan's most and no further.
        expect(Math.max(...sizes)).toBeGreaterThan(plan.maxUnitsPerDispatch);
        const grown = device.log.calls.filter((c) => c === 'createBuffer').length;
        expect(grown).toBeGreaterThan(1 + 3 * 7);
      }
    }
  });

  it("keeps the dispatches at the plan's fewest units while each takes longer than plan.dispatchMs", async () => {
    const n = 11;
    const device = createFakeDevice();
    const plan = smallPlan({ maxUnitsPerDispatch: 1024 });
    const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, clock: ticking(1000) });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    const sizes = device.log.dispatches.map((d) => d.units);
    expect(sizes.every((units) => units <= 64)).toBe(true);
    expect(sizes.slice(0, -1).every((units) => units > 64 - 32)).toBe(true);
    expect(device.log.calls.filter((c) => c === 'createBuffer')).toHaveLength(1 + 3 * 7); // no slot outgrew its buffers
  });

  // Before, a dispatch never held fewer than the plan's fewest units, however long each took (a slow GPU's watchdog).
  it("shrinks the dispatches below the plan's fewest, to an eighth of them, while each takes longer than SLOW_DISPATCH_MS", async () => {
    const n = 12;
    const device = createFakeDevice();
    const plan = smallPlan({ rowsLeft: 4, unitsPerDispatch: 512, maxUnitsPerDispatch: 1024 });
    const r = await countOnDevice(n, onDevice(device), DEFAULT_LIMITS, { plan, clock: ticking(1000) });
    expect(r).toEqual({ total: TOTAL[n], unique: UNIQUE[n] });
    const sizes = device.log.dispatches.map((d) => d.units);
    // The first three are filled before any is timed; each later one at 64 units (whole branches: down to 33).
    expect(sizes.slice(0, 3).every((units) => units > 512 - 32 && units <= 512)).toBe(true);
    expect(sizes.length).toBeGreaterThan(6);
    expect(sizes.slice(3, -1).every((units) => units > 64 - 32 && units <= 64)).toBe(true);
  });

  it('with the default plan, n = 12 runs in one dispatch of all its units', async () => {
    const device = createFakeDevice();
    expect(await countOnDevice(12, onDevice(device), DEFAULT_LIMITS)).toEqual({ total: TOTAL[12], unique: UNIQUE[12] });
    expect(device.log.dispatches).toHaveLength(1);
    expect(device.log.stackRows).toEqual([7]); // n = 12 has at most 9 inner rows, fewer than the plan's 11
  });

  // A dispatch of no invocations searches nothing and leaves its counts as they were: never a count, always a refusal.
  it.each([
    ['invocations', 0],
    ['invocations', Number.NaN],
    ['invocations', undefined],
    ['invocations', 1.5],
    ['unitsPerDispatch', 0],
    ['unitsPerDispatch', 31], // a dispatch must hold a whole branch: up to 32 units
    ['inFlight', 0],
    ['rowsLeft', 0],
    ['rowsLeft', 14], // the stack of 13 rows left is what the workgroup memory is sized for
    ['tailPerInvocation', -1],
    ['tailPerInvocation', 65],
    ['tailPerInvocation', 0.5],
    ['growth', 0],
    ['growth', 17],
  ])('refuses a plan whose %s is %s, before it touches the device', async (field, value) => {
    const device = createFakeDevice();
    const plan = smallPlan({ unitsPerDispatch: 256, maxUnitsPerDispatch: 256, [field]: value });
    const outcome = await countOnDevice(10, onDevice(device), DEFAULT_LIMITS, { plan }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(RangeError);
    const least = field === 'unitsPerDispatch' ? 32 : field === 'tailPerInvocation' ? 0 : 1;
    expect((outcome as Error).message).toMatch(
      new RegExp(`^plan\\.${field} must be an integer from ${least} to \\d+, got ${String(value)}$`),
    );
    expect(device.log.calls).toEqual([]);
  });

  it.each([
    [DEFAULT_LIMITS, (1 << 25) + 64, 1 << 25], // 33,554,432: the most units a dispatch keeps room for (128 MiB of branches)
    [{ ...DEFAULT_LIMITS, maxStorageBufferBindingSize: 1 << 20 }, 65_600, 65_536], // 1 MiB holds 65,536 branches of 16 bytes
  ])('refuses a plan whose dispatches outgrow their buffers (%#: %i units), before it touches the device', async (limits, units, most) => {
    const device = createFakeDevice();
    const plan = smallPlan({ unitsPerDispatch: 256, maxUnitsPerDispatch: units });
    const outcome = await countOnDevice(10, onDevice(device), limits, { plan }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(RangeError);
    expect((outcome as Error).message).toBe(`plan.maxUnitsPerDispatch must be an integer from 256 to ${most}, got ${units}`);
    expect(device.log.calls).toEqual([]);
    const fits = await countOnDevice(10, onDevice(createFakeDevice()), limits, { plan: { ...plan, maxUnitsPerDispatch: most } });
    expect(fits.total).toBe(724n);
  });

  it('rejects with the AbortError at once when aborted while a dispatch is still running, and submits nothing after', async () => {
    const device = createFakeDevice({ hold: true }); // no dispatch ever finishes
    const controller = new AbortController();
    const counting = countOnDevice(12, onDevice(device), DEFAULT_LIMITS, {
      signal: controller.signal,
      plan: smallPlan({ rowsLeft: 4 }),
    });
    // Aborted once dispatches are submitted (held: none finishes), whenever that is.
    while (device.log.submits === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const submitted = device.log.submits;
    await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
    // They finish now, and the host reads none back: nothing more is submitted. Before, the test destroyed the device
    // first, and then checked that no dispatch had run: the stand-in runs none on a destroyed device, whatever the host did.
    device.releaseHeld();
    await device.idle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(device.log.dispatches.length).toBeGreaterThan(0);
    expect(device.log.submits).toBe(submitted);
    device.destroy();
  });

  it('lets the event loop run while it makes a big dispatch: an abort then stops the fill, before its end', async () => {
    // n = 20's first dispatch made 4 million units at once (about 1.5 million steps of the walk, 30-180 ms on the
    // host): an abort waited for all of it. Made in slices now, it is seen at the first turn of the event loop.
    const device = createFakeDevice({ hold: true });
    const controller = new AbortController();
    const fills = { begun: 0, ended: 0, atAbort: -1 };
    const { begin, end } = UnitStream.prototype;
    UnitStream.prototype.begin = function (...args: Parameters<typeof begin>) {
      fills.begun++;
      return begin.apply(this, args);
    };
    UnitStream.prototype.end = function () {
      fills.ended++;
      return end.apply(this);
    };
    try {
      planSubproblems(20); // made now: the count's plan, made in slices too, is not what this test aborts
      const plan = smallPlan({ rowsLeft: 12, unitsPerDispatch: 1 << 22, maxUnitsPerDispatch: 1 << 22, invocations: 1 << 16 });
      const counting = countOnDevice(20, onDevice(device), DEFAULT_LIMITS, { signal: controller.signal, plan });
      setImmediate(() => {
        fills.atAbort = fills.ended;
        controller.abort();
      });
      await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
      expect(fills).toEqual({ begun: 1, ended: 0, atAbort: 0 });
      expect(device.log.submits).toBe(0);
    } finally {
      Object.assign(UnitStream.prototype, { begin, end });
      device.destroy();
    }
  });

  it('makes its plan of subproblems in slices: an abort right after the call stops it before any unit or buffer', async () => {
    // planSubproblems(20) took 35-105 ms cold on the host, all on the calling thread before the first turn of the
    // event loop, and an abort waited for it. n = 25: a plan no other test in this file makes, so not one made already.
    const device = createFakeDevice({ hold: true });
    const controller = new AbortController();
    const { begin } = UnitStream.prototype;
    let fills = 0;
    UnitStream.prototype.begin = function (...args: Parameters<typeof begin>) {
      fills++;
      return begin.apply(this, args);
    };
    try {
      const counting = countOnDevice(25, onDevice(device), DEFAULT_LIMITS, { signal: controller.signal });
      controller.abort();
      await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
      expect(fills).toBe(0);
      expect(device.log.calls.filter((call) => call === 'createBuffer')).toEqual([]);
      expect(device.log.submits).toBe(0);
    } finally {
      UnitStream.prototype.begin = begin;
      device.destroy();
    }
  });

  it("rejects with the signal's reason when aborted between dispatches, and stops submitting", async () => {
    const device = createFakeDevice();
    const controller = new AbortController();
    const reason = new Error('stop');
    let dispatches = 0;
    let submittedAtAbort = -1;
    const outcome = await countOnDevice(12, onDevice(device), DEFAULT_LIMITS, {
      signal: controller.signal,
      plan: smallPlan({ rowsLeft: 4, inFlight: 2 }),
      onDispatch: () => {
        if (++dispatches !== 3) return;
        submittedAtAbort = device.log.submits;
        controller.abort(reason);
      },
    }).catch((error: unknown) => error);
    expect(outcome).toBe(reason);
    // Nothing submitted after the abort, once what was queued has run. Before, the device was destroyed at once and
    // its dispatches counted: one submitted after the abort never ran there, so it was not seen.
    await device.idle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(device.log.submits).toBe(submittedAtAbort);
    device.destroy();
  });

  it('rejects with the AbortError at once when aborted while the shader compiles, and tells what the device still does', async () => {
    let compile: () => void = () => undefined;
    const device = createFakeDevice({ compiled: new Promise<void>((resolve) => (compile = resolve)) }); // ends when told
    const controller = new AbortController();
    const held: Promise<unknown>[] = [];
    const counting = countOnDevice(12, onDevice(device), DEFAULT_LIMITS, {
      signal: controller.signal,
      holdDevice: (work) => held.push(work),
    });
    setTimeout(() => controller.abort(), 0);
    await expect(counting).rejects.toMatchObject({ name: 'AbortError' });
    expect(device.log.dispatches).toEqual([]);
    // The compile, which webgpu.ts waits for before it gives the device back (a device destroyed under it crashes Dawn).
    expect(held.length).toBe(1);
    // Still pending a turn of the event loop later (a settled promise would have said so by then), and settled once
    // the compile ends: it is the compile. Before, a race against a resolved promise said 'running' whatever it held.
    let settled = false;
    held[0].then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    compile();
    await held[0];
    expect(settled).toBe(true);
  });
});

describe('a GPU that fails mid-count: ERR_NQUEENS_WEBGPU_FAILED, never a total', () => {
  const gpuFailed = (message: RegExp) =>
    expect.objectContaining({ name: 'Error', code: 'ERR_NQUEENS_WEBGPU_FAILED', message: expect.stringMatching(message) });
  const plan = smallPlan({ rowsLeft: 4 }); // n = 12 in many small dispatches, three slots of buffers
  const counted = (device: FakeDevice, options = {}) =>
    countOnDevice(12, onDevice(device), DEFAULT_LIMITS, { plan, ...options }).catch((error: unknown) => error);

  // Before, each resolved with a wrong total (14,184 for 14,200 where a slot's buffer failed): WebGPU does not throw,
  // it skips the work that uses a buffer it could not allocate, and the read-back still maps, as zeros.
  it.each([
    [
      'a buffer of the first dispatch cannot be allocated',
      { outOfMemory: (k: number) => k === 2 },
      /^engine webgpu: the GPU could not allocate the first dispatch: could not allocate \d+ bytes \(stand-in\)$/,
    ],
    [
      'a buffer of a later slot cannot be allocated',
      { outOfMemory: (k: number) => k === 9 },
      /^engine webgpu: the GPU could not allocate a dispatch of \d+ units, or refused it: could not allocate \d+ bytes/,
    ],
    [
      'the 4th submission is refused',
      { refuseSubmit: (k: number) => k === 4 },
      /^engine webgpu: the GPU refused a dispatch: submit refused \(stand-in\)$/,
    ],
  ])('%s', async (_what, failing, message) => {
    const device = createFakeDevice(failing);
    expect(await counted(device)).toEqual(gpuFailed(message));
    expect(device.log.uncaptured).toEqual([]); // every error was caught in the engine's scopes
  });

  it('names the out-of-memory error where the validation errors that follow from it came back too', async () => {
    // Scopes as WebGPU keeps them: each error in the innermost open scope of its filter, popped innermost first.
    const scopes: { filter: string; error: { message: string } | null }[] = [];
    const device = {
      pushErrorScope: (filter: string) => scopes.push({ filter, error: null }),
      popErrorScope: () => Promise.resolve(scopes.pop()!.error),
    };
    const raise = (filter: string, message: string) =>
      ([...scopes].reverse().find((open) => open.filter === filter)!.error ??= { message });
    const { checked } = inErrorScopes(device as unknown as GpuDeviceLike, 'the GPU refused a dispatch', () => {
      raise('out-of-memory', 'could not allocate 64 bytes (stand-in)');
      raise('validation', 'invalid buffer used in a bind group (stand-in)');
    });
    const outcome = await checked.catch((error: unknown) => error);
    expect(outcome).toEqual(gpuFailed(/^engine webgpu: the GPU refused a dispatch: could not allocate 64 bytes \(stand-in\)$/));
    expect((outcome as Error).cause).toEqual({ message: 'could not allocate 64 bytes (stand-in)' });
    expect(scopes).toEqual([]);
  });

  it('the shader refused: says so, with the driver’s error as the cause', async () => {
    const outcome = await counted(createFakeDevice({ refuseShader: 'unresolved call target (stand-in)' }));
    expect(outcome).toEqual(gpuFailed(/^engine webgpu: the shader did not compile: unresolved call target \(stand-in\)$/));
    expect((outcome as Error).cause).toMatchObject({ name: 'OperationError' });
  });

  // Before, a lost device whose read-backs never settle held the count forever.
  it('the device lost between dispatches, its read-backs never settling: rejects saying the device was lost', async () => {
    const device = createFakeDevice();
    let dispatches = 0;
    const outcome = await counted(device, { onDispatch: () => ++dispatches === 2 && device.loseForTest() });
    expect(outcome).toEqual(
      gpuFailed(
        /^engine webgpu: the GPU device was lost, as a driver reset or a GPU watchdog does; no total was taken from it: lost \(stand-in\)$/,
      ),
    );
    expect(dispatches).toBe(2);
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

/** Runs `body` with `globalThis.navigator` a stand-in holding `gpu`, then puts back what was there. */
async function withNavigatorGpu(gpu: unknown, body: () => Promise<void>): Promise<void> {
  const scope = globalThis as { navigator?: unknown };
  const had = Object.getOwnPropertyDescriptor(scope, 'navigator');
  Object.defineProperty(scope, 'navigator', { value: { gpu }, configurable: true, writable: true });
  try {
    await body();
  } finally {
    if (had) Object.defineProperty(scope, 'navigator', had);
    else delete scope.navigator;
  }
}

describe('a platform that refuses an adapter or a device', () => {
  it.each(['adapter', 'device'] as const)('its %s refused: unavailable, with its code and the platform error as cause', async (refused) => {
    const { count } = await import('../dist/index.js');
    const cause = new DOMException('refused by the stand-in', 'OperationError');
    const device = () => Promise.reject(cause);
    const gpu = { requestAdapter: () => (refused === 'adapter' ? Promise.reject(cause) : Promise.resolve({ requestDevice: device })) };
    await withNavigatorGpu(gpu, async () => {
      const outcome = await count(8, { engine: 'webgpu' }).catch((error: unknown) => error);
      // Before: the platform's own error, with no code.
      expect(outcome).toMatchObject({ code: 'ERR_NQUEENS_WEBGPU_UNAVAILABLE', cause });
      expect((outcome as Error).message).toBe(
        `engine 'webgpu' is unavailable here: ${refused === 'adapter' ? 'an adapter' : 'a device'} was refused (refused by the stand-in). Use engine 'wasm' or 'js' to count on the CPU.`,
      );
    });
  });
});

describe("engine 'webgpu' in the API, on a stand-in GPU", () => {
  it('reads no callback through Object.prototype (onDispatch set there is never called, nor a number there)', async () => {
    const { count } = await import('../dist/index.js');
    const device = createFakeDevice();
    const gpu = { requestAdapter: () => Promise.resolve({ limits: DEFAULT_LIMITS, requestDevice: () => Promise.resolve(device) }) };
    let calls = 0;
    await withNavigatorGpu(gpu, async () => {
      for (const value of [() => calls++, 5]) {
        Object.defineProperty(Object.prototype, 'onDispatch', { value, configurable: true, writable: true });
        // Before: the first was called for each dispatch, the second failed the count with an uncoded TypeError.
        expect(await count(11, { engine: 'webgpu' })).toMatchObject({ total: TOTAL[11], unique: UNIQUE[11], engine: 'webgpu' });
      }
    }).finally(() => delete (Object.prototype as { onDispatch?: unknown }).onDispatch);
    expect(calls).toBe(0);
  });
});

describe("engine 'webgpu' checks its count against the published one", () => {
  it.each(range(6, 11))('n = %i: a GPU that miscounts and says nothing fails the count (never a wrong total), coded', async (n) => {
    const { count } = await import('../dist/index.js');
    const gpu = (miscount: boolean) => ({
      requestAdapter: () =>
        Promise.resolve({ limits: DEFAULT_LIMITS, requestDevice: () => Promise.resolve(createFakeDevice({ miscount })) }),
    });
    // No device waits from a count before (it would be taken instead of the stand-in's).
    setDeviceIdleMs(0);
    onTestFinished(() => setDeviceIdleMs(undefined));
    await vi.waitFor(() => expect(holdsIdleDevice()).toBe(false));
    await withNavigatorGpu(gpu(true), async () => {
      const outcome = await count(n, { engine: 'webgpu' }).catch((error: unknown) => error);
      expect(outcome).toMatchObject({ code: 'ERR_NQUEENS_WEBGPU_FAILED' });
      expect((outcome as Error).message).toMatch(
        new RegExp(
          `^engine webgpu: the GPU counted \\d+ solutions, \\d+ unique, for n = ${n}, but n = ${n} has ${TOTAL[n]}, ${UNIQUE[n]} unique \\(OEIS A000170, A002562\\)`,
        ),
      );
    });
    // The device that miscounted is not kept for the next count: a sound one counts it exactly.
    await withNavigatorGpu(gpu(false), async () => {
      expect(await count(n, { engine: 'webgpu' })).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n] });
    });
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
