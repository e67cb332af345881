// The WebGPU engine's work units: each subproblem of the symmetry search (one
// border constellation) split on the CPU by placing queens in its first inner
// rows until a unit has at most `rowsLeft` rows to search (webgpu-plan.ts
// picks it). Units are cut by the work they hold, not by how many there are:
// a bigger board is refined deeper, so its longest unit stays as short as a
// small board's. At n = 21 that is 137 million units, so they are
// streamed: `UnitStream.fill` hands out the next batch, in plan order, while
// the GPU searches the last ones. Branches that die while refining cost the
// GPU nothing.
import { rangeError } from '../../shared/errors.js';
import type { Subproblem } from '../constellations.js';
import { rowAttacks, rowShift } from '../row-search.js';
import { borderColumns, prepare } from '../symmetry.js';

/** Rows per subproblem in the row table: masks are 32 bits, so no board has more inner rows. */
export const TABLE_ROWS = 32;

/** Words per unit: taken columns, the two diagonal masks on its first row, (subproblem << 10) | (first row << 5) | last row. */
export const UNIT_WORDS = 4;

/** The subproblems laid out for the GPU: what every unit refers to. */
export interface PreparedSubproblems {
  readonly n: number;
  readonly subproblems: readonly Subproblem[];
  /**
   * Per subproblem (in list order), TABLE_ROWS pairs (attacks, shift): the
   * border queens' attacks on each inner row, and the distance in board rows
   * to the next inner row.
   */
  readonly rowTable: Uint32Array;
  /** Per subproblem: its inner rows (rows without a border queen). */
  readonly innerRows: Int32Array;
  /** Per subproblem: solutions found whole on the CPU (boards too small to leave a row). */
  readonly cpuSolutions: Uint32Array;
}

export function prepareSubproblems(n: number, subproblems: readonly Subproblem[]): PreparedSubproblems {
  const rowTable = new Uint32Array(subproblems.length * TABLE_ROWS * 2);
  const innerRows = new Int32Array(subproblems.length);
  const cpuSolutions = new Uint32Array(subproblems.length);
  subproblems.forEach((s, i) => {
    const inner = prepare(n, s.a, s.b, s.c, s.d);
    innerRows[i] = inner;
    for (let k = 0; k < inner; k++) {
      rowTable[(i * TABLE_ROWS + k) * 2] = rowAttacks[k];
      if (k < inner - 1) rowTable[(i * TABLE_ROWS + k) * 2 + 1] = rowShift[k];
    }
    if (inner === 0) cpuSolutions[i] = 1;
  });
  return { n, subproblems, rowTable, innerRows, cpuSolutions };
}

/**
 * The units of every subproblem in plan order, handed out in batches. Each
 * unit has between 1 and `rowsLeft` rows to search and a free square on its
 * first row. A depth-first walk per subproblem, resumable between batches.
 */
export class UnitStream {
  private subproblem = -1;
  /** Depth of the walk (the inner row being split), or -1 between subproblems. */
  private depth = -1;
  private readonly free = new Int32Array(TABLE_ROWS);
  private readonly cols = new Int32Array(TABLE_ROWS);
  private readonly ld = new Int32Array(TABLE_ROWS);
  private readonly rd = new Int32Array(TABLE_ROWS);
  /** Units written by the current call of fill. */
  private written = 0;

  constructor(
    readonly prepared: PreparedSubproblems,
    readonly rowsLeft: number,
  ) {
    if (!Number.isInteger(rowsLeft) || rowsLeft < 1) throw rangeError(`rowsLeft must be an integer >= 1, got ${rowsLeft}`);
  }

  /** Subproblems whose units have all been handed out (they come first in plan order). */
  get subproblemsDone(): number {
    return this.depth < 0 ? this.subproblem + 1 : this.subproblem;
  }

  get done(): boolean {
    return this.depth < 0 && this.subproblem + 1 >= this.prepared.subproblems.length;
  }

