// Quarter boards for the TypeScript join, one table per set of rows, built
// the first time a unit needs it and kept within a byte budget.
//
// A half's rows fall in two bands: north (rows 0..band-1, band = n - h)
// and south (the other h rows). The quarter table of a set of band-local
// rows lists every way to place one queen on each of those rows in h
// columns, no two attacking, as its two diagonal masks (bit r + c, bit
// r - c + h - 1, r band-local), grouped by column set. A half on rows R is
// a north entry of R's north rows on columns C with a south entry of R's
// south rows on the other columns (src/join/join-kernel.ts).
//
// A table per set of rows instead of one for every set at once: the whole
// (every set of rows) takes 173 MB at n = 21 and 534 MB at 22, while a
// unit needs four sets, and units share them. Tables live in two
// generations of at most half the budget each: a table found in either is
// used where it is, a new one goes into the current one, and when that is
// full the older is dropped. Up to n = 19 every table fits, so each is
// built once. assembly/join/quarter-tables.ts keeps the same two generations.
import { popcount } from '../shared/bits.js';
import { QUARTER_CACHE_BYTES, quarterHalfBytes } from './join-plan.js';

interface QuarterTable {
  /** Entries on column set colSets[colSetStart[k] + i] (k rows): d[2 * start[i]] .. d[2 * start[i + 1]]. */
  readonly start: Int32Array;
  /** Entry e: at 2e, bit r + c of each queen; at 2e + 1, bit r - c + h - 1. */
  readonly d: Int32Array;
}

/** Column sets of h columns and where each stands among those of its size. */
interface ColumnSets {
  readonly h: number;
  /** Grouped by size: colSets[colSetStart[k] .. colSetStart[k + 1]) have k columns. */
  readonly colSets: Int32Array;
  readonly colSetStart: Int32Array;
  /** rank[cols]: position of cols among the column sets of its size. */
  readonly rank: Int32Array;
}

function columnSets(h: number): ColumnSets {
  const colSets = new Int32Array(1 << h);
  const colSetStart = new Int32Array(h + 2);
  const rank = new Int32Array(1 << h);
  let at = 0;
  for (let k = 0; k <= h; k++) {
    colSetStart[k] = at;
    for (let c = 0; c < 1 << h; c++) {
      if (popcount(c) === k) {
        rank[c] = at - colSetStart[k];
        colSets[at++] = c;
      }
    }
  }
  colSetStart[h + 1] = at;
  return { h, colSets, colSetStart, rank };
}

/** The quarter tables of one board size, built on demand within `budget` bytes. */
export class QuarterCache {
  private current = new Map<number, QuarterTable>();
  private older = new Map<number, QuarterTable>();
  private currentBytes = 0;
  private readonly half: number;
  readonly sets: ColumnSets;
  /** Tables built so far (a table dropped and needed again counts again). */
  built = 0;

  constructor(
    readonly n: number,
    budget: number = QUARTER_CACHE_BYTES,
  ) {
    this.sets = columnSets(n >> 1);
    this.half = quarterHalfBytes(n, budget);
  }

  /** The table of band-local rows `rows`. */
  get(rows: number): QuarterTable {
    const table = this.current.get(rows) ?? this.older.get(rows);
    if (table) return table;
    const built = buildQuarterTable(this.sets, rows);
    this.built++;
    const bytes = built.start.byteLength + built.d.byteLength;
    if (this.currentBytes + bytes > this.half && this.current.size > 0) {
      this.older = this.current;
      this.current = new Map();
      this.currentBytes = 0;
    }
    this.current.set(rows, built);
    this.currentBytes += bytes;
    return built;
  }
}

/** Every placement of one queen on each row of `rows` (band-local) in h columns, grouped by column set. */
function buildQuarterTable(sets: ColumnSets, rows: number): QuarterTable {
  const { h, rank } = sets;
  const k = popcount(rows);
  const start = new Int32Array(sets.colSetStart[k + 1] - sets.colSetStart[k] + 1);
  // Two passes: count per column set, then fill from each set's start.
  let d = new Int32Array(0);
  let filling = false;
  const place = (left: number, cols: number, d1: number, d2: number): void => {
    if (left === 0) {
      const i = rank[cols];
      if (!filling) start[i + 1]++;
      else {
        const e = start[i]++;
        d[2 * e] = d1;
        d[2 * e + 1] = d2;
      }
      return;
    }
    const r = 31 - Math.clz32(left & -left);
    const rest = left & (left - 1);
    for (let c = 0; c < h; c++) {
      const b1 = 1 << (r + c);
      const b2 = 1 << (r - c + h - 1);
      if ((cols >>> c) & 1 || d1 & b1 || d2 & b2) continue;
      place(rest, cols | (1 << c), d1 | b1, d2 | b2);
    }
  };
  place(rows, 0, 0, 0);
  for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
  d = new Int32Array(2 * start[start.length - 1]);
  filling = true;
  place(rows, 0, 0, 0); // moves each set's start to the next set's
  start.copyWithin(1, 0, start.length - 1);
  start[0] = 0;
  return { start, d };
}
