// The WebGPU engine's compute shader (WGSL): each invocation takes work units
// (src/search/webgpu/webgpu-units.ts) from its dispatch until none are left,
// makes each from its branch, searches it to the last row, and adds what it
// found to its subproblem's sum, two 32-bit words (WGSL has no 64-bit
// integers) added with atomics.
// test/fixtures/webgpu/cpu-twin.mjs runs the same loop on the CPU: change both.
//
// Shaped after the published GPU solvers (NQueensFAF's OpenCL kernel, the
// persistent CUDA counters with their stacks in shared memory):
// - no recursion: one loop, where every step places the lowest free queen,
//   after going back a row first where the current one has none left, so the
//   invocations of a wave stay on the same path as long as their searches
//   allow (a step that only goes back is a quarter of all steps, and going
//   on back in the same step took 1.6x the time on an H100: backOver);
// - a queen on the second-to-last row is counted at once where the last row
//   has its square free, without a step there, and a queen whose next row has
//   no free square is never pushed (lookahead, below);
// - the stack, exactly as deep as the refinement left rows (generated per
//   count), sits in workgroup memory, one word per invocation and row (the
//   squares tried; going back shifts the diagonals back, as NQueensFAF
//   does), so neighbouring invocations touch neighbouring words: on an H100
//   that took 0.4-0.5x the time of a private stack (2026-11-27,
//   bench/gpu-layouts.mjs);
// - an invocation whose unit ends takes the next from an atomic counter, so
//   a wave does not idle behind its longest unit; it finds the unit's branch
//   by a binary search over the few branches its block of 32 units spans
//   (at most 6 loads, against the thousands of steps of a unit);
// - an invocation sums its units while they belong to one subproblem and adds
//   the sum when the next belongs to another: the host reads back a few words
//   per subproblem instead of two per unit, and adds no unit itself;
// - neighbouring units belong to the same subproblem, so the invocations'
//   row-table reads hit the same addresses.

import { rangeError } from '../../shared/errors.js';
import { ownKeysOnly } from '../../shared/own-keys.js';
import { TABLE_ROWS, UNITS_PER_BLOCK } from './webgpu-units.js';

/** Invocations per workgroup: a multiple of every common wave size (32, 64). */
export const WORKGROUP_SIZE = 64;

/** The shader's buffers in binding order (group 0), by the names its WGSL gives them: what a host binds. */
export const BINDING_NAMES = ['branches', 'firstUnit', 'rowTable', 'sums', 'sizes', 'handedOut', 'blockBranch'] as const;

/**
 * Where an invocation keeps its stack. 'workgroup': in workgroup memory,
 * interleaved so that neighbouring invocations use neighbouring words (the
 * default, as the fast CUDA counters do); 'private': in the invocation's own
 * array, which drivers put in scratch memory once it is indexed by a
 * variable (`bench/gpu-layouts.mjs --stacks` compares the two on a GPU).
 */
type StackPlace = 'workgroup' | 'private';

/** How a shader is laid out; each part defaults to the engine's choice. */
export interface ShaderLayout {
  readonly stackPlace?: StackPlace;
  /** Rows below a queen that must keep a free square before it is pushed (0 to 3). */
  readonly lookahead?: number;
  /** The board's size: where n - 2 + maxRowsLeft >= 32, going back also restores the left diagonals' bits shifted past bit 31. */
  readonly boardSize?: number;
  /** Invocations per workgroup (WORKGROUP_SIZE; bench/gpu-layouts.mjs compares others on a GPU). */
  readonly workgroupSize?: number;
  /**
   * Whether a push keeps the next row's table pair it loaded (for the lookahead, or to push) as that row's
   * pair, so that a step after a push reads no table (searchLoop). Off by default: not yet timed on a GPU.
   */
  readonly carryPair?: boolean;
  /**
   * Whether a step that goes back goes on back over every row with no square left, to the first that has one
   * (or the unit's first row), then places there: every step but a unit's last places a queen. Else a step goes
   * back one row, and where that row has no square left either, the step places nothing (a quarter of all
   * steps at n = 17 and 19, with the CPU twin): the engine's, as going back over rows was slower on a GPU
   * (DEFAULT_BACK_OVER).
   */
  readonly backOver?: boolean;
  /**
   * Whether the loop keeps its row as an index into the row table (the subproblem's base added once, where a
   * unit starts) and its stack entry's index from step to step, instead of adding the base at each table read
   * and computing the entry from the row at each stack access (DEFAULT_CARRY_INDEXES).
   */
  readonly carryIndexes?: boolean;
}

