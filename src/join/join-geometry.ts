// Where a half-board's queens land on the diagonals that both halves cross,
// and how the join groups and slices those diagonals. Shared by the TS
// kernel (src/join/join-kernel.ts) and mirrored by assembly/join/join-geometry.ts. Bit h - 1
// of each family is a long diagonal of the board; the long-diagonal filter
// (join-plan.ts) keeps it empty on the table side and squeezes it out, so
// 2h - 2 bits per family are matched.
//
// Both halves are enumerated as an "east-style" half: columns 0..h-1. The
// west half is the east-style half mirrored (column c <-> n-1-c), which
// swaps its two diagonal families. A queen at (r, c) of an east-style half
// crosses
//   family A: the diagonal r + c, bit r + c - (n - h)
//   family B: the diagonal r - c, bit r - c + h - 1
// when that bit lies in 0..2h-2 (the diagonal also crosses the other half).
// An east half (A, B) and a west half (A', B') are compatible exactly when
// A & B' == 0 and B & A' == 0.

/** Diagonals per family that both halves cross. */
export function windowBits(n: number): number {
  return 2 * (n >> 1) - 1;
}

/**
 * Bits per family taken out of the bit-sliced match and used to group the
 * east halves instead: a west half visits only the groups it can match.
 * More groups prune more pairs but leave more padding in the blocks, so a
 * unit takes as many as leave about `fill` east halves per group (one
 * block's worth), at most 4 (256 groups), at least what leaves a residue
 * of three 5-bit chunks. `width`: bits per family to match. Mirrored by
 * assembly/join/join-tables.ts.
 */
export function groupBits(width: number, eastCount: number, fill: number): number {
  // width - 15 is at most MAX_GROUP_BITS up to JOIN_MAX_N (n = 22 and 23: 20 bits to match, 5 taken out; n = 24: 22, 7).
  let bits = Math.max(0, width - 15);
  while (bits < 4 && 2 * (bits + 1) <= width && eastCount >> (2 * bits + 2) >= fill) bits++;
  return bits;
}

/** Most group bits per family: 16,384 groups (n = 24). */
export const MAX_GROUP_BITS = 7;

/** Chunks of a residue: three per family of 5 bits each, 32 table entries per chunk. */
export const CHUNKS = 6;
export const CHUNK_BITS = 5;
