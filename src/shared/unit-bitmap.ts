// Which units of from..to-1 are finished: a bit a unit (a deep plan has
// millions of units; n = 20 at depth 4, 66.6 M, takes 8.3 MB here).
export class UnitBitmap {
  readonly #bits: Uint8Array;
  /** Units marked. */
  finished = 0;

  constructor(
    readonly from: number,
    to: number,
  ) {
    this.#bits = new Uint8Array((Math.max(0, to - from) + 7) >>> 3);
  }

  has(id: number): boolean {
    const k = id - this.from;
    return (this.#bits[k >>> 3] & (1 << (k & 7))) !== 0;
  }

  /** Marks unit `id`; false if it was already marked. */
  add(id: number): boolean {
    if (this.has(id)) return false;
    const k = id - this.from;
    this.#bits[k >>> 3] |= 1 << (k & 7);
    this.finished++;
    return true;
  }
}