/** Most rows below a queen the shader may check before pushing it (unitSearchShader's `lookahead`). */
const MAX_LOOKAHEAD = 3;

/**
 * The lookahead the engine uses: a queen whose next row has no free square
 * is not pushed. With the shader's loop on the CPU that is 0.86x the loop
 * steps and 0.67x the pushes (n = 16 and 17), with no more reads per step;
 * on lavapipe pinned to one core, 0.90-0.92x the time of 0 at n = 15 (three
 * runs of 5 interleaved rounds, 2026-11-27). Not yet timed on a GPU.
 */
const DEFAULT_LOOKAHEAD = 2;

/**
 * Whether the engine's steps go back over every row with no square left
 * (ShaderLayout.backOver): no. It takes 0.74x the loop steps (the CPU twin,
 * n = 16 and 18), but on an H100 whole counts of n = 20 took 3.96-3.99 s
 * against 2.39-2.68 s (2026-11-28, bench/gpu-layouts.mjs --backs, 3
 * rounds): the lanes of a wave that go back several rows hold up the rest.
 */
const DEFAULT_BACK_OVER = false;

/**
 * Whether the engine's loop carries its indexes from step to step
 * (ShaderLayout.carryIndexes): not yet. On an H100 (2026-11-28,
 * bench/gpu-layouts.mjs --indexes, 5 interleaved rounds) whole counts of
 * n = 20 took 2,405-2,765 ms with them (median 2,441), 2,442-2,648 without
 * (median 2,563): within the spread between runs.
 */
const DEFAULT_CARRY_INDEXES = false;

/**
 * The shader for units with at most `maxRowsLeft` rows to search. With a
 * `lookahead` of k >= 1, a queen is pushed only where each of the k inner
 * rows below it (within the unit) keeps a free square for the queens placed
 * so far: a test that ignores the queens still to come, so it drops only
 * subtrees without a solution; 0 pushes every queen above the
 * second-to-last row. With the shader's loop on the CPU (n = 16 and 17), 1
 * takes 0.86x the loop steps and 0.67x the pushes of 0, 2 0.69x and 0.52x,
 * 3 0.62x and 0.46x, for the same solutions, but 2 and 3 read more of the
 * row table per step (on lavapipe, before the table was laid out in pairs,
 * 0.92-0.93x and 1.35-1.43x the time of 0,
 * against 0.90-0.92x for 1); bench/gpu-layouts.mjs times them on a GPU.
 */
