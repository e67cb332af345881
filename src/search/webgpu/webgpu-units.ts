// The WebGPU engine's work units: each subproblem of the symmetry search (one
// border constellation) split on the CPU by placing queens in its first inner
// rows until a unit has at most `rowsLeft` rows to search (webgpu-plan.ts
// picks it). Units are cut by the work they hold, not by how many there are:
// a bigger board is refined deeper, so its longest unit stays as short as a
// small board's. The host sends them as branches, one placement a row above
// its units: the GPU makes each unit from its branch (one unit per free
// square of the branch's row), so the host writes a seventh as many records
// and sends a fifth of the bytes (n = 20: 11.3 million branches for 75.2
// million units, 227 MB for 1.2 GB). They are streamed: `UnitStream.fill` hands out the next batch, in
// plan order, while the GPU searches the last ones.
import { popcount } from '../../shared/bits.js';
import { ERROR_CODES, failure, rangeError } from '../../shared/errors.js';
import type { Subproblem } from '../constellations.js';
import { rowAttacks, rowShift } from '../row-search.js';
import { borderColumns, prepare } from '../symmetry.js';

/** Rows per subproblem in the row table: masks are 32 bits, so no board has more inner rows. */
export const TABLE_ROWS = 32;

/** Words per branch: taken columns, the two diagonal masks on its row, (subproblem << 10) | (its row << 5) | last row. */
export const BRANCH_WORDS = 4;

/** Most units a branch holds: one per free square of its row, a 32-bit mask. */
export const MAX_UNITS_PER_BRANCH = 32;

/** Units per block of the batch's block index (UnitBatch.blockBranch). */
export const UNITS_PER_BLOCK = 32;

/**
 * One dispatch's units, as branches. Unit i belongs to the last branch b
 * with firstUnit[b] <= i, and places a queen on the (i - firstUnit[b])-th
 * free square (lowest first) of b's row; it searches the rows below.
 */
export class UnitBatch {
  /** BRANCH_WORDS per branch. */
  readonly branches: Uint32Array;
  /** Per branch, the index of its first unit in the batch. */
  readonly firstUnit: Uint32Array;
  /**
   * The block index: per block of UNITS_PER_BLOCK units, the branch of its
   * first unit, then the last branch. Unit i's branch is between
   * blockBranch[j] and blockBranch[j + 1] for j = i / UNITS_PER_BLOCK: a
   * block of 32 units spans at most 33 branches, so an invocation finds its
   * unit's branch in at most 6 loads, where a search of all of a big
   * dispatch's branches took about 20.
   */
  readonly blockBranch: Uint32Array;
  branchCount = 0;
  unitCount = 0;
  /**
   * What its units hold, in units of the stream's rowsLeft rows: unitCount,
   * but for a tail walked a row finer (UnitStream.fill), whose units count
   * for the unit of rowsLeft rows each was cut from. Dispatches are paced by it.
   */
  wholeUnits = 0;

  /**
   * Room for `maxUnits` units in at most `maxBranches` branches (a branch
   * holds at least one unit, so never more branches than units; the engine
   * keeps less room for big dispatches: webgpu-plan.ts, branchRoom).
   */
  constructor(
    readonly maxUnits: number,
    readonly maxBranches = maxUnits,
    memory?: BatchMemory,
  ) {
    if (!Number.isInteger(maxUnits) || maxUnits < MAX_UNITS_PER_BRANCH) {
      throw rangeError(`a batch holds at least ${MAX_UNITS_PER_BRANCH} units (a branch's most), got ${String(maxUnits)}`);
    }
    if (!Number.isInteger(maxBranches) || maxBranches < 1 || maxBranches > maxUnits) {
      throw rangeError(`a batch of ${maxUnits} units holds 1 to ${maxUnits} branches, got ${String(maxBranches)}`);
    }
    const arrays = memory?.room(maxUnits, maxBranches) ?? BatchMemory.arrays(maxUnits, maxBranches);
    this.branches = arrays.branches.subarray(0, maxBranches * BRANCH_WORDS);
    this.firstUnit = arrays.firstUnit.subarray(0, maxBranches);
    this.blockBranch = arrays.blockBranch.subarray(0, blocksOf(maxUnits));
  }

  /** Entries of the block index in use: one per block, and the last branch. */
  get blockCount(): number {
    return blocksOf(this.unitCount);
  }

  /** The subproblems its branches belong to: the first, and how many from there to the last (plan order). */
  subproblems(): { first: number; span: number } {
    if (this.branchCount === 0) return { first: 0, span: 0 };
    const first = this.branches[3] >>> 10;
    return { first, span: (this.branches[(this.branchCount - 1) * BRANCH_WORDS + 3] >>> 10) - first + 1 };
  }
}

