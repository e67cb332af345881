// Shared helpers for the kernels. Everything here is i32/u32 bit twiddling;
// a board of n <= 32 columns fits one 32-bit mask (bit j = column j).

/** All-ones mask for the n columns of the board; n = 32 gives 0xFFFFFFFF. */
// @ts-ignore: decorator
@inline export function boardMask(n: i32): u32 {
  return u32(-1) >>> u32(32 - n);
}
