// Independent brute force for the tests: no package code.

/** Every permutation in lexicographic order, keeping those with no diagonal attack. */
export function bruteForce(n: number): number[][] {
  const out: number[][] = [];
  const perm: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const extend = (): void => {
    if (perm.length === n) {
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) if (Math.abs(perm[i] - perm[j]) === j - i) return;
      }
      out.push([...perm]);
      return;
    }
    for (let c = 0; c < n; c++) {
      if (used[c]) continue;
      used[c] = true;
      perm.push(c);
      extend();
      perm.pop();
      used[c] = false;
    }
  };
  extend();
  return out;
}