  /** Writes the next units into `out` (UNIT_WORDS each), as many as fit; returns how many. 0 means done. */
  fill(out: Uint32Array): number {
    const capacity = Math.floor(out.length / UNIT_WORDS);
    if (capacity < 1) throw rangeError(`fill needs room for a unit (${UNIT_WORDS} words), got ${out.length}`);
    this.written = 0;
    while (this.written < capacity) {
      if (this.depth < 0) {
        if (!this.startNext(out)) break;
        continue;
      }
      this.step(out);
    }
    return this.written;
  }

  /** One step of the walk: splits the next free square of the current row, or climbs a row. */
  private step(out: Uint32Array): void {
    const { rowTable, innerRows } = this.prepared;
    const d = this.depth;
    let free = this.free[d];
    if (free === 0) {
      this.depth--; // the walk ends when it climbs above row 0
      return;
    }
    const at = (this.subproblem * TABLE_ROWS + d) * 2;
    const shift = rowTable[at + 1];
    const below = rowTable[at + 2];
    const cols = this.cols[d];
    const ld = this.ld[d];
    const rd = this.rd[d];
    if (innerRows[this.subproblem] - (d + 1) <= this.rowsLeft) {
      // The row's children are units: written in one go, as many as fit (the rest on the next call).
      const packed = this.packed(d + 1);
      const end = Math.floor(out.length / UNIT_WORDS) * UNIT_WORDS;
      let at = this.written * UNIT_WORDS;
      while (free !== 0 && at < end) {
        const bit = free & -free;
        free ^= bit;
        const childCols = cols | bit;
        const childLd = (ld | bit) << shift;
        const childRd = (rd | bit) >>> shift;
        if (~(childCols | childLd | childRd | below) === 0) continue; // a dead end costs the GPU nothing
        out[at] = childCols;
        out[at + 1] = childLd;
        out[at + 2] = childRd;
        out[at + 3] = packed;
        at += UNIT_WORDS;
      }
      this.written = at / UNIT_WORDS;
      this.free[d] = free;
      return;
    }
    const bit = free & -free;
    this.free[d] = free ^ bit;
    const childCols = cols | bit;
    const childLd = (ld | bit) << shift;
    const childRd = (rd | bit) >>> shift;
    const childFree = ~(childCols | childLd | childRd | below);
    if (childFree === 0) return;
    this.depth = d + 1;
    this.free[d + 1] = childFree;
    this.cols[d + 1] = childCols;
    this.ld[d + 1] = childLd;
    this.rd[d + 1] = childRd;
  }

  /** Moves to the next subproblem with rows to search (a small one becomes one unit); false when none is left. */
  private startNext(out: Uint32Array): boolean {
    const { subproblems, rowTable, innerRows, n } = this.prepared;
    while (this.subproblem + 1 < subproblems.length) {
      const s = ++this.subproblem;
      const inner = innerRows[s];
      if (inner === 0) continue; // counted on the CPU
      const cols = borderColumns(n, subproblems[s]);
      const free = ~(cols | rowTable[s * TABLE_ROWS * 2]);
      if (free === 0) continue;
      if (inner <= this.rowsLeft) {
        this.emit(out, cols, 0, 0, 0);
        return true;
      }
      this.depth = 0;
      this.free[0] = free;
      this.cols[0] = cols;
      this.ld[0] = 0;
      this.rd[0] = 0;
      return true;
    }
    return false;
  }

  private emit(out: Uint32Array, cols: number, ld: number, rd: number, row: number): void {
    const at = this.written * UNIT_WORDS;
    out[at] = cols;
    out[at + 1] = ld;
    out[at + 2] = rd;
    out[at + 3] = this.packed(row);
    this.written++;
  }

  /** A unit's fourth word: its subproblem, first row and last row. */
  private packed(row: number): number {
    const s = this.subproblem;
    return (s << 10) | (row << 5) | (this.prepared.innerRows[s] - 1);
  }
}
