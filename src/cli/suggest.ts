// "Did you mean": the known word a mistyped one most likely meant, for
// options, commands and option values alike.

/**
 * The candidate `word` most likely stands for: the only one it begins
 * (`--algo` for `--algorithm`), else the nearest within two edits
 * (`--threds`, `cont`); undefined when nothing is close or a prefix fits
 * several. One- and two-letter words are near too much to suggest anything,
 * unless they begin exactly one candidate.
 */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  if (word === '') return undefined;
  const prefixed = candidates.filter((c) => c.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1 || word.length < 3) return undefined;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** `; did you mean X?` for a message, or nothing. */
export function didYouMean(word: string, candidates: readonly string[], show = (c: string) => c): string {
  const best = suggest(word, candidates);
  return best === undefined ? '' : `; did you mean ${show(best)}?`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
