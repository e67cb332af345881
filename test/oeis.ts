// Reference counts, embedded so the tests need nothing outside the repo.
// TOTAL[n]: OEIS A000170 (all solutions). UNIQUE[n]: OEIS A002562
// (fundamental solutions, one per class under rotations and reflections).
export const TOTAL: Record<number, bigint> = {
  1: 1n, 2: 0n, 3: 0n, 4: 2n, 5: 10n, 6: 4n, 7: 40n, 8: 92n, 9: 352n, 10: 724n,
  11: 2680n, 12: 14200n, 13: 73712n, 14: 365596n, 15: 2279184n, 16: 14772512n,
  17: 95815104n, 18: 666090624n, 19: 4968057848n, 20: 39029188884n,
  21: 314666222712n, 22: 2691008701644n, 23: 24233937684440n,
  24: 227514171973736n, 25: 2207893435808352n, 26: 22317699616364044n,
  27: 234907967154122528n,
};

export const UNIQUE: Record<number, bigint> = {
  1: 1n, 2: 0n, 3: 0n, 4: 1n, 5: 2n, 6: 1n, 7: 6n, 8: 12n, 9: 46n, 10: 92n,
  11: 341n, 12: 1787n, 13: 9233n, 14: 45752n, 15: 285053n, 16: 1846955n,
  17: 11977939n, 18: 83263591n, 19: 621012754n, 20: 4878666808n,
  21: 39333324973n, 22: 336376244042n, 23: 3029242658210n,
  24: 28439272956934n, 25: 275986683743434n, 26: 2789712466510289n,
  27: 29363495934315694n,
};

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
