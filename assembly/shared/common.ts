// Shared helpers for the kernels. Everything here is i32/u32 bit twiddling;
// a board of n <= 32 columns fits one 32-bit mask (bit j = column j).

/** All-ones mask for the n columns of the board; n = 32 gives 0xFFFFFFFF. */
// @ts-ignore: decorator
@inline export function boardMask(n: i32): u32 {
  return u32(-1) >>> u32(32 - n);
}

/** The squares of `row` on the diagonals of a queen at (qr, qc), on an n-column board. */
// @ts-ignore: decorator
@inline export function diagonalAttacks(n: i32, row: i32, qr: i32, qc: i32): u32 {
  const dist = row - qr;
  let m: u32 = 0;
  const up = qc + dist;
  const down = qc - dist;
  if (up >= 0 && up < n) m |= 1 << up;
  if (down >= 0 && down < n) m |= 1 << down;
  return m;
}
