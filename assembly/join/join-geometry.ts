// The join's constants (the bits are those of src/join/join-geometry.ts),
// the board size being counted (set by configure, in join-memory.ts) and
// the helpers that address words and squeeze out the long diagonal.

const CHUNKS: i32 = 6;
const CHUNK_BITS: i32 = 5;
const BLOCK_WORDS: i32 = CHUNKS << CHUNK_BITS; // words per block
export const LANE_SHIFT: i32 = ASC_FEATURE_SIMD ? 7 : 6; // halves per block: 128 (v128 words) or 64 (i64)
export const LANES: i32 = 1 << LANE_SHIFT;
export const WORD_SHIFT: i32 = LANE_SHIFT - 3; // bytes per word: 16 or 8
export const BLOCK_BYTES: usize = <usize>BLOCK_WORDS << WORD_SHIFT;
// Table halves per group wanted: groups are packed, so small ones cost no
// padding, but each key's list visits every group clear of it: 16 took 0.94x
// the time of 8 at n = 16 and 18 (0.99x at 20; from 22 the residue sets the key).
export const KEY_FILL: i32 = 16;
export const ENTRY_BYTES: usize = <usize>2 << WORD_SHIFT; // a listed block: its halves mask (one word), then its address
// Blocks a probe tests before the next probe of its key takes them, so that
// they stay in cache: 12 blocks of 128 halves (36 KiB; with two blocks a turn
// 0.95x the time of 8 at n = 20 and 22, 24 no better), 16 of 64.
export const TILE_BYTES: usize = (ASC_FEATURE_SIMD ? 12 : 16) * ENTRY_BYTES;
// Key bits per family: at most 5 (1024 groups) up to n = 23, which leave 20
// bits to match, 15 in the residues; n = 24 leaves 22, so 7 (16,384 groups).
export const MAX_GROUPS: i32 = 1 << 14;
// A half's two masks in a u64: bit r + c from bit 0 (35 bits at n = 24), bit
// r - c + h - 1 from bit D2. Shifting a south entry by band keeps the first
// below D2 and pushes past bit 63 only second-family bits from 24 up, which
// no window or check reads (they need bits up to 2h - 2 and band + h - 2:
// 22 at n = 24). The centre queen's (odd n) fall within both.
export const D2: u64 = 40;
// Bits 35 to 38, which no diagonal reaches, carry a half's two shares under
// the transpose's test (half-boards.ts), read when it is a probe.
export const SHARES: u64 = 35;

// The board being counted (configure): h columns a half, band rows in the north band (n - h).
export let h: i32 = 0;
export let band: i32 = 0;

// @ts-ignore: decorator
@inline export function at(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

// @ts-ignore: decorator
@inline export function align(p: usize, to: usize): usize {
  return (p + to - 1) & ~(to - 1);
}

// @ts-ignore: decorator
@inline export function squeeze(x: i32, below: i32): i32 {
  return (x & below) | ((x >>> 1) & ~below);
}
