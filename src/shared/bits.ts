// Bit counting for the plans and kernels written in TypeScript.

/** Set bits of x's low 32 bits (SWAR: pairs, nibbles, then bytes summed by one multiply). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