/** Entries of a block index for `units` units: one per block, and the last branch. */
function blocksOf(units: number): number {
  return Math.ceil(units / UNITS_PER_BLOCK) + 1;
}

/**
 * Host memory shared by batches that take turns: each is filled and then
 * written to the GPU, which copies it at once (WebGPU's writeBuffer), before
 * the next is filled. So a count's ring of slots needs one set of arrays,
 * not one a slot: memory is touched once, where each slot's own arrays
 * took 2.5x the page faults at n = 18 (on a VM that pays for each).
 */
export class BatchMemory {
  #arrays = BatchMemory.arrays(0, 0);

  /** Arrays for a batch of `maxUnits` units in `maxBranches` branches. */
  static arrays(maxUnits: number, maxBranches: number): { branches: Uint32Array; firstUnit: Uint32Array; blockBranch: Uint32Array } {
    return {
      branches: new Uint32Array(maxBranches * BRANCH_WORDS),
      firstUnit: new Uint32Array(maxBranches),
      blockBranch: new Uint32Array(blocksOf(maxUnits)),
    };
  }

  /** The shared arrays, made larger first where they cannot hold such a batch (batches made before keep the old ones). */
  room(maxUnits: number, maxBranches: number): ReturnType<typeof BatchMemory.arrays> {
    const arrays = this.#arrays;
    if (arrays.firstUnit.length < maxBranches || arrays.blockBranch.length < blocksOf(maxUnits)) {
      this.#arrays = BatchMemory.arrays(
        Math.max(maxUnits, (arrays.blockBranch.length - 1) * UNITS_PER_BLOCK),
        Math.max(maxBranches, arrays.firstUnit.length),
      );
    }
    return this.#arrays;
  }
}

/** The subproblems laid out for the GPU: what every unit refers to. */
export interface PreparedSubproblems {
  readonly n: number;
  readonly subproblems: readonly Subproblem[];
  /**
   * Per subproblem (in list order), TABLE_ROWS pairs: pair k is (shift, attacks)
   * for inner row k, the distance in board rows to the next inner row and
   * the border queens' attacks on that next row; the last pair holds the
   * attacks on inner row 0 (shiftWord and attacksWord give the words). A
   * search step reads both of what it needs from the row below in one load.
   */
  readonly rowTable: Uint32Array;
  /** Per subproblem: its inner rows (rows without a border queen). */
  readonly innerRows: Int32Array;
  /** Per subproblem: solutions found whole on the CPU (boards too small to leave a row). */
  readonly cpuSolutions: Uint32Array;
  /**
   * Subproblems [0, rowsReady) have their rows in rowTable: all of them
   * where prepared eagerly, else those the stream has reached (readyRows).
   */
  rowsReady: number;
}

/** The word of a rowTable with subproblem s's distance from inner row k to the next inner row. */
export function shiftWord(s: number, k: number): number {
  return (s * TABLE_ROWS + k) * 2;
}

/** The word of a rowTable with the border queens' attacks on subproblem s's inner row k. */
export function attacksWord(s: number, k: number): number {
  return (s * TABLE_ROWS + ((k + TABLE_ROWS - 1) % TABLE_ROWS)) * 2 + 1;
}

/**
 * The most inner rows a subproblem of n has: n - 3 from n = 4 on (the top and bottom rows hold border queens, and
 * a side queen one more: test/webgpu-plan.test.ts checks it against planSubproblems), at least 1 so that a shader
 * always has a row. Known before the plan, so the shader's compile can start first.
 */
export function deepestInnerRows(n: number): number {
  return Math.max(1, n - 3);
}

/**
 * The subproblems laid out for the GPU. `rows`: 'all' fills every
 * subproblem's rows now; 'lazy' leaves them to the stream, which fills each
 * as it reaches it (readyRows), so a count's first dispatch waits for its
 * own subproblems' rows only and the rest are made beside the GPU: with a
 * stand-in device, n = 18's first dispatch went in after a median 61 ms of
 * a cold count instead of 74 (9 interleaved runs, one pinned core of the
 * 2-core Xeon, 2026-11-27).
 */
