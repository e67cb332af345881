// Counting a join unit in pieces of about pieceMs of probes, the same on
// both engines (the wasm instance in ./join-counter.ts, the TypeScript
// kernel in ./join-kernel.ts): each piece is a range of a pass's probes,
// sized by the clock, and the share of the unit done is yielded after it.

/** What a kernel gives the piece loop for one unit. */
interface PassCounter {
  readonly passes: number;
  /** Makes the kernel hold `pass` (again, if another count used it meanwhile); returns its probes. */
  prepare(pass: number): number;
  /** Whether another count used the kernel since this unit last prepared it. */
  stale(): boolean;
  /** The matches, weighted, of probes from .. to - 1 of the pass held. */
  count(from: number, to: number): bigint;
}

/** Probes per piece, kept from unit to unit (small units then take one piece a pass); at least 64. */
export class PieceSize {
  probes: number;
  constructor(first: number) {
    this.probes = first;
  }

  /** After a piece that took `took` ms: the next one about pieceMs, within a factor of 4 of this one. */
  adapt(took: number, pieceMs: number): void {
    if (took < pieceMs / 2) this.probes = Math.min(2 * this.probes, 2 ** 30);
    else if (took > pieceMs * 2 && this.probes > 64) this.probes >>>= 1;
  }
}

/** Runs `unit`'s passes in pieces, yielding the share done after each but the last; returns the sum of the pieces. */
export function* inPieces(unit: PassCounter, size: PieceSize, pieceMs: number): Generator<number, bigint, undefined> {
  let total = 0n;
  for (let pass = 0; pass < unit.passes; pass++) {
    let probes = unit.prepare(pass);
    for (let i = 0; i < probes;) {
      if (unit.stale()) probes = unit.prepare(pass);
      const started = performance.now();
      const to = Math.min(probes, i + size.probes);
      total += unit.count(i, to);
      i = to;
      size.adapt(performance.now() - started, pieceMs);
      if (i < probes || pass < unit.passes - 1) yield (pass + i / probes) / unit.passes;
    }
  }
  yield 1;
  return total;
}
