// The command line's grammar: options, which command takes which, and the
// parsing of sizes, engines, thread counts and queens. Every message names
// the flag and quotes what was typed (the library's messages name options
// and types instead, which a command line does not have).
import { parseArgs } from 'node:util';
import { ALGORITHMS, ENGINES, MAX_N, MAX_THREADS, MIN_N, type AlgorithmChoice, type CpuEngineChoice, type EngineChoice } from '../index.js';
import { CPU_ENGINES } from '../run/methods.js';
import { queensConflict } from '../shared/board.js';
import { ERROR_CODES } from '../shared/errors.js';
import { quote, shown } from './shorten.js';
import { didYouMean, oneOf } from './suggest.js';

/** Bad input on the command line: exit status 2. */
export class UsageError extends Error {
  readonly code = ERROR_CODES.USAGE;
}

export const OPTIONS = {
  engine: { type: 'string' },
  algorithm: { type: 'string' },
  threads: { type: 'string' },
  json: { type: 'boolean' },
  checkpoint: { type: 'string' },
  shard: { type: 'string' },
  out: { type: 'string' },
  limit: { type: 'string' },
  format: { type: 'string' },
  placed: { type: 'string' },
  unique: { type: 'boolean' },
  after: { type: 'string' },
  depth: { type: 'string' },
  subtotals: { type: 'string' },
  verify: { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export type OptionValues = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

const COMMAND_OPTIONS = {
  count: ['engine', 'algorithm', 'threads', 'json', 'checkpoint', 'shard', 'out', 'depth', 'subtotals', 'placed'],
  solve: ['engine', 'limit', 'format', 'placed', 'unique', 'after'],
  merge: ['json', 'verify', 'seed', 'engine', 'subtotals'],
} as const;

export type Command = keyof typeof COMMAND_OPTIONS;

/** The options that take a value, as typed: `--engine`, `--threads`, … */
const VALUE_OPTIONS = new Set(
  Object.entries(OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .map(([name]) => `--${name}`),
);

/** `-3`, `-1.5`: a (bad) number, never an option; `-`: stdout (`--out -`), never an option either. */
const looksLikeValue = (token: string): boolean => /^-\d/.test(token) || token === '-';

/**
 * parseArgs reads `-3` as an unknown option and `--threads -1` as ambiguous.
 * Numbers are never options here, so hand them over as values and
 * positionals; the range checks then name the argument that is wrong.
 */
function numbersAsValues(argv: readonly string[]): string[] {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (VALUE_OPTIONS.has(token)) {
      const value = argv[i + 1];
      if (value === undefined || (value.startsWith('-') && !looksLikeValue(value))) refuseMissingValue(token, value);
      options.push(`${token}=${value}`);
      i++;
    } else if (token.startsWith('-') && !looksLikeValue(token)) {
      options.push(token);
    } else {
      positionals.push(token);
    }
  }
  return [...options, '--', ...positionals];
}

/**
 * `--out` followed by no value: `--` ends the options (it is no value, as
 * after any other option), a dash reads as an option; a value that begins
 * with a dash is given with `=` (`--out=-x.json`).
 */
function refuseMissingValue(option: string, next: string | undefined): never {
  if (next === undefined) throw new UsageError(`${option} needs a value`);
  if (next === '--')
    throw new UsageError(`${option} needs a value; "--" after it ends the options (for the value "--", write ${option}=--)`);
  if (optionOf(next)) throw new UsageError(`${option} needs a value before ${shown(next)}`);
  throw new UsageError(
    `${option} needs a value; ${quote(next)} after it reads as an option (for a value that begins with "-", write ${option}=${shown(next)})`,
  );
}

/** The option a token names (`--json`, `-v`, `--out=x`), if the command line has it. */
function optionOf(token: string): [string, (typeof OPTIONS)[keyof typeof OPTIONS]] | undefined {
  const name = token.replace(/^--?/, '').split('=', 1)[0];
  // A short name with one dash only: `--h` is no option (parseArgs refuses it in its own words).
  const short = !token.startsWith('--');
  return Object.entries(OPTIONS).find(([option, o]) => option === name || (short && 'short' in o && o.short === name));
}

/** The short options' letters (`h`, `v`): switches all, none takes a value. */
const SHORT_LETTERS: ReadonlySet<string> = new Set(Object.values(OPTIONS).flatMap((o) => ('short' in o ? [o.short] : [])));

/**
 * `-hv`: short switches bundled as getopt reads them, each as if given apart
 * (`-h -v`). A letter that is no short option is named with its bundle
 * (`-hx`: unknown option -x in -hx), with the long option a word of three
 * letters or more may mean (`-json`); `-hv=1` gives a value to -v, a switch.
 */
function checkShortBundle(token: string): void {
  const bundle = token.split('=', 1)[0];
  const word = bundle.slice(1);
  const unknown = [...word].find((letter) => !SHORT_LETTERS.has(letter));
  if (unknown !== undefined) {
    const long = word.length >= 3 ? didYouMean(word, Object.keys(OPTIONS), (o) => `--${o}`) : '';
    const guess = long || didYouMean(unknown, [...SHORT_LETTERS], (l) => `-${l}`);
    throw new UsageError(`unknown option -${unknown} in ${shown(bundle)}${guess}`);
  }
  if (token.includes('='))
    throw new UsageError(`-${word.at(-1)} takes no value; got ${quote(token.slice(bundle.length + 1))} (in ${shown(token)})`);
}

/** A clean message for an option the command line does not know, with the nearest one it does. */
function checkKnownOptions(argv: readonly string[]): void {
  for (const token of argv) {
    if (token === '--') return;
    if (!token.startsWith('-') || looksLikeValue(token)) continue;
    if (!token.startsWith('--') && token.split('=', 1)[0].length > 2) {
      checkShortBundle(token);
      continue;
    }
    const option = optionOf(token);
    // A switch (--json, -v) given a value: said here, in the command line's words (parseArgs words it its own way).
    const [flag, value] = [token.split('=', 1)[0], token.slice(token.indexOf('=') + 1)];
    if (option?.[1].type === 'boolean' && token.includes('=')) throw new UsageError(`${flag} takes no value; got ${quote(value)}`);
    if (option) continue;
    const name = flag.replace(/^--?/, '');
    // A single dash is a short option (-h, -v): guessing a long one from one letter would mislead; its other case is no typo (-H).
    const guess = token.startsWith('--')
      ? didYouMean(name, Object.keys(OPTIONS), (o) => `--${o}`)
      : didYouMean(name, [...SHORT_LETTERS], (l) => `-${l}`);
    // `--=x` names no option at all: the whole word is what was given.
    throw new UsageError(`unknown option ${shown(name === '' ? token : flag)}${guess}`);
  }
}

/** The options that name a file. */
const FILE_OPTIONS = ['checkpoint', 'out', 'subtotals'] as const;

/** Splits argv into option values and positionals; UsageError for unknown options. */
export function parseCommandLine(argv: readonly string[]): { values: OptionValues; positionals: string[] } {
  // Values first: `--out -x.json` is a missing value (said so), not the unknown option -x.json.
  const args = numbersAsValues(argv);
  checkKnownOptions(argv);
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: OPTIONS, tokens: true });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  refuseRepeats(parsed.tokens);
  return { values: parsed.values as OptionValues, positionals: parsed.positionals };
}