export function unitSearchShader(maxRowsLeft: number, layout: ShaderLayout = {}): string {
  const {
    stackPlace = 'workgroup',
    lookahead = DEFAULT_LOOKAHEAD,
    boardSize = 0,
    workgroupSize = WORKGROUP_SIZE,
    carryPair = false,
    backOver = DEFAULT_BACK_OVER,
    carryIndexes = DEFAULT_CARRY_INDEXES,
  } = ownKeysOnly(layout); // its own keys: none set on Object.prototype changes the shader
  if (!Number.isInteger(lookahead) || lookahead < 0 || lookahead > MAX_LOOKAHEAD) {
    throw rangeError(`lookahead must be an integer from 0 to ${MAX_LOOKAHEAD}, got ${String(lookahead)}`);
  }
  // The stack holds the rows above the one being searched; the last two rows are never pushed.
  const stackRows = Math.max(1, maxRowsLeft - 2);
  const inWorkgroup = stackPlace === 'workgroup';
  return /* wgsl */ `
const WORKGROUP_SIZE = ${workgroupSize}u;
const STACK_ROWS = ${stackRows}u;
${
  lookahead > 0
    ? `// Rows below a queen checked before it is pushed (the tests below are written out; the CPU twin reads this).
const LOOKAHEAD = ${lookahead}u;`
    : ''
}${backOver ? '\n// Steps go back over every row with no square left (the CPU twin reads this).\nconst BACK_OVER = true;' : ''}
${BINDINGS}
${inWorkgroup ? 'var<workgroup> stack: array<u32, STACK_ROWS * WORKGROUP_SIZE>;' : ''}

@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lane: u32) {
  ${inWorkgroup ? '' : 'var stack: array<u32, STACK_ROWS>;'}
${searchLoop(inWorkgroup ? '(row - firstRow) * WORKGROUP_SIZE + lane' : 'row - firstRow', lookahead, losesLeftBits(boardSize, maxRowsLeft), carryPair, backOver, carryIndexes && { stride: inWorkgroup ? 'WORKGROUP_SIZE' : '1u', base: inWorkgroup ? 'lane' : '0u' })}
}
`;
}

const BINDINGS = /* wgsl */ `
// This dispatch's units and branches, and the subproblem its sums start at.
struct Sizes {
  units: u32,
  branches: u32,
  firstSubproblem: u32,
}

// This dispatch's branches, four words each: taken columns, diagonals, (subproblem << 10) | (its row << 5) | last row.
@group(0) @binding(0) var<storage, read> branches: array<vec4<u32>>;
// Per branch, the index of its first unit (a unit per free square of the branch's row).
@group(0) @binding(1) var<storage, read> firstUnit: array<u32>;
// Per subproblem, ${TABLE_ROWS} pairs: pair k = (shift from inner row k to the next, border queens' attacks on inner row k + 1),
// and pair ${TABLE_ROWS - 1} = (0, the attacks on inner row 0), so a step reads what it needs of the row below in one load.
@group(0) @binding(2) var<storage, read> rowTable: array<vec2<u32>>;
// Per subproblem from sizes.firstSubproblem on: its solutions in this dispatch, low word then high word (zero before it starts).
@group(0) @binding(3) var<storage, read_write> sums: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> sizes: Sizes;
// Units handed out so far in this dispatch (zero before it starts).
@group(0) @binding(5) var<storage, read_write> handedOut: atomic<u32>;
// Per block of ${UNITS_PER_BLOCK} units, the branch of its first unit; then the last branch.
@group(0) @binding(6) var<storage, read> blockBranch: array<u32>;

// Adds an invocation's solutions of one subproblem to its sum, carrying into the high word.
fn addToSum(subproblem: u32, low: u32, high: u32) {
  if (low == 0u && high == 0u) {
    return;
  }
  let at = (subproblem - sizes.firstSubproblem) * 2u;
  let before = atomicAdd(&sums[at], low);
  let carried = high + select(0u, 1u, before + low < before);
  if (carried != 0u) {
    atomicAdd(&sums[at + 1u], carried);
  }
}`;

/**
 * The start of the loop: where an invocation's unit is done (its first row
 * has no free square left), take the next, find its branch, place its
 * queen, and add the sum so far where the subproblem changes.
 */
