// The WebGPU engine's work units: each subproblem of the symmetry search (one
// border constellation) split further on the CPU by placing queens in its
// first inner rows, until there are enough units to fill a GPU. Every unit
// of one refinement has the same number of rows left, give or take one, so
// the invocations of a dispatch do about the same work (the GPU waits for
// its slowest invocation); subproblems whose every branch dies during the
// refinement cost the GPU nothing.
import type { Subproblem } from '../constellations.js';
import { rowAttacks, rowShift } from '../row-search.js';
import { borderColumns, prepare } from '../symmetry.js';

/** Rows per subproblem in the row table: masks are 32 bits, so no board has more inner rows. */
export const TABLE_ROWS = 32;

/** Refine until there are at least this many units (or nothing is left to split). */
export const TARGET_UNITS = 1 << 16;

export interface WorkUnits {
  readonly n: number;
  readonly subproblems: readonly Subproblem[];
  /**
   * Per subproblem (in list order), TABLE_ROWS pairs (attacks, shift): the
   * border queens' attacks on each inner row, and the distance in board rows
   * to the next inner row.
   */
  readonly rowTable: Uint32Array;
  /**
   * Four words per unit: the taken columns, the two diagonal masks on the
   * unit's first row, and (subproblem << 10) | (first row << 5) | last row
   * (inner rows, 0-based). Units of one subproblem are adjacent, in list order.
   */
  readonly units: Uint32Array;
  readonly unitCount: number;
  /** Per subproblem: one past its last unit (so its units end there). */
  readonly unitsEnd: Uint32Array;
  /** Per subproblem: solutions found whole on the CPU (boards too small to leave a row). */
  readonly cpuSolutions: Uint32Array;
  /** The most rows any unit has left to search: the GPU search's stack depth. */
  readonly maxRowsLeft: number;
}

/** A unit while refining; `row` is its first unsearched inner row. */
interface Unit {
  subproblem: number;
  row: number;
  cols: number;
  ld: number;
  rd: number;
}

export function refineUnits(n: number, subproblems: readonly Subproblem[], targetUnits = TARGET_UNITS): WorkUnits {
  const rowTable = new Uint32Array(subproblems.length * TABLE_ROWS * 2);
  const innerRows = new Int32Array(subproblems.length);
  const cpuSolutions = new Uint32Array(subproblems.length);
  let units: Unit[] = [];
  subproblems.forEach((s, i) => {
    const inner = prepare(n, s.a, s.b, s.c, s.d);
    innerRows[i] = inner;
    for (let k = 0; k < inner; k++) {
      rowTable[(i * TABLE_ROWS + k) * 2] = rowAttacks[k];
      if (k < inner - 1) rowTable[(i * TABLE_ROWS + k) * 2 + 1] = rowShift[k];
    }
    const cols = borderColumns(n, s);
    if (inner === 0) cpuSolutions[i] = 1;
    else if (~(cols | rowAttacks[0]) !== 0) units.push({ subproblem: i, row: 0, cols, ld: 0, rd: 0 });
  });
  const rowsLeft = (u: Unit): number => innerRows[u.subproblem] - u.row;
  let widest = units.reduce((most, u) => Math.max(most, rowsLeft(u)), 0);
  // Split the units with the most rows left, one row at a time. Stop at one
  // row left: the GPU needs something to search.
  while (units.length < targetUnits && widest > 1) {
    const next: Unit[] = [];
    for (const u of units) {
      if (rowsLeft(u) === widest) placeOneQueen(rowTable, u, next);
      else next.push(u);
    }
    units = next;
    widest--;
  }
  return pack(n, subproblems, rowTable, innerRows, cpuSolutions, units, widest);
}

/** Pushes the children of `u`: one per free square of its first row whose next row still has a free square. */
function placeOneQueen(rowTable: Uint32Array, u: Unit, into: Unit[]): void {
  const at = (u.subproblem * TABLE_ROWS + u.row) * 2;
  const shift = rowTable[at + 1];
  const nextAttacks = rowTable[at + 2] | 0;
  let free = ~(u.cols | u.ld | u.rd | rowTable[at]);
  while (free !== 0) {
    const bit = free & -free;
    free ^= bit;
    const cols = u.cols | bit;
    const ld = (u.ld | bit) << shift;
    const rd = (u.rd | bit) >>> shift;
    if (~(cols | ld | rd | nextAttacks) !== 0) into.push({ subproblem: u.subproblem, row: u.row + 1, cols, ld, rd });
  }
}

function pack(
  n: number,
  subproblems: readonly Subproblem[],
  rowTable: Uint32Array,
  innerRows: Int32Array,
  cpuSolutions: Uint32Array,
  list: readonly Unit[],
  maxRowsLeft: number,
): WorkUnits {
  const units = new Uint32Array(list.length * 4);
  const unitsEnd = new Uint32Array(subproblems.length);
  list.forEach((u, j) => {
    const lastRow = innerRows[u.subproblem] - 1;
    units[j * 4] = u.cols;
    units[j * 4 + 1] = u.ld;
    units[j * 4 + 2] = u.rd;
    units[j * 4 + 3] = (u.subproblem << 10) | (u.row << 5) | lastRow;
    unitsEnd[u.subproblem] = j + 1;
  });
  // Subproblems without units end where the one before them ends.
  for (let i = 1; i < unitsEnd.length; i++) unitsEnd[i] = Math.max(unitsEnd[i], unitsEnd[i - 1]);
  return { n, subproblems, rowTable, units, unitCount: list.length, unitsEnd, cpuSolutions, maxRowsLeft };
}