/** An option given twice (`--threads 1 --threads 2`) is refused: which one was meant is a guess. */
function refuseRepeats(tokens: ReturnType<typeof parseArgs>['tokens']): void {
  const seen = new Map<string, { rawName: string; value?: string | undefined }>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option') continue;
    const first = seen.get(token.name);
    if (first) {
      // Named as typed: `-v -v` says -v; `-h --help` says both (only -h and -v have a short name, and take no value).
      const sameSpelling = first.rawName === token.rawName;
      const named = sameSpelling ? token.rawName : `--${token.name}`;
      // Options with a value always have one here; the others are shown by their spelling where it differs.
      const detail =
        token.value !== undefined
          ? ` (${quote(first.value ?? '')} and ${quote(token.value)})`
          : sameSpelling
            ? ''
            : ` (${first.rawName} and ${token.rawName})`;
      throw new UsageError(`${named} is given twice${detail}; give it once`);
    }
    seen.set(token.name, token);
  }
}

/** Refuses options that the command does not take, and file options without a file. */
export function checkCommandOptions(command: Command, values: OptionValues): void {
  const allowed: readonly string[] = COMMAND_OPTIONS[command];
  for (const key of Object.keys(values)) {
    if (!allowed.includes(key)) {
      throw new UsageError(`--${key} does not apply to ${command}; ${command} takes ${allowed.map((o) => `--${o}`).join(', ')}`);
    }
  }
  // An unset shell variable (`--checkpoint "$CKPT"`) names no file: refused, not read as "no checkpoint".
  for (const name of FILE_OPTIONS) if (values[name] === '') throw new UsageError(`--${name} needs a file name; got ""`);
  // `-` is stdout for --out only: a checkpoint is read back (before, it silently made a file named "-"), and
  // stdout has the result beside the subtotals.
  if (values.checkpoint === '-') refuseDash('--checkpoint takes a file (it is read back to resume); name one, e.g. --checkpoint n18.ckpt');
  if (values.subtotals === '-') refuseDash('--subtotals takes a file (stdout has the result); name one, e.g. --subtotals subtotals.txt');
}