function takeUnit(wide: boolean, carryPair: boolean, indexes: CarriedIndexes | false): string {
  const start = carryPair ? 'start' : 'below'; // the pair of the branch's row (the loop's own `below` where carried)
  // Carried indexes: the rows become indexes into the row table, and the stack's entry starts at the first.
  const toIndexes = indexes ? `      row += table;\n      lastRow += table;\n      at = ${indexes.base};\n` : '';
  return /* wgsl */ `
    if (free == 0u && row == firstRow) {
      let index = atomicAdd(&handedOut, 1u);
      if (index >= sizes.units) {
        break;
      }
      // Its branch: the last whose first unit is at or before it, among the few its block of 32 units spans.
      let block = index / ${UNITS_PER_BLOCK}u;
      var lo = blockBranch[block];
      var hi = blockBranch[block + 1u] + 1u;
      while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (firstUnit[mid] <= index) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      let branch = branches[lo];
      if ((branch.w >> 10u) != subproblem) {
        addToSum(subproblem, low, high);
        subproblem = branch.w >> 10u;
        low = 0u;
        high = 0u;
      }
      table = subproblem * ${TABLE_ROWS}u;
      row = (branch.w >> 5u) & 31u;
      lastRow = branch.w & 31u;
      // Its queen: the branch row's free square of its rank among the branch's units.
      let ${start} = rowTable[table + row];
      var squares = ~(branch.x | branch.y | branch.z | rowTable[table + ((row + ${TABLE_ROWS - 1}u) % ${TABLE_ROWS}u)].y);
      for (var k = firstUnit[lo]; k < index; k++) {
        squares &= squares - 1u;
      }
      let bit = squares & (0u - squares);
      if (row == lastRow) {
        // A subproblem of one inner row: the unit's square ends a solution.
        free = bit;
      } else {
        cols = branch.x | bit;
        ld = (branch.y | bit) << ${start}.x;
        rd = (branch.z | bit) >> ${start}.x;
        row += 1u;
        free = ~(cols | ld | rd | ${start}.y);
      }
${toIndexes}      firstRow = row;${carryPair ? `\n      below = rowTable[${indexes ? 'row' : 'table + row'}];` : ''}
      rdLow = 0u;${wide ? '\n      ldHigh = 0u;' : ''}
      if (row == lastRow) {
        // As many columns are free as rows are left, so the last row has at most one free square.
        if (free != 0u) {
          low += 1u;
          if (low == 0u) {
            high += 1u;
          }
        }
        free = 0u;
      }
      continue;
    }
`;
}

/** Where a queen above the second-to-last row is pushed: always, or only where the rows below keep a square (lookahead). */
function pushWhere(lookahead: number): string {
  if (lookahead === 0) return '} else {';
  const checks = ['nextFree != 0u'];
  // Straight-line tests (a loop over the rows cost lavapipe 1.3x the time at lookahead 3); row + 2 <= lastRow here.
  if (lookahead >= 2) checks.push(keepsSquare(2));
  if (lookahead >= 3) checks.push(`(row + 3u > lastRow || ${keepsSquare(3)})`);
  return `} else if (${checks.join(' && ')}) {`;
}

/**
 * Whether inner row row + k keeps a free square for the masks of row + 1
 * (the queen just placed included): the shifts of rows row + 1 to
 * row + k - 1, and the attacks on row + k, from k - 1 pairs of the table
 * (the first of them `ahead`, where the loop carries it).
 */
function keepsSquare(k: number, ahead?: string): string {
  const pairs = Array.from({ length: k - 1 }, (_, j) => (j === 0 && ahead ? ahead : `rowTable[table + row + ${j + 1}u]`));
  const shifts = pairs.map((pair) => `${pair}.x`).join(' + ');
  const reach = k === 2 ? shifts : `(${shifts})`;
  return `~(nextCols | (nextLd << ${reach}) | (nextRd >> ${reach}) | ${pairs[k - 2]}.y) != 0u`;
}

/**
 * The push where the loop carries the table's pair: `ahead`, the next row's
 * pair (its shift and the attacks on the row after it), is loaded once and
 * becomes that row's `below` when the queen is pushed, so a step after a push
 * reads no table. Lookahead 2 and 3 test with it before the push; 0 and 1
 * load it only to push.
 */
