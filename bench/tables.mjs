// The benchmark tables in docs/benchmarks.md (a short summary) and bench/README.md
// (the full tables and the run history), rebuilt from bench/results/ between
// their <!-- name:start --> / <!-- name:end --> markers. bench/run.mjs calls
// this after each published run, so no figure in them is typed by hand;
// `node bench/tables.mjs` rebuilds them from the stored results alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { historyMarkdown } from './history.mjs';

const results = new URL('./results/', import.meta.url);
const SUMMARY = new URL('../docs/benchmarks.md', import.meta.url);
const BENCH_README = new URL('./README.md', import.meta.url);

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

/** @param {number} ms */
function seconds(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

/** The README's summary: n = 16 times from latest.json, the n = 17 ratios to native C from latest-n17.json. */
export function summaryMarkdown() {
  const full = JSON.parse(readResult('latest.json') ?? 'null');
  const anchor = JSON.parse(readResult('latest-n17.json') ?? 'null');
  if (!full || !anchor) return 'No published benchmark results yet: run `npm run bench` and `npm run bench:17`.\n';
  /** @param {string} engine */
  const at16 = (engine) => full.rows.find((/** @type {any} */ r) => r.n === 16 && r.engine === engine);
  /** @param {string} engine */
  const at17 = (engine) => anchor.rows.find((/** @type {any} */ r) => r.engine === engine);
  const cores = full.machine.cores;
  const lines = [`| engine | n = 16 | n = 17, time ÷ native C |`, `|---|---:|---:|`];
  const engines = [
    ['symmetry-wasm', 'wasm (SIMD), 1 thread'],
    ['symmetry-js', 'TypeScript, 1 thread'],
    [`threads-${cores}`, `wasm (SIMD), ${cores} workers`],
    ['native', 'native C, plain mirror-halved bitmask'],
  ];
  for (const [id, label] of engines) {
    const r16 = at16(id);
    const r17 = at17(id);
    const ratio = id === 'native' ? '1x' : r17?.vsNativePerRound ? `${r17.vsNativePerRound.median.toFixed(3)}x` : '–';
    lines.push(`| ${label} | ${r16 ? seconds(r16.medianMs) : '–'} | ${ratio} |`);
  }
  const machine = `${full.machine.cpu}, ${cores} cores, Node ${full.machine.node}`;
  return (
    [
      `Median time per count on ${machine} (\`npm run bench\` of ${full.date.slice(0, 10)}, \`npm run bench:17\` of ${anchor.date.slice(0, 10)}, a shared machine: compare ratios, not absolute times). Targets at n = 17: wasm <= 0.25x native C, TypeScript <= 0.40x. Every table, every n = 17 run and how they are measured: [bench/README.md](../bench/README.md).`,
      '',
      ...lines,
    ].join('\n') + '\n'
  );
}

/** Rewrites the marked blocks of docs/benchmarks.md and bench/README.md from bench/results/. */
export function writeTables() {
  const summary = readFileSync(SUMMARY, 'utf8');
  writeFileSync(SUMMARY, replaceBlocks(summary, { 'bench-summary': summaryMarkdown() }));
  /** @type {Record<string, string>} */
  const blocks = { 'bench17-history': historyMarkdown() };
  const latest = readResult('latest.md');
  const latest17 = readResult('latest-n17.md');
  if (latest) blocks.bench = latest;
  if (latest17) blocks.bench17 = latest17;
  writeFileSync(BENCH_README, replaceBlocks(readFileSync(BENCH_README, 'utf8'), blocks));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeTables();