/**
 * `-` (stdin or stdout by convention) given where the command needs a file
 * and no stream will do: a usage error, never a file named `-`, which `./-`
 * still names. `why` says what the command takes instead, and an example.
 */
export function refuseDash(why: string): never {
  throw new UsageError(`${why} (./- for a file named -)`);
}

/**
 * A library message about an argument in the command line's terms, for the
 * paths the CLI does not check first: `options.threads` is `--threads`,
 * `engine 'wasm' or 'js'` is `--engine wasm or js`, and neither
 * `solutions(): ` nor `(a string)` means anything here.
 */
export function inFlags(message: string): string {
  return message
    .replace(/^\w+\(\): /, '')
    .replace(/\boptions\.(\w+)/g, (_, name: string) => `--${name}`)
    .replace(/\bengine '(\w+)'(?: or '(\w+)')?/g, (_, one: string, other?: string) => `--engine ${one}${other ? ` or ${other}` : ''}`)
    .replace(/ \(a string\)/g, '');
}

/** A decimal integer in [min, max]; `what` names it in the message. */
export function parseInteger(text: string, what: string, min: number, max: number): number {
  const allowed = max === Infinity ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${what} must be ${allowed}; got ${quote(text)}`);
  return value;
}

/** One of `choices`, with a suggestion for a typo or a prefix. */
function parseChoice<T extends string>(text: string, what: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${what} must be ${oneOf(choices)}; got ${quote(text)}${didYouMean(text, choices)}`);
}

export function parseSize(text: string, what: string): number {
  return parseInteger(text, what, MIN_N, MAX_N);
}

/** One size, or a range of them (`3..3` is a range too: a table of one row). */
export function parseSizes(text: string | undefined): { sizes: number[]; range: boolean } {
  if (text === undefined) throw new UsageError('count needs a board size, e.g. `nqueens count 12` or `nqueens count 1..12`');
  const range = /^(.*)\.\.(.*)$/.exec(text);
  if (!range) return { sizes: [parseSize(text, 'n')], range: false };
  // Each end's message names the whole range: in `1...3` the start is `1.`, which alone says little.
  const from = parseSize(range[1], `the start of the range ${quote(text)}`);
  const to = parseSize(range[2], `the end of the range ${quote(text)}`);
  if (from > to) throw new UsageError(`the range ${quote(text)} is empty; write it as <from>..<to> with from <= to`);
  return { sizes: Array.from({ length: to - from + 1 }, (_, i) => from + i), range: true };
}

export function parseEngine(text: string | undefined): EngineChoice {
  return text === undefined ? 'auto' : parseChoice(text, '--engine', ENGINES);
}

/**
 * An engine for work the GPU does not do (solve, completions; merge's recount, which has no reference engine
 * either): one of `allowed`, which an unknown name's message lists; an engine left out is a usage error saying why.
 */