function pushCarrying(lookahead: number): { open: string; close: string; indent: string } {
  const ahead = 'let ahead = rowTable[table + row + 1u];';
  if (lookahead <= 1) {
    const open = lookahead === 0 ? '} else {' : '} else if (nextFree != 0u) {';
    return { open: `${open}\n        ${ahead}`, close: '', indent: '        ' };
  }
  const checks = ['nextFree != 0u', keepsSquare(2, 'ahead')];
  if (lookahead >= 3) checks.push(`(row + 3u > lastRow || ${keepsSquare(3, 'ahead')})`);
  return { open: `} else {\n        ${ahead}\n        if (${checks.join(' && ')}) {`, close: '\n        }', indent: '          ' };
}

/** `lines` with `spaces` before each. */
function indent(lines: string, spaces: string): string {
  return lines.replace(/^/gm, spaces);
}

/**
 * Whether going back must also restore the left diagonals' bits that pushes
 * shifted past bit 31. A bit that matters on a row sits at most at n - 2
 * (column n - 1 holds a border queen), and the shifts below it within a unit
 * add up to at most its rows left (one a push, plus the two rows of the side
 * queens skipped), so below n - 2 + maxRowsLeft = 32 no such bit is lost.
 */
function losesLeftBits(boardSize: number, maxRowsLeft: number): boolean {
  return boardSize - 2 + maxRowsLeft >= 32;
}

/** One step of the loop (after the unit's start): go back where the row has no square left, then place a queen. */
function loopStep(slot: string, lookahead: number, wide: boolean, carryPair: boolean, backOver: boolean): string {
  const ifWide = (code: string): string => (wide ? code : '');
  // Back on a row: its queen off, the diagonals shifted back by `by` (that row's shift to the next).
  const restore = (by: string) => `cols ^= placed;
ld = ((ld >> ${by})${ifWide(` | (ldHigh << (32u - ${by}))`)}) & ~placed;
rd = ((rd << ${by}) | (rdLow >> (32u - ${by}))) & ~placed;
rdLow <<= ${by};${ifWide(`\nldHigh >>= ${by};`)}`;
  const pushLines = (carried: string) => `stack[${slot}] = free | bit;
rdLow = (rdLow >> shift) | ((rd | bit) << (32u - shift));${ifWide('\nldHigh = (ldHigh << shift) | ((ld | bit) >> (32u - shift));')}
cols = nextCols;
ld = nextLd;
rd = nextRd;
free = nextFree;
row += 1u;${carried}`;
  const countLast = `      if (row + 1u == lastRow) {
        if (nextFree != 0u) {
          low += 1u;
          if (low == 0u) {
            high += 1u;
          }
        }`;
  // Back on the row above: its queen off, the diagonals shifted back by that row's shift (read with its pair).
  const backOne = `row -= 1u;
let tried = stack[${slot}];
let placed = tried & (0u - tried);
free = tried ^ placed;
below = rowTable[table + row];
let back = below.x;
${restore('back')}`;
  // backOver: on back over the rows with no square left, to one with a square or the unit's first row.
  const back = backOver ? `loop {\n${indent(backOne, '  ')}\n  if (free != 0u || row == firstRow) {\n    break;\n  }\n}` : backOne;
  if (carryPair) {
    const push = pushCarrying(lookahead);
    return `    if (free == 0u) {
${indent(back, '      ')}
    }
    if (free != 0u) {
      let bit = free & (0u - free);
      free ^= bit;
      let shift = below.x;
      let nextCols = cols | bit;
      let nextLd = (ld | bit) << shift;
      let nextRd = (rd | bit) >> shift;
      let nextFree = ~(nextCols | nextLd | nextRd | below.y);
${countLast}
      ${push.open}
${indent(pushLines('\nbelow = ahead;'), push.indent)}${push.close}
      }
    }`;
  }
  if (backOver) {
    return `    var below: vec2<u32>;
    if (free == 0u) {
${indent(back, '      ')}
    } else {
      // The shift to the next inner row and that row's border attacks: one load.
      below = rowTable[table + row];
    }
    let shift = below.x;
${placeStep(lookahead, countLast, pushLines(''))}`;
  }
  return `    var placed = 0u;
    if (free == 0u) {
      row -= 1u;
      let tried = stack[${slot}];
      placed = tried & (0u - tried);
      free = tried ^ placed;
    }
    // The shift to the next inner row and that row's border attacks: one load.
    let below = rowTable[table + row];
    let shift = below.x;
    if (placed != 0u) {
      // Back on this row: take its queen off, the diagonals shifted back.
${indent(restore('shift'), '      ')}
    }
${placeStep(lookahead, countLast, pushLines(''))}`;
}

