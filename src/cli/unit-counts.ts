// The counts of a slice's units (from..to-1) as a count finishes them or a
// checkpoint brings them back: a typed array and a bitmap, 8 bytes and a
// bit a unit, never an object a unit (a deep plan has millions of units:
// n = 18 at depth 4, 17.0 M; one Map entry and bigint each took ~200 bytes).
export class UnitCounts {
  readonly #counts: BigUint64Array;
  readonly #done: Uint8Array;
  /** Units with a count. */
  finished = 0;

  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    this.#counts = new BigUint64Array(to - from);
    this.#done = new Uint8Array((to - from + 7) >>> 3);
  }

  has(id: number): boolean {
    const k = id - this.from;
    return (this.#done[k >>> 3] & (1 << (k & 7))) !== 0;
  }

  /** Unit id's count (0n if it has none yet). */
  get(id: number): bigint {
    return this.#counts[id - this.from];
  }

  set(id: number, count: bigint): void {
    const k = id - this.from;
    if (!this.has(id)) this.finished++;
    this.#done[k >>> 3] |= 1 << (k & 7);
    this.#counts[k] = count;
  }

  /** The ids with a count, in order. */
  *ids(): Generator<number, void, undefined> {
    for (let id = this.from; id < this.to; id++) if (this.has(id)) yield id;
  }

  /** The counts of from..to-1, in order (every unit counted). */
  get counts(): ArrayLike<bigint> {
    return this.#counts;
  }
}