export function prepareSubproblems(n: number, subproblems: readonly Subproblem[], rows: 'all' | 'lazy' = 'all'): PreparedSubproblems {
  const innerRows = Int32Array.from(subproblems, (s) => s.innerRows);
  const prepared: PreparedSubproblems = {
    n,
    subproblems,
    rowTable: new Uint32Array(subproblems.length * TABLE_ROWS * 2),
    innerRows,
    cpuSolutions: Uint32Array.from(innerRows, (inner) => (inner === 0 ? 1 : 0)),
    rowsReady: 0,
  };
  if (rows === 'all') readyRows(prepared, subproblems.length);
  return prepared;
}

/** Fills the rows of subproblems [prepared.rowsReady, end): the border queens' attacks on each inner row, and the shifts. */
function readyRows(prepared: PreparedSubproblems, end: number): void {
  const { n, subproblems, rowTable, innerRows } = prepared;
  for (let i = prepared.rowsReady; i < Math.min(end, subproblems.length); i++) {
    const s = subproblems[i];
    const inner = prepare(n, s.a, s.b, s.c, s.d);
    if (inner !== innerRows[i])
      throw failure(`subproblem ${i} of n = ${n} has ${inner} inner rows, its plan says ${innerRows[i]}`, ERROR_CODES.INTERNAL);
    for (let k = 0; k < inner; k++) {
      rowTable[attacksWord(i, k)] = rowAttacks[k];
      if (k < inner - 1) rowTable[shiftWord(i, k)] = rowShift[k];
    }
    prepared.rowsReady = i + 1;
  }
}

/** Whether `batch` has its units' worth once `added` more are in (it never stops empty: a fill returns 0 only when done). */
function isFull(batch: UnitBatch, added: number, limit: number): boolean {
  return batch.unitCount > 0 && batch.wholeUnits + added > limit;
}

/**
 * The units of every subproblem in plan order, handed out in batches of
 * whole branches. Each unit has between 1 and `rowsLeft` rows to search. A
 * depth-first walk per subproblem, resumable between batches.
 */
export class UnitStream {
  private subproblem = -1;
  /** Depth of the walk (the inner row being split), or -1 between subproblems. */
  private depth = -1;
  private readonly free = new Int32Array(TABLE_ROWS);
  private readonly cols = new Int32Array(TABLE_ROWS);
  private readonly ld = new Int32Array(TABLE_ROWS);
  private readonly rd = new Int32Array(TABLE_ROWS);
  /** Per depth, whether no queen of that row has been tried yet: only then may its squares all go as one branch. */
  private readonly untried = new Uint8Array(TABLE_ROWS);
  /** The fill under way (begin to end): its batch, its limit in whole units, where its finer tail starts, and whether it is full. */
  private filling: { batch: UnitBatch; units: number; fineFrom: number; filled: boolean } | undefined;

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

  /**
   * Refills `batch` with the next branches, until it holds `units` units of
   * rowsLeft rows (batch.wholeUnits) or its room is full; returns its units,
   * 0 meaning done. The last `tail` of them are walked a row finer: each
   * becomes a branch whose units search rowsLeft - 1 rows, about a sixth of
   * the work each, so a dispatch ends on short units and its lanes end
   * together (webgpu-plan.ts, tailUnits). The units' number then exceeds
   * `units`, within the batch's room.
   */
  fill(batch: UnitBatch, units = batch.maxUnits, tail = 0): number {
    this.begin(batch, units, tail);
    this.proceed(Infinity);
    return this.end();
  }

  /**
   * fill() in parts, so that its caller can let other work run between
   * them (an abort: a big dispatch's fill takes 50-180 ms): begin, then
   * proceed until it says the batch is filled, then end for its units.
   */
  begin(batch: UnitBatch, units = batch.maxUnits, tail = 0): void {
    if (!Number.isInteger(units) || units < MAX_UNITS_PER_BRANCH || units > batch.maxUnits) {
      throw rangeError(`a fill takes ${MAX_UNITS_PER_BRANCH} to ${batch.maxUnits} units (the batch's room), got ${String(units)}`);
    }
    if (!Number.isInteger(tail) || tail < 0 || tail > units) throw rangeError(`a fill's tail is 0 to ${units} units, got ${String(tail)}`);
    batch.branchCount = 0;
    batch.unitCount = 0;
    batch.wholeUnits = 0;
    const fineFrom = this.rowsLeft > 1 ? units - tail : Infinity; // a unit of one row is not cut finer
    this.filling = { batch, units, fineFrom, filled: false };
  }

  /** Walks on for at most `steps` steps of the fill begun; true once its batch is filled (or the units are all out). */
  proceed(steps: number): boolean {
    const fill = this.filling;
    if (fill === undefined) throw failure('UnitStream.proceed: no fill begun', ERROR_CODES.INTERNAL);
    if (fill.filled) return true;
    const { batch, units, fineFrom } = fill;
    for (let left = steps; left > 0; left--) {
      if ((this.depth < 0 && !this.startNext()) || !this.step(batch, units, fineFrom)) return (fill.filled = true);
    }
    return false;
  }

