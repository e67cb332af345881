// What a message shows of what came from outside: a value typed on the
// command line, a file name, a field of a refused shard or checkpoint. Any
// of them may be 100 KB or more (a name made by a script, a damaged file),
// so a message shows its first SHOWN characters and its length, never the
// whole: one line of stderr, not megabytes.

/** The most characters of a value a message shows. */
const SHOWN = 60;

/**
 * `text`, or its first SHOWN characters (no half of a surrogate pair) with an
 * ellipsis and its length, through `show`; `end`, the last characters of
 * `text`, after the ellipsis where they tell it from names of the same start.
 */
function shorten(text: string, show: (text: string) => string, end = ''): string {
  if (text.length <= SHOWN) return show(text);
  const start = text.slice(0, SHOWN).replace(/[\uD800-\uDBFF]$/, '');
  return `${show(start)}…${end} (${text.length.toLocaleString('en-US')} characters)`;
}

/** What was typed, quoted: on a command line every value is a string. A long one is cut short (see SHOWN). */
export const quote = (text: string): string => shorten(text, JSON.stringify);

/** A name as it is, where a message shows it unquoted (a file's, an option's); cut short as quote() does. Typed values are quote()d. */
export const shown = (text: string): string => shorten(text, (t) => t);

/** A name cut short as shown() does, but for its `end` (a suffix, a digest), which is shown whole. */
export const shownWithEnd = (text: string, end: string): string => shorten(text, (t) => t, text.endsWith(end) ? end : '');

/** A field of a refused file as JSON writes it (`"x"`, `1e9`, `{…}`), cut short as quote() does; `missing` where it has none. */
export function field(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  // A number past a double's range (`1e400`) parses as ±Infinity, which JSON.stringify would show as null.
  if (typeof value === 'number' && !Number.isFinite(value))
    return `a number past a double's range (${value > 0 ? '' : '-'}1e309 or beyond)`;
  return shown(JSON.stringify(value) ?? 'missing');
}
