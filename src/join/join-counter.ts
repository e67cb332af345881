// Counts the half-board join's units on one thread, on either engine. Apart
// from the compiled module's source (./join-module.ts), so that a worker
// (which receives the module compiled) does not carry the wasm bytes.
import { instantiate } from '../engines/wasm-loader.js';
import { onePiece, type UnitCounter } from '../run/method.js';
import { countJoinUnit as countJoinUnitJs } from './join-kernel.js';
import { ERROR_CODES, rangeError } from '../shared/errors.js';
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
  countJoinSplit(n: number, eastRows: number, centreRow: number, mirrorWeight: number): bigint;
}

/** Counts units of the join on one thread; each counter owns its tables (one wasm instance, or the shared TS state). */
export interface JoinCounter {
  readonly engine: JoinEngine;
  /** Solutions of one unit's split (multiply by unit.weight for its share of the total). */
  countUnit(n: number, unit: JoinUnit): bigint;
}

/**
 * One memory for the instances of a count's workers (the join's shared
 * build, assembly/join/join-kernel.ts): its quarter tables are held once,
 * and each instance has its own slot (0, 1, ...) for the rest.
 */
export interface JoinShare {
  readonly memory: WebAssembly.Memory;
  readonly slot: number;
  /** Test hook: the tables' budget (default QUARTER_CACHE_BYTES); every instance on the memory must agree. */
  readonly tableBytes?: number | undefined;
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
  share?: JoinShare,
): JoinCounter {
  if (engine === 'js' || !module) return { engine: 'js', countUnit: countJoinUnitJs };
  const exports = instantiate<JoinExports>(module, share?.memory);
  let configured = -1;
  return {
    engine,
    countUnit(n, unit) {
      checkJoinSize(n);
      checkJoinUnit(unit, n);
      try {
        if (configured !== n) {
          configured = -1;
          exports.configure(n, halves(n), quarterHalfBytes(n, tableBytes), share?.slot ?? 0);
          configured = n;
        }
        return BigInt.asUintN(64, exports.countJoinSplit(n, unit.eastRows, unit.centreRow, unit.mirrorWeight));
      } catch (error) {
        // The module's only `unreachable`: memory it cannot grow (assembly/join/join-kernel.ts: grow, configure).
        if (!(error instanceof WebAssembly.RuntimeError) || !/unreachable/i.test(error.message)) throw error;
        configured = -1; // its memory may hold half-built tables: lay it out again
        throw rangeError(
          `join: n = ${n} ran out of memory: the wasm instance could not grow (it needs up to ${joinMemoryBytes(n)} bytes a thread)`,
          ERROR_CODES.OUT_OF_MEMORY,
          error,
        );
      }
    },
  };
}

/** A join unit counted on this thread from `module` (null: the TypeScript join), in one piece; `share`: see JoinShare. */
export function joinUnitCounter(n: number, module: WebAssembly.Module | null, share?: JoinShare): UnitCounter<JoinUnit> {
  const counter = joinCounterFrom(module ? 'wasm' : 'js', module, share?.tableBytes ?? QUARTER_CACHE_BYTES, maxHalves, share);
  return (unit) => onePiece(counter.countUnit(n, unit));
}
