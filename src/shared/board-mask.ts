/** All-ones mask for the n columns of the board, as an int32 (n = 32 gives -1). */
export function boardMask(n: number): number {
  return (-1 >>> (32 - n)) | 0;
}
