#!/usr/bin/env node
// The nqueens command line: count, solve. Errors are one line on stderr.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Checkpoint } from './checkpoint.js';
import {
  AUTO_THREADS_MIN_N,
  count,
  ENGINES,
  MAX_N,
  MAX_THREADS,
  MIN_N,
  planSubproblems,
  solutions,
  toBoard,
  type CountResult,
  type EngineChoice,
} from './index.js';
import { progressBar } from './progress-bar.js';
import { runPlan } from './run.js';
import { mergeShards, parseShard, SHARD_FORMAT, shardOf, type ShardResult } from './shards.js';
import { describe } from './validate.js';
import { VERSION } from './version.js';

const HELP = `nqueens: count and list N-Queens solutions (WebAssembly kernel, TypeScript fallback)

Usage:
  nqueens count <n> [options]        count the solutions for one board size
  nqueens count <from>..<to>         a table for a range of sizes, e.g. 1..16
  nqueens solve <n> [options]        print solutions in lexicographic order
  nqueens merge <files...>           add up shard results into the whole count

Options:
  --engine <name>      auto (default), wasm, js or reference
  --threads <k>        worker threads, 1 to ${MAX_THREADS} (default: every core from n = ${AUTO_THREADS_MIN_N})
  --json               count, merge: print JSON (counts as strings)
  --checkpoint <file>  count: record finished subproblems in <file>; rerun the
                       same command to resume after Ctrl-C or a crash
  --shard <i>/<m>      count: run only slice i of m (0-based: 0/8 ... 7/8)
  --out <file>         count --shard: write the shard's JSON result to <file>
  --limit <k>          solve: stop after k solutions (default 1)
  --format <f>         solve: board (default) or json
  -h, --help           show this help
  -v, --version        show the version

n is an integer from ${MIN_N} to ${MAX_N}. Counts are exact: total (OEIS A000170)
and unique, one per class under rotations and reflections (OEIS A002562).

A progress bar is drawn on stderr when it is a terminal. Ctrl-C stops a
count cleanly (exit status 130).

Examples:
  nqueens count 16
  nqueens count 1..14 --engine js
  nqueens count 18 --checkpoint n18.ckpt
  nqueens count 20 --shard 3/8 --out shard-3.json   (then: nqueens merge shard-*.json)
  nqueens solve 8 --limit 3
`;

class UsageError extends Error {}

const COMMAND_OPTIONS = {
  count: ['engine', 'threads', 'json', 'checkpoint', 'shard', 'out'],
  solve: ['engine', 'limit', 'format'],
  merge: ['json'],
} as const;

