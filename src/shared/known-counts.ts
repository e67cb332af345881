// The published counts (OEIS A000170, all solutions; A002562, one per class
// under rotations and reflections), as far as they are known (n = 27, 2016):
// merge checks the shards' sum against them, so a shard miscounted on a bad
// node, or edited with its digest made again, is not reported as a result,
// and the WebGPU engine its count (a GPU runs its shader without bounds
// checks, on drivers this package was never tried on).
const TOTALS = [
  '1', '0', '0', '2', '10', '4', '40', '92', '352', '724', '2680', '14200', '73712', '365596', '2279184', '14772512',
  '95815104', '666090624', '4968057848', '39029188884', '314666222712', '2691008701644', '24233937684440',
  '227514171973736', '2207893435808352', '22317699616364044', '234907967154122528',
]; // prettier-ignore
const UNIQUE = [
  '1', '0', '0', '1', '2', '1', '6', '12', '46', '92', '341', '1787', '9233', '45752', '285053', '1846955', '11977939',
  '83263591', '621012754', '4878666808', '39333324973', '336376244042', '3029242658210', '28439272956934',
  '275986683743434', '2789712466510289', '29363495934315694',
]; // prettier-ignore

/** The largest n whose counts are published. */
export const KNOWN_MAX_N = TOTALS.length;

/** The published total and unique count of n, or undefined past KNOWN_MAX_N. */
export function knownCounts(n: number): { total: bigint; unique: bigint } | undefined {
  return Number.isInteger(n) && n >= 1 && n <= KNOWN_MAX_N ? { total: BigInt(TOTALS[n - 1]), unique: BigInt(UNIQUE[n - 1]) } : undefined;
}

/** The published counts of n where `counted` differs from them (else undefined: they agree, or none are known). */
export function unpublished(n: number, counted: { total: bigint; unique: bigint }): { total: bigint; unique: bigint } | undefined {
  const known = knownCounts(n);
  return known === undefined || (known.total === counted.total && known.unique === counted.unique) ? undefined : known;
}
