// A shard's unit counts (from..to-1), for its file, which holds a count a
// unit: a typed array, 8 bytes a unit, never an object a unit (a deep
// plan has millions of units). A whole count keeps none of these: only
// its method's CountParts (per constellation for the search).
export class UnitCounts {
  readonly #counts: BigUint64Array;

  constructor(
    readonly from: number,
    to: number,
  ) {
    this.#counts = new BigUint64Array(Math.max(0, to - from));
  }

  set(id: number, count: bigint): void {
    this.#counts[id - this.from] = count;
  }

  /** The counts of from..to-1, in order (every unit counted). */
  get counts(): ArrayLike<bigint> {
    return this.#counts;
  }
}