function parseSize(text: string, what: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${what} must be an integer from ${MIN_N} to ${MAX_N}; got ${describe(text)}`);
  const n = Number(text);
  if (n < MIN_N || n > MAX_N) throw new UsageError(`${what} must be an integer from ${MIN_N} to ${MAX_N}; got ${n}`);
  return n;
}

function parseSizes(text: string | undefined): number[] {
  if (text === undefined) throw new UsageError('count needs a board size, e.g. `nqueens count 12` or `nqueens count 1..12`');
  const range = /^(.*)\.\.(.*)$/.exec(text);
  if (!range) return [parseSize(text, 'n')];
  const from = parseSize(range[1], 'the start of the range');
  const to = parseSize(range[2], 'the end of the range');
  if (from > to) throw new UsageError(`the range ${text} is empty; write it as <from>..<to> with from <= to`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function parseEngine(text: string | undefined): EngineChoice {
  const engine = text ?? 'auto';
  if (!(ENGINES as readonly string[]).includes(engine)) {
    throw new UsageError(`--engine must be one of ${ENGINES.join(', ')}; got ${describe(engine)}`);
  }
  return engine as EngineChoice;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

function formatRate(r: CountResult): string {
  if (r.elapsedMs <= 0 || r.total === 0n) return '-';
  const perSecond = (Number(r.total) / r.elapsedMs) * 1000;
  const units: [number, string][] = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [scale, unit] of units) if (perSecond >= scale) return `${(perSecond / scale).toFixed(2)} ${unit} solutions/s`;
  return `${perSecond.toFixed(0)} solutions/s`;
}

function asJson(r: CountResult): string {
  return JSON.stringify({ ...r, total: r.total.toString(), unique: r.unique.toString() });
}

function parseThreads(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const threads = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(threads >= 1 && threads <= MAX_THREADS)) {
    throw new UsageError(`--threads must be an integer from 1 to ${MAX_THREADS}; got ${describe(text)}`);
  }
  return threads;
}

function printResult(r: CountResult): void {
  const lines = [
    ['N', String(r.n)],
    ['total', r.total.toString()],
    ['unique', r.unique.toString()],
    ['engine', r.engine],
    ['threads', String(r.threads)],
    ['time', formatMs(r.elapsedMs)],
    ['rate', formatRate(r)],
  ];
  for (const [key, value] of lines) console.log(`${key.padEnd(7)} ${value}`);
}

/** Ctrl-C aborts the count; a second one exits at once. */
function interruptible(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

class Interrupted extends Error {}

async function withProgress<T>(work: (bar: ReturnType<typeof progressBar>, signal: AbortSignal) => Promise<T>): Promise<T> {
  const bar = progressBar(process.stderr);
  const { signal, dispose } = interruptible();
  try {
    return await work(bar, signal);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw new Interrupted('interrupted');
    throw error;
  } finally {
    bar.clear();
    dispose();
  }
}

async function runCount(positionals: string[], values: Record<string, unknown>): Promise<void> {
  const sizes = parseSizes(positionals[0]);
  if (positionals.length > 1) throw new UsageError(`count takes one size or range; unexpected ${describe(positionals[1])}`);
  const engine = parseEngine(values.engine as string | undefined);
  const threads = parseThreads(values.threads as string | undefined);
  const json = values.json === true;
  const checkpointFile = values.checkpoint as string | undefined;
  const shardText = values.shard as string | undefined;
  const out = values.out as string | undefined;
  if (sizes.length > 1 && (checkpointFile || shardText)) throw new UsageError('--checkpoint and --shard take a single n, not a range');
  if (out && !shardText) throw new UsageError('--out goes with --shard i/m');
  if ((checkpointFile || shardText) && engine === 'reference') {
    throw new UsageError("--checkpoint and --shard need engine auto, wasm or js (the reference has no subproblems)");
  }
  if (engine === 'reference' && threads !== undefined && threads > 1) {
    throw new UsageError("--threads must be 1 with --engine reference (it has no subproblems to share)");
  }
  if (checkpointFile || shardText) {
    await runSlice(sizes[0], engine as 'auto' | 'wasm' | 'js', threads, json, checkpointFile, shardText, out);
    return;
  }
  if (sizes.length === 1 && !json) {
    printResult(await withProgress((bar, signal) => count(sizes[0], { engine, threads, signal, onProgress: bar.update })));
    return;
  }
  if (!json) console.log(`${'N'.padStart(3)} ${'total'.padStart(22)} ${'unique'.padStart(20)}  ${'engine'.padEnd(9)} ${'time'.padStart(10)}  rate`);
  for (const n of sizes) {
    const r = await withProgress((bar, signal) => count(n, { engine, threads, signal, onProgress: bar.update }));
    if (json) console.log(asJson(r));
    else {
      console.log(
        `${String(n).padStart(3)} ${r.total.toString().padStart(22)} ${r.unique.toString().padStart(20)}  ${r.engine.padEnd(9)} ${formatMs(r.elapsedMs).padStart(10)}  ${formatRate(r)}`,
      );
    }
  }
}

/** A count restricted to a shard and/or recorded in a checkpoint. */
async function runSlice(
  n: number,
  engine: 'auto' | 'wasm' | 'js',
  threads: number | undefined,
  json: boolean,
  checkpointFile: string | undefined,
  shardText: string | undefined,
  out: string | undefined,
): Promise<void> {
  let spec;
  try {
    spec = parseShard(shardText ?? '0/1');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const plan = planSubproblems(n);
  const slice = shardOf(plan, spec);
  const checkpoint = checkpointFile ? Checkpoint.open(checkpointFile, n, `${spec.index}/${spec.count}`, slice) : undefined;
  const { already, remaining } = checkpoint
    ? checkpoint.resume(slice)
    : { already: undefined, remaining: slice };
  const start = performance.now();
  let r;
  try {
    r = await withProgress((bar, signal) =>
      runPlan({
        n,
        subproblems: remaining,
        engine,
        threads,
        signal,
        already,
        onProgress: bar.update,
        onSubproblem: checkpoint ? (s, c) => checkpoint.record(s, c) : undefined,
      }),
    );
  } catch (error) {
    if (error instanceof Interrupted && checkpointFile) {
      throw new Interrupted(`interrupted; finished subproblems are in ${checkpointFile}, run the same command to resume`);
    }
    throw error;
  }
  const elapsedMs = performance.now() - start;
  const result: CountResult = { n, total: r.total, unique: r.unique, engine: r.engine, threads: r.threads, elapsedMs };
  if (!shardText) {
    if (json) console.log(asJson(result));
    else printResult(result);
    if (already && already.finished > 0) console.error(`resumed from ${checkpointFile}: ${already.finished} of ${slice.length} subproblems were already done`);
    return;
  }
  const shard: ShardResult = {
    format: SHARD_FORMAT,
    version: VERSION,
    n,
    shard: spec.index,
    of: spec.count,
    subproblems: slice.length,
    planSize: plan.length,
    total: r.total.toString(),
    unique: r.unique.toString(),
    engine: r.engine,
    threads: r.threads,
    elapsedMs,
  };
  const text = JSON.stringify(shard, null, 2) + '\n';
  if (out) {
    writeFileSync(out, text);
    if (!json) console.log(`shard ${spec.index}/${spec.count} of n = ${n}: ${slice.length} subproblems, total ${r.total}, written to ${out}`);
  } else {
    process.stdout.write(text);
  }
}

function runMerge(files: string[], values: Record<string, unknown>): void {
  if (files.length === 0) throw new UsageError('merge needs the shard files, e.g. `nqueens merge shard-*.json`');
  const inputs = files.map((name) => {
    try {
      return { name, text: readFileSync(name, 'utf8') };
    } catch (error) {
      throw new Error(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  });
  const m = mergeShards(inputs);
  if (values.json === true) {
    console.log(JSON.stringify({ n: m.n, total: m.total.toString(), unique: m.unique.toString(), shards: m.of, elapsedMs: m.elapsedMs }));
    return;
  }
  console.log(`${'N'.padEnd(7)} ${m.n}`);
  console.log(`${'total'.padEnd(7)} ${m.total}`);
  console.log(`${'unique'.padEnd(7)} ${m.unique}`);
  console.log(`${'shards'.padEnd(7)} ${m.of}`);
  console.log(`${'time'.padEnd(7)} ${formatMs(m.elapsedMs)} (sum over shards)`);
}

function runSolve(positionals: string[], values: Record<string, unknown>): void {
  if (positionals[0] === undefined) throw new UsageError('solve needs a board size, e.g. `nqueens solve 8`');
  if (positionals.length > 1) throw new UsageError(`solve takes one size; unexpected ${describe(positionals[1])}`);
  const n = parseSize(positionals[0], 'n');
  const engine = parseEngine(values.engine as string | undefined);
  const limitText = (values.limit as string | undefined) ?? '1';
  if (!/^\d+$/.test(limitText)) throw new UsageError(`--limit must be an integer >= 0; got ${describe(limitText)}`);
  const format = (values.format as string | undefined) ?? 'board';
  if (format !== 'board' && format !== 'json') throw new UsageError(`--format must be board or json; got ${describe(format)}`);
  let index = 0;
  for (const placement of solutions(n, { limit: Number(limitText), engine })) {
    if (format === 'json') console.log(JSON.stringify(placement));
    else {
      if (index > 0) console.log('');
      console.log(`# solution ${index + 1}: ${JSON.stringify(placement)}`);
      for (const row of toBoard(placement)) console.log(row);
    }
    index++;
  }
  if (index === 0 && format === 'board') console.log(`# no solutions for n = ${n}`);
}

