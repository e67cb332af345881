// "Did you mean": the known word a mistyped one most likely meant, for
// options, commands and option values alike.

/**
 * The candidates `word` most likely stands for: those it begins, when at
 * most three do (`--algo`: `--algorithm`; `--s`: `--shard`, `--seed`,
 * `--subtotals`), else the nearest within two edits (`--threds`, `cont`);
 * none when nothing is close. Words of one or two letters are near too much
 * for edits, so only their prefixes count. Case is no typo to count: the
 * words compare in lower case (`COUNT`, `--JSON`, `--engine WASM`).
 */
export function suggestions(word: string, candidates: readonly string[]): string[] {
  if (word === '') return [];
  const typed = word.toLowerCase();
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(typed));
  if (prefixed.length > 0) return prefixed.length <= 3 ? prefixed : [];
  if (word.length < 3) return [];
  let best: string[] = [];
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(typed, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [[candidate], d];
  }
  return best;
}

/** `a, b or c`. */
export const oneOf = (words: readonly string[]): string =>
  words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** `; did you mean X?` (or `X, Y or Z?`) for a message, or nothing. */
export function didYouMean(word: string, candidates: readonly string[], show = (c: string) => c): string {
  const found = suggestions(word, candidates).map(show);
  if (found.length === 0) return '';
  return `; did you mean ${oneOf(found)}?`;
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
