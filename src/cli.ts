#!/usr/bin/env node
// The nqueens command line: count, solve. Errors are one line on stderr.
import { parseArgs } from 'node:util';
import { count, ENGINES, solutions, toBoard, MAX_N, MIN_N, type CountResult, type EngineChoice } from './index.js';
import { describe } from './validate.js';

const HELP = `nqueens: count and list N-Queens solutions (WebAssembly kernel, TypeScript fallback)

Usage:
  nqueens count <n> [options]        count the solutions for one board size
  nqueens count <from>..<to>         a table for a range of sizes, e.g. 1..16
  nqueens solve <n> [options]        print solutions in lexicographic order

Options:
  --engine <name>    auto (default), wasm, js or reference
  --json             count: one JSON object per size (counts as strings)
  --limit <k>        solve: stop after k solutions (default 1)
  --format <f>       solve: board (default) or json
  -h, --help         show this help
  -v, --version      show the version

n is an integer from ${MIN_N} to ${MAX_N}. Counts are exact: total (OEIS A000170)
and unique, one per class under rotations and reflections (OEIS A002562).

Examples:
  nqueens count 16
  nqueens count 1..14 --engine js
  nqueens solve 8 --limit 3
`;

class UsageError extends Error {}

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

async function runCount(positionals: string[], values: Record<string, unknown>): Promise<void> {
  const sizes = parseSizes(positionals[0]);
  if (positionals.length > 1) throw new UsageError(`count takes one size or range; unexpected ${describe(positionals[1])}`);
  const engine = parseEngine(values.engine as string | undefined);
  const json = values.json === true;
  if (sizes.length === 1 && !json) {
    const r = await count(sizes[0], { engine });
    const lines = [
      ['N', String(r.n)],
      ['total', r.total.toString()],
      ['unique', r.unique.toString()],
      ['engine', r.engine],
      ['time', formatMs(r.elapsedMs)],
      ['rate', formatRate(r)],
    ];
    for (const [key, value] of lines) console.log(`${key.padEnd(7)} ${value}`);
    return;
  }
  if (!json) console.log(`${'N'.padStart(3)} ${'total'.padStart(22)} ${'unique'.padStart(20)}  ${'engine'.padEnd(9)} ${'time'.padStart(10)}  rate`);
  for (const n of sizes) {
    const r = await count(n, { engine });
    if (json) console.log(asJson(r));
    else {
      console.log(
        `${String(n).padStart(3)} ${r.total.toString().padStart(22)} ${r.unique.toString().padStart(20)}  ${r.engine.padEnd(9)} ${formatMs(r.elapsedMs).padStart(10)}  ${formatRate(r)}`,
      );
    }
  }
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

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        engine: { type: 'string' },
        json: { type: 'boolean' },
        limit: { type: 'string' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
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
    console.log(await version());
    return 0;
  }
  const [command, ...rest] = positionals;
  try {
    if (command === 'count') await runCount(rest, values);
    else if (command === 'solve') runSolve(rest, values);
    else if (command === undefined) throw new UsageError('missing command: count or solve');
    else throw new UsageError(`unknown command ${describe(command)}; expected count or solve`);
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof TypeError || error instanceof RangeError;
    console.error(`nqueens: ${(error as Error).message}${usage ? ' (see nqueens --help)' : ''}`);
    return usage ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