const OPTIONS = {
  engine: { type: 'string' },
  threads: { type: 'string' },
  json: { type: 'boolean' },
  checkpoint: { type: 'string' },
  shard: { type: 'string' },
  out: { type: 'string' },
  limit: { type: 'string' },
  format: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The options that take a value, as typed: `--engine`, `--threads`, … */
const VALUE_OPTIONS = new Set(
  Object.entries(OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .map(([name]) => `--${name}`),
);

/** `-3`, `-1.5`: a (bad) number, never an option. */
const isNegativeNumber = (token: string): boolean => /^-\d/.test(token);

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
      if (value === undefined || (value.startsWith('-') && !isNegativeNumber(value))) throw new UsageError(`${token} needs a value`);
      options.push(`${token}=${value}`);
      i++;
    } else if (token.startsWith('-') && !isNegativeNumber(token)) {
      options.push(token);
    } else {
      positionals.push(token);
    }
  }
  return [...options, '--', ...positionals];
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: numbersAsValues(argv),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch (error) {
    console.error(`nqueens: ${(error as Error).message.split('\n')[0]} (see nqueens --help)`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  const [command, ...rest] = positionals;
  try {
    const allowed: readonly string[] | undefined = COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS];
    for (const key of Object.keys(values)) {
      if (allowed && !allowed.includes(key)) {
        throw new UsageError(`--${key} does not apply to ${command}; ${command} takes ${allowed.map((o) => `--${o}`).join(', ')}`);
      }
    }
    if (command === 'count') await runCount(rest, values);
    else if (command === 'solve') runSolve(rest, values);
    else if (command === 'merge') runMerge(rest, values);
    else if (command === undefined) throw new UsageError('missing command: count, solve or merge');
    else throw new UsageError(`unknown command ${describe(command)}; expected count, solve or merge`);
    return 0;
  } catch (error) {
    if (error instanceof Interrupted) {
      console.error(`nqueens: ${error.message}`);
      return 130;
    }
    const usage = error instanceof UsageError || error instanceof TypeError || error instanceof RangeError;
    console.error(`nqueens: ${(error as Error).message}${usage ? ' (see nqueens --help)' : ''}`);
    return usage ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
