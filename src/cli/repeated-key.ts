// A key written twice in one object of a JSON text: JSON.parse keeps the
// last, so a file edited by appending `"total": "…"` would read as if it had
// always said so. The files the CLI reads (shards, checkpoints) never repeat
// a key, so one that does was edited, and is refused.

/** The first key that appears twice in one object of `text` (valid JSON, as JSON.parse accepted it), if any. */
export function repeatedKey(text: string): string | undefined {
  // Per open object, the keys seen so far (undefined for an array); whether a string here would be a key.
  const open: (Set<string> | undefined)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (keyNext) {
        const key = JSON.parse(text.slice(i, end + 1)) as string; // escapes read, so "\u0074otal" is "total"
        const keys = open[open.length - 1]!;
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === '{') {
      open.push(new Set());
      keyNext = true;
    } else if (c === '[') {
      open.push(undefined);
    } else if (c === '}' || c === ']') {
      open.pop();
    } else if (c === ',') {
      keyNext = open[open.length - 1] !== undefined;
    }
  }
  return undefined;
}
