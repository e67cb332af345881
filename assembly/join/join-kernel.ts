// The half-board join in wasm: the solutions of one row split, as the number
// of (east, west) half-boards whose diagonals are disjoint. The same method
// as src/join/join-kernel.ts (read its header and join-geometry.ts for the bits),
// with 64 east halves per bit-sliced block instead of 32 (128, one v128 per
// word, in the SIMD build).
//
// Half-boards are joined from quarter-board tables, one per set of rows, as
// in src/join/quarter-tables.ts: built when a unit first needs them and kept
// in two generations of an arena. Memory, laid out by configure() (join-memory.ts): small
// tables, the arena, then each instance's own room (its slot) for the most
// half-boards a side of n can have (the bound src/join/join-plan.ts keeps
// per n) and its scratch.
//
// The shared build (threads feature: ASC_FEATURE_THREADS) imports one
// shared memory for all the workers of a count, so the arena and its index
// are held once per process: a table is looked up or built under a lock,
// and an instance reading tables pins the oldest generation it reads, so
// that a generation is not reused under it (see quarter-tables.ts).
//
// Files: join-geometry.ts (constants), join-memory.ts (layout, configure),
// quarter-tables.ts, half-boards.ts (listing), join-tables.ts (a pass's
// preparation and bit-sliced tables), join-probes.ts (counting); here the
// entry points that count a unit.

import { eastD, westD } from "./join-memory";
import { enumerateHalves } from "./half-boards";
import { preparePass } from "./join-tables";

// The unit being counted, between calls: its halves' counts and mirror weight.
let eastCount = 0;
let westCount = 0;
let unitMirror = 0;

/**
 * Starts the unit whose east rows are `eastRows` (odd n: centre column's
 * queen in row centreRow, else -1): lists both sides' halves. Returns its
 * passes: 0 (no east half), 1, or 2 when mirrorWeight is 2 (the east-west
 * mirror's count too, from the same two lists with the roles swapped; see
 * src/join/join-plan.ts). A unit is counted in pieces so that the host can
 * report progress between them: beginPass, then countProbes over its range.
 */
export function beginUnit(n: i32, eastRows: i32, centreRow: i32, mirrorWeight: i32): i32 {
  const all = (1 << n) - 1;
  const westRows = all & ~eastRows & ~(centreRow >= 0 ? 1 << centreRow : 0);
  eastCount = enumerateHalves(eastRows, centreRow, eastD);
  if (eastCount == 0) return 0;
  westCount = enumerateHalves(westRows, centreRow, westD);
  unitMirror = mirrorWeight;
  return mirrorWeight == 2 ? 2 : 1;
}

/** Prepares pass 0 (east halves as the table, west as probes) or 1 (the mirror's); returns its probes. */
export function beginPass(pass: i32): i32 {
  return pass == 0 ? preparePass(eastD, eastCount, westD, westCount, unitMirror) : preparePass(westD, westCount, eastD, eastCount, 0);
}
