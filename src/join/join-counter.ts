// Counts the half-board join's units on one thread, on either engine. It
// takes the module compiled (resolveWasm, src/engines/wasm-loader.ts), so
// that a worker, which receives it compiled, does not carry the wasm bytes.
import { instantiate } from '../engines/wasm-loader.js';
import type { SharedSlot, UnitCounter, UnitCounting } from '../contract/method.js';
import { inPieces, PieceSize } from './pieces.js';
import { countJoinUnit as countJoinUnitJs, countJoinUnitSteps as countJoinUnitStepsJs } from './join-kernel.js';
import { ERROR_CODES, rangeError } from '../shared/errors.js';
import { unrefTimeout } from '../shared/slices.js';
import {
  checkJoinSize,
  checkJoinUnit,
  joinMemoryBytes,
  maxHalves,
  QUARTER_CACHE_BYTES,
  quarterHalfBytes,
  type JoinUnit,
} from './join-plan.js';

export type JoinEngine = 'wasm' | 'js';

interface JoinExports {
  configure(n: number, halves: number, tableBytes: number, slot: number): void;
  beginUnit(n: number, eastRows: number, centreRow: number, mirrorWeight: number): number;
  beginPass(pass: number): number;
  countProbes(from: number, to: number): bigint;
}

/** Milliseconds of probes between the pieces a unit is counted in (progress and abort come between them). */
const JOIN_PIECE_MS = 20;

/** Counts units of the join on one thread; each counter owns its tables (one wasm instance, or the shared TS state). */
export interface JoinCounter {
  readonly engine: JoinEngine;
  /** Solutions of one unit's split (multiply by unit.weight for its share of the total). */
  countUnit(n: number, unit: JoinUnit): bigint;
  /** The same in pieces of about `pieceMs` of counting: yields the share of the unit done after each. */
  countUnitSteps(n: number, unit: JoinUnit, pieceMs?: number): Generator<number, bigint, undefined>;
}

/**
 * A counter on `engine`: the TypeScript join, or an instance of the compiled
 * join `module`, whose quarter tables take at most `tableBytes` (tests make
 * it small so that tables are dropped and built again), with room for
 * `halves(n)` half-boards a side (tests make it too large to fit); with
 * `share`, `module` is the shared build, on that memory.
 */
export function joinCounterFrom(
  engine: JoinEngine,
  module: WebAssembly.Module | null,
  tableBytes = QUARTER_CACHE_BYTES,
  halves: (n: number) => number = maxHalves,
  share?: SharedSlot,
): JoinCounter {
  if (engine === 'js' || !module) {
    return {
      engine: 'js',
      countUnitSteps: countJoinUnitStepsJs,
      countUnit: countJoinUnitJs,
    };
  }
  return new WasmJoinCounter(instantiate<JoinExports>(module, share?.memory), tableBytes, halves, share);
}

/** One instance of the wasm join and what it holds between calls. */
class WasmJoinCounter implements JoinCounter {
  readonly engine = 'wasm';
  #configured = -1;
  #lastOwner = 0;
  /** The stepped count whose unit the instance holds (0: none). */
  #owner = 0;
  /** That unit's passes (0: no east halves, nothing to count in either pass). */
  #passes = 0;
  /** Probes per piece, kept from unit to unit (a piece costs two clock reads). */
  readonly #pieces = new PieceSize(1024);

  constructor(
    private readonly exports: JoinExports,
    private readonly tableBytes: number,
    private readonly halves: (n: number) => number,
    private readonly share: SharedSlot | undefined,
  ) {}

  #configure(n: number): void {
    if (this.#configured === n) return;
    this.#configured = -1;
    this.exports.configure(n, this.halves(n), quarterHalfBytes(n, this.tableBytes), this.share?.slot ?? 0);
    this.#configured = n;
  }

