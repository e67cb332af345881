// A worker's finished units on their way back to the pool: two arrays of
// numbers, ids and counts (one heap object each however many units, where
// an object a unit outlived several scavenges on both threads at depth 4:
// thousands finish between two reports), with any count of 2^53 or more,
// which a number cannot hold exactly, beside them. Plain arrays rather than
// typed ones: a typed array's memory lies outside the heap, freed only by
// a full collection, and V8 lets 64 MB of it wait for one.
export interface UnitResults {
  readonly ids: number[];
  /** Each unit's count; 0 where `wide` holds it. */
  readonly counts: number[];
  /** The counts of 2^53 or more, by their index, in order. */
  readonly wide: { readonly index: number; readonly count: bigint }[];
}

const EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** No results yet. */
export function noResults(): UnitResults {
  return { ids: [], counts: [], wide: [] };
}

/** Adds unit `id`'s count. */
export function addResult(results: UnitResults, id: number, count: bigint): void {
  const exact = count <= EXACT;
  if (!exact) results.wide.push({ index: results.ids.length, count });
  results.ids.push(id);
  results.counts.push(exact ? Number(count) : 0);
}

/** Calls `each` with every result, in order. */
export function eachResult(results: UnitResults, each: (id: number, count: bigint) => void): void {
  let w = 0;
  for (let i = 0; i < results.ids.length; i++) {
    const wide = results.wide[w]?.index === i ? results.wide[w++].count : undefined;
    each(results.ids[i], wide ?? BigInt(results.counts[i]));
  }
}