export function parseCpuEngine<T extends EngineChoice = CpuEngineChoice>(
  text: string | undefined,
  what: string,
  allowed: readonly T[] = CPU_ENGINES as readonly EngineChoice[] as readonly T[],
): T {
  if (text === undefined) return 'auto' as T; // every list has it
  if ((ENGINES as readonly string[]).includes(text) && !(allowed as readonly string[]).includes(text)) {
    const why = text === 'webgpu' ? 'counts whole boards only' : 'cannot recount units';
    throw new UsageError(`--engine ${text} ${why}; ${what} runs on ${oneOf(allowed)}`);
  }
  return parseChoice(text, '--engine', allowed);
}

export function parseAlgorithm(text: string | undefined): AlgorithmChoice {
  return text === undefined ? 'auto' : parseChoice(text, '--algorithm', ALGORITHMS);
}

export function parseThreads(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseInteger(text, '--threads', 1, MAX_THREADS);
}

/** `--limit k` (0 to 2^53 - 1) or `--limit all`; default 1. */
export function parseLimit(text: string | undefined): number {
  if (text === undefined) return 1;
  if (text === 'all') return Infinity;
  // Past 2^53 - 1 a number is no longer exact (99999999999999999999 read as 1e20): refused, not taken for all.
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value <= Number.MAX_SAFE_INTEGER))
    throw new UsageError(`--limit must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (2^53 - 1), or all; got ${quote(text)}`);
  return value;
}

/** `--format board|json` for solve. */
export function parseFormat(text: string | undefined): 'board' | 'json' {
  return text === undefined ? 'board' : parseChoice(text, '--format', ['board', 'json'] as const);
}

/** A number as typed, without its leading zeros (`--placed 0:09` names column 9), cut short as shown() does. */
const digits = (text: string): string => shown(text.replace(/^0+(?=\d)/, ''));

/**
 * `--placed 0:3,5:7`: queens as row:col pairs, 0-based, on an n x n board,
 * no two attacking each other; each message quotes the pair at fault. No
 * spaces, as in every number on the command line (`count " 8"` is refused).
 */
export function parsePlaced(text: string | undefined, n: number): [number, number][] | undefined {
  if (text === undefined) return undefined;
  const pairs = text.split(',');
  const queens = pairs.map((pair): [number, number] => {
    const m = /^(\d+):(\d+)$/.exec(pair);
    if (!m) {
      // An empty piece (a comma doubled or at an end) is named by the whole value: "" alone says nothing of where.
      const got = pair === '' ? `${quote(text)} (an empty pair)` : quote(pair);
      throw new UsageError(`--placed takes row:col pairs separated by commas, 0-based (e.g. 0:3,5:7); got ${got}`);
    }
    const [row, col] = [Number(m[1]), Number(m[2])];
    if (row >= n) throw new UsageError(`--placed ${quote(pair)}: row ${digits(m[1])} is outside 0..${n - 1}`);
    if (col >= n) throw new UsageError(`--placed ${quote(pair)}: column ${digits(m[2])} is outside 0..${n - 1}`);
    return [row, col];
  });
  for (let i = 0; i < queens.length; i++) {
    for (let j = i + 1; j < queens.length; j++) {
      const how = queensConflict(queens[i], queens[j]);
      if (how) throw new UsageError(`--placed ${quote(text)}: the queens ${quote(pairs[i])} and ${quote(pairs[j])} ${how}`);
    }
  }
  return queens;
}

/** `--after 0,2,4,...`: a placement on an n x n board, one column per row, 0-based (no spaces, as for --placed). */
export function parseAfter(text: string | undefined, n: number): number[] | undefined {
  if (text === undefined) return undefined;
  const pieces = text.split(',');
  for (const c of pieces)
    if (!/^\d+$/.test(c))
      throw new UsageError(`--after takes one column per row separated by commas, 0-based (e.g. 0,2,4,1,3); got ${quote(c)}`);
  const columns = pieces.map(Number);
  if (columns.length !== n)
    throw new UsageError(
      `--after ${quote(text)}: ${columns.length} column${columns.length === 1 ? '' : 's'} for ${n} rows; give one column per row`,
    );
  const row = columns.findIndex((c) => c >= n);
  if (row >= 0) throw new UsageError(`--after ${quote(text)}: column ${digits(pieces[row])} (row ${row}) is outside 0..${n - 1}`);
  return columns;
}
