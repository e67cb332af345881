// The benchmark tables in README.md (its speed section), docs/benchmarks.md
// (a summary) and bench/README.md (the full tables and the run history), rebuilt from bench/results/ between
// their <!-- name:start --> / <!-- name:end --> markers. bench/run.mjs calls
// this after each published run, so no figure in them is typed by hand;
// `node bench/tables.mjs` rebuilds them from the stored results alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { historyMarkdown } from './history.mjs';
import { readmeCliSample, readmeSpeedMarkdown, resultMarkdown } from './report.mjs';

const results = new URL('./results/', import.meta.url);
const SUMMARY = new URL('../docs/benchmarks.md', import.meta.url);
const BENCH_README = new URL('./README.md', import.meta.url);
const README = new URL('../README.md', import.meta.url);

/**
 * Replaces each marked block of `text` with its new content.
 * @param {string} text
 * @param {Record<string, string>} blocks marker name -> content (ending in a newline)
 */
export function replaceBlocks(text, blocks) {
  for (const [marker, content] of Object.entries(blocks)) {
    const pattern = new RegExp(`(<!-- ${marker}:start -->\\n)[\\s\\S]*?(<!-- ${marker}:end -->)`);
    if (!pattern.test(text)) throw new Error(`no <!-- ${marker}:start --> ... <!-- ${marker}:end --> block`);
    text = text.replace(pattern, (_, start, end) => `${start}${content}${end}`);
  }
  return text;
}

/** @param {string} name */
function readResult(name) {
  const file = new URL(name, results);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** docs/benchmarks.md's summary: the latest run's table, and where the n = 17 runs against native C are. */
export function summaryMarkdown() {
  const full = JSON.parse(readResult('latest.json') ?? 'null');
  if (!full) return 'No published benchmark results yet: run `npm run bench`.\n';
  const anchor = JSON.parse(readResult('latest-n17.json') ?? 'null');
  const n17 = anchor
    ? ` The n = 17 runs against native C (\`npm run bench:17\`, latest ${anchor.date.slice(0, 10)}) are in [bench/README.md](../bench/README.md).`
    : '';
  return `${resultMarkdown(full).split('\n\n').slice(0, 2).join('\n\n')}\n\nEvery table of the run and how it is measured: [bench/README.md](../bench/README.md).${n17}\n`;
}

/**
 * README's blocks from the latest run: the speed table and the CLI's sample
 * output (test/readme-figures.test.ts checks README against them).
 * @returns {Record<string, string>}
 */
export function readmeBlocks() {
  const full = JSON.parse(readResult('latest.json') ?? 'null');
  if (!full) return { 'readme-speed': 'No published benchmark results yet: run `npm run bench`.\n' };
  const sample = readmeCliSample(full);
  return { 'readme-speed': readmeSpeedMarkdown(full), ...(sample ? { 'readme-cli-sample': sample } : {}) };
}

/** Rewrites the marked blocks of docs/benchmarks.md and bench/README.md from bench/results/. */
export function writeTables() {
  const summary = readFileSync(SUMMARY, 'utf8');
  writeFileSync(SUMMARY, replaceBlocks(summary, { 'bench-summary': summaryMarkdown() }));
  writeFileSync(README, replaceBlocks(readFileSync(README, 'utf8'), readmeBlocks()));
  /** @type {Record<string, string>} */
  const blocks = { 'bench17-history': historyMarkdown() };
  const latest = readResult('latest.md');
  const latest17 = readResult('latest-n17.md');
  if (latest) blocks.bench = latest;
  if (latest17) blocks.bench17 = latest17;
  writeFileSync(BENCH_README, replaceBlocks(readFileSync(BENCH_README, 'utf8'), blocks));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeTables();