/** Where the row has a square left: the queen on the lowest, counted on the second-to-last row, else pushed where the rows below keep a square. */
function placeStep(lookahead: number, countLast: string, push: string): string {
  return `    if (free != 0u) {
      let bit = free & (0u - free);
      free ^= bit;
      let nextCols = cols | bit;
      let nextLd = (ld | bit) << shift;
      let nextRd = (rd | bit) >> shift;
      let nextFree = ~(nextCols | nextLd | nextRd | below.y);
${countLast}
      ${pushWhere(lookahead)}
${indent(push, '        ')}
      }
    }`;
}

/** How the loop carries its indexes (ShaderLayout.carryIndexes): its stack entry's step from row to row, and the first's. */
interface CarriedIndexes {
  readonly stride: string;
  readonly base: string;
}

/**
 * A step with carried indexes (ShaderLayout.carryIndexes): `row` is already an index into the row table, and
 * `at` is the stack entry's index, moved with the row.
 */
function withCarriedIndexes(step: string, indexes: CarriedIndexes): string {
  return step
    .replaceAll('rowTable[table + row', 'rowTable[row')
    .replace(/^( *)row -= 1u;$/gm, `$1row -= 1u;\n$1at -= ${indexes.stride};`)
    .replace(/^( *)row \+= 1u;$/gm, `$1row += 1u;\n$1at += ${indexes.stride};`);
}

/**
 * The body of main: take a unit, make it from its branch, search it, sum its
 * count, take the next; `slot` indexes this row's stack entry. The stack
 * keeps one word a row, the row's squares tried so far (the queen placed is
 * the lowest): going back shifts the diagonals back by the row's shift and
 * takes the queen off, with `rdLow` (and on wide boards `ldHigh`) giving back
 * the bits the shifts pushed off the word (a unit's shifts add up to less
 * than 32). A quarter of the four-word stack's memory, and on an H100 0.86x
 * its time (2026-11-27, bench/gpu-probe.mjs).
 */
function searchLoop(
  slot: string,
  lookahead: number,
  wide: boolean,
  carryPair: boolean,
  backOver: boolean,
  indexes: CarriedIndexes | false,
): string {
  const ifWide = (code: string): string => (wide ? code : '');
  const step = indexes
    ? withCarriedIndexes(loopStep('at', lookahead, wide, carryPair, backOver), indexes)
    : loopStep(slot, lookahead, wide, carryPair, backOver);
  return /* wgsl */ `
  // Each invocation takes units until none are left, so a lane whose unit ends
  // early starts another instead of idling until its wave's longest unit ends.
  var subproblem = 0xffffffffu;
  var table = 0u;
  var firstRow = 0u;
  var lastRow = 0u;
  var row = 0u;${indexes ? "\n  // The row's stack entry (ShaderLayout.carryIndexes).\n  var at = 0u;" : ''}
  var cols = 0u;
  var ld = 0u;
  var rd = 0u;${carryPair ? "\n  // This row's pair of the table: the shift to the next inner row and that row's border attacks.\n  var below = vec2<u32>(0u, 0u);" : ''}
  var rdLow = 0u;${ifWide('\n  var ldHigh = 0u;')}
  var free = 0u;
  var low = 0u;
  var high = 0u;
  loop {
${takeUnit(wide, carryPair, indexes)}${step}
  }
  addToSum(subproblem, low, high);`;
}