  /** Ends the fill begun (filled: proceed said so), and returns its batch's units, 0 meaning done. */
  end(): number {
    const fill = this.filling;
    if (fill?.filled !== true) throw failure('UnitStream.end: the fill is not done', ERROR_CODES.INTERNAL);
    this.filling = undefined;
    const { batch } = fill;
    batch.blockBranch[batch.blockCount - 1] = Math.max(0, batch.branchCount - 1);
    return batch.unitCount;
  }

  /**
   * One step of the walk: writes the current row as a branch where its
   * squares are units (false if they do not fit in the batch), else places
   * the next queen on it, or climbs a row. A queen placed on a row whose
   * squares would have been units of rowsLeft rows counts as one such unit
   * (batch.wholeUnits), and the branch below it then counts none.
   */
  private step(batch: UnitBatch, limit: number, fineFrom: number): boolean {
    const { rowTable, innerRows } = this.prepared;
    const d = this.depth;
    const free = this.free[d];
    if (free === 0) {
      this.depth--; // the walk ends when it climbs above row 0
      return true;
    }
    const rowsBelow = innerRows[this.subproblem] - (d + 1);
    const rowsLeft = batch.wholeUnits >= fineFrom ? this.rowsLeft - 1 : this.rowsLeft;
    if (rowsBelow <= rowsLeft && this.untried[d] === 1) {
      const units = popcount(free);
      const whole = d > 0 && rowsBelow < this.rowsLeft ? 0 : units; // cut from a unit counted when its queen was placed
      if (batch.unitCount + units > batch.maxUnits || batch.branchCount === batch.maxBranches || isFull(batch, whole, limit)) return false;
      const at = batch.branchCount * BRANCH_WORDS;
      batch.branches[at] = this.cols[d];
      batch.branches[at + 1] = this.ld[d];
      batch.branches[at + 2] = this.rd[d];
      batch.branches[at + 3] = (this.subproblem << 10) | (d << 5) | (innerRows[this.subproblem] - 1);
      batch.firstUnit[batch.branchCount] = batch.unitCount;
      // The blocks that start among this branch's units.
      for (let block = Math.ceil(batch.unitCount / UNITS_PER_BLOCK); block * UNITS_PER_BLOCK < batch.unitCount + units; block++) {
        batch.blockBranch[block] = batch.branchCount;
      }
      batch.branchCount++;
      batch.unitCount += units;
      batch.wholeUnits += whole;
      this.depth--; // a branch's squares all go at once (dead ends cost the GPU one step each)
      return true;
    }
    const whole = rowsBelow <= this.rowsLeft ? 1 : 0; // a queen where a unit of rowsLeft rows would start
    if (isFull(batch, whole, limit)) return false;
    batch.wholeUnits += whole;
    const at = shiftWord(this.subproblem, d); // the shift below row d, then the attacks on row d + 1
    const shift = rowTable[at];
    const bit = free & -free;
    this.free[d] = free ^ bit;
    this.untried[d] = 0;
    const childCols = this.cols[d] | bit;
    const childLd = (this.ld[d] | bit) << shift;
    const childRd = (this.rd[d] | bit) >>> shift;
    const childFree = ~(childCols | childLd | childRd | rowTable[at + 1]);
    if (childFree === 0) return true;
    this.depth = d + 1;
    this.free[d + 1] = childFree;
    this.untried[d + 1] = 1;
    this.cols[d + 1] = childCols;
    this.ld[d + 1] = childLd;
    this.rd[d + 1] = childRd;
    return true;
  }

  /** Starts the walk of the next subproblem with rows to search; false when none is left. */
  private startNext(): boolean {
    const { subproblems, rowTable, innerRows, n } = this.prepared;
    while (this.subproblem + 1 < subproblems.length) {
      const s = ++this.subproblem;
      readyRows(this.prepared, s + 1);
      if (innerRows[s] === 0) continue; // counted on the CPU
      const cols = borderColumns(n, subproblems[s]);
      const free = ~(cols | rowTable[attacksWord(s, 0)]);
      if (free === 0) continue;
      this.depth = 0;
      this.free[0] = free;
      this.untried[0] = 1;
      this.cols[0] = cols;
      this.ld[0] = 0;
      this.rd[0] = 0;
      return true;
    }
    return false;
  }
}
