// Every `npm run bench:17` run, kept: one JSON line per run in
// bench/results/history-n17.jsonl, and a README table built from all of
// them. The n = 17 ratios move by several percent from run to run on a
// shared host, so a single latest run says less than the list of runs.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** The history: only ever appended to (test/bench-history.test.ts checks that nothing here rewrites it). */
export const HISTORY_FILE = new URL('./results/history-n17.jsonl', import.meta.url);

/** The engines the targets are about, in table order. */
const ENGINES = [
  ['symmetry-wasm', 'wasm (SIMD)'],
  ['symmetry-js', 'TS'],
  ['symmetry-wasm-nosimd', 'wasm without SIMD'],
];

/** The commit measured: short hash, "+" if the tree had changes; "unknown" outside git. */
export function measuredCommit() {
  try {
    const cwd = new URL('..', import.meta.url);
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' }).trim();
    return dirty ? `${hash}+` : hash;
  } catch {
    return 'unknown';
  }
}

/**
 * Appends one anchor run (the rows of bench/run.mjs for n = 17).
 * @param {{ date: string, machine: { cpu: string, cores: number, node: string }, rows: any[], commit: string }} run
 * @param {URL | string} [file] the history (a test passes a copy)
 */
export function recordAnchorRun({ date, machine, rows, commit }, file = HISTORY_FILE) {
  const native = rows.find((r) => r.engine === 'native');
  if (!native) return;
  const engines = {};
  for (const r of rows) {
    if (r.engine === 'native') continue;
    engines[r.engine] = {
      medianMs: r.medianMs,
      perRound: r.vsNativePerRound ? { median: r.vsNativePerRound.median, min: r.vsNativePerRound.min, max: r.vsNativePerRound.max } : null,
    };
  }
  const line = {
    date,
    commit,
    cpu: machine.cpu,
    cores: machine.cores,
    node: machine.node,
    rounds: native.samples,
    nativeMs: native.medianMs,
    engines,
  };
  appendFileSync(file, JSON.stringify(line) + '\n');
}

/**
 * The table of all runs: one line per recorded run, oldest first.
 * @param {URL | string} [file]
 */
export function historyMarkdown(file = HISTORY_FILE) {
  if (!existsSync(file)) return '';
  const runs = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const cell = (e, nativeMs) => {
    if (!e) return '–';
    const round = e.perRound ? `${e.perRound.median.toFixed(3)}x` : '–';
    return `${round} (${(e.medianMs / nativeMs).toFixed(3)}x)`;
  };
  const lines = [
    `Every \`npm run bench:17\` run recorded in \`bench/results/history-n17.jsonl\`: time relative to native C, the median of the per-round ratios, then (in brackets) the ratio of pooled medians. Targets: wasm (SIMD) <= 0.25x, TS <= 0.40x.`,
    '',
    `| date (UTC) | commit | machine | rounds | native C | ${ENGINES.map(([, label]) => label).join(' | ')} |`,
    `|---|---|---|---:|---:|${ENGINES.map(() => '---:').join('|')}|`,
  ];
  for (const run of runs) {
    const machine = `${run.cpu}, ${run.cores} cores, Node ${run.node}`;
    const engines = ENGINES.map(([id]) => cell(run.engines[id], run.nativeMs)).join(' | ');
    const when = run.date.slice(0, 16).replace('T', ' ');
    lines.push(`| ${when} | ${run.commit} | ${machine} | ${run.rounds ?? '–'} | ${(run.nativeMs / 1000).toFixed(2)} s | ${engines} |`);
  }
  return lines.join('\n') + '\n';
}