  /** Makes the instance hold `unit`'s pass (listing its halves unless `me` holds them already); returns its probes. */
  #prepare(n: number, unit: JoinUnit, pass: number, me: number): number {
    this.#configure(n);
    if (this.#owner !== me) {
      this.#owner = me;
      this.#passes = this.exports.beginUnit(n, unit.eastRows, unit.centreRow, unit.mirrorWeight);
    }
    // Not for a unit without east halves: beginPass(1) would build tables from the west halves the instance listed
    // for an earlier unit, perhaps of a larger n laid out otherwise (memory access out of bounds).
    return pass < this.#passes ? this.exports.beginPass(pass) : 0;
  }

  /** Rethrows `error`; a trap of the module (its only `unreachable`: memory it cannot grow, see assembly/join/join-memory.ts) coded. */
  #rethrow(error: unknown, n: number): never {
    if (!(error instanceof WebAssembly.RuntimeError) || !/unreachable/i.test(error.message)) throw error;
    this.#configured = -1; // its memory may hold half-built tables: lay it out again
    this.#owner = 0;
    throw rangeError(
      `join: n = ${n} ran out of memory: the wasm instance could not grow (it needs up to ${joinMemoryBytes(n)} bytes a thread)`,
      ERROR_CODES.OUT_OF_MEMORY,
      error,
    );
  }

  *countUnitSteps(n: number, unit: JoinUnit, pieceMs = JOIN_PIECE_MS): Generator<number, bigint, undefined> {
    checkJoinSize(n);
    checkJoinUnit(unit, n);
    const me = ++this.#lastOwner;
    try {
      return yield* inPieces(
        {
          passes: unit.mirrorWeight === 2 ? 2 : 1,
          prepare: (pass) => this.#prepare(n, unit, pass, me),
          // Another count used the instance while this one was suspended: its pass again.
          stale: () => this.#owner !== me,
          count: (from, to) => BigInt.asUintN(64, this.exports.countProbes(from, to)),
        },
        this.#pieces,
        pieceMs,
      );
    } catch (error) {
      return this.#rethrow(error, n);
    }
  }

  /** A whole unit in one call: no clock, no generator (a unit of n = 17 takes 27 microseconds). */
  countUnit(n: number, unit: JoinUnit): bigint {
    checkJoinSize(n);
    checkJoinUnit(unit, n);
    try {
      this.#configure(n);
      this.#owner = 0; // a suspended stepped count prepares its pass again
      const { beginUnit, beginPass, countProbes } = this.exports;
      const passes = beginUnit(n, unit.eastRows, unit.centreRow, unit.mirrorWeight);
      let total = 0n;
      for (let pass = 0; pass < passes; pass++) total += BigInt.asUintN(64, countProbes(0, beginPass(pass)));
      return total;
    } catch (error) {
      return this.#rethrow(error, n);
    }
  }
}

/**
 * A join unit counted on this thread from `module` (null: the TypeScript
 * join), in pieces of JOIN_PIECE_MS, so that progress moves inside a unit
 * (at n = 24 one takes seconds); `share`: one memory for the instances
 * of a count's workers (the shared build, assembly/join/quarter-tables.ts),
 * whose quarter tables are held once, and this instance's slot in it.
 */
export function joinUnitCounter(n: number, module: WebAssembly.Module | null, share?: SharedSlot): UnitCounter<JoinUnit> {
  const counter =
    module && !share && n <= KEEP_COUNTER_MAX_N
      ? keptCounter(module)
      : joinCounterFrom(module ? 'wasm' : 'js', module, unitCounterTableBytes, maxHalves, share);
  return (unit) => counter.countUnitSteps(n, unit);
}

/**
 * Largest n whose wasm counter (its instance, quarter tables and all) this
 * thread keeps for its next count: 3.5 MB at n = 16, 12 MB at 18. Building
 * them again took 5% of countSync(16). Counts that take turns on it are told
 * apart by WasmJoinCounter (a count suspended between pieces prepares its
 * pass again).
 */
const KEEP_COUNTER_MAX_N = 18;
let kept: [WebAssembly.Module, JoinCounter] | undefined;

/** A kept counter unused this long is let go (milliseconds): as long as idle workers wait (src/run/pool.ts: IDLE_MS). */
export const KEEP_COUNTER_MS = 5000;
let letGo: ReturnType<typeof setTimeout> | undefined;

/**
 * The counter kept on this thread for `module`, made on first use, and let
 * go KEEP_COUNTER_MS after its last (setJoinTableBytes drops it at once):
 * a page or server that counted n = 18 once held its 12 MB for good.
 */
function keptCounter(module: WebAssembly.Module): JoinCounter {
  if (kept?.[0] !== module) kept = [module, joinCounterFrom('wasm', module, unitCounterTableBytes)];
  clearTimeout(letGo);
  letGo = unrefTimeout(() => (kept = undefined), KEEP_COUNTER_MS);
  return kept[1];
}

/** Whether this thread keeps a join counter now (tests). */
export function keepsJoinCounter(): boolean {
  return kept !== undefined;
}

/** The quarter tables' budget of joinUnitCounter's counters; every instance on a shared memory must agree. */
let unitCounterTableBytes = QUARTER_CACHE_BYTES;

/**
 * Test hook: that budget on this thread (undefined: QUARTER_CACHE_BYTES).
 * Tests make it small so that tables are dropped and rebuilt; workers take
 * it from PoolProbe.workerHooks (src/run/counters.ts).
 */
export function setJoinTableBytes(bytes: number | undefined): void {
  unitCounterTableBytes = bytes ?? QUARTER_CACHE_BYTES;
  kept = undefined;
}

/** How a thread counts the join's units. */
export const joinCounting: UnitCounting<JoinUnit> = { name: 'join', counter: joinUnitCounter };
