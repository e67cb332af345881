// The engine benchmark: every engine side by side in one run (tinybench),
// warm and cold, plus the native C anchor. Writes bench/results/latest.{json,md}
// and the tables in bench/README.md and docs/benchmarks.md (bench/tables.mjs);
// bench:17 also appends to the run history (bench/history.mjs).
//
//   npm run bench                n = 8, 10, 12, 14, 16
//   npm run bench:17             n = 17 only: the targets against native C
//   npm run bench -- --quick     n = 8, 10, 12, fewer iterations; prints only
//   npm run bench -- --sizes 9   chosen sizes (with --anchor: the n = 17 setup); prints only
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { latestChart } from './chart-latest.mjs';
import { arch, availableParallelism, cpus, platform, release } from 'node:os';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { coldRounds, describeAsync, warmRounds } from './async.mjs';
import { count } from '../dist/index.js';
import { getWasmKernel, jsKernel, wasmKernelFrom } from '../dist/search/search-kernel.js';
import { countFirstRow as jsCountFirstRow } from '../dist/baseline/bitmask.js';
import { compileKernel, wasmUsesSimd } from '../dist/engines/wasm-loader.js';
import { countReference } from '../dist/engines/reference.js';
import { countAll } from '../dist/search/tally.js';
import { measuredCommit, recordAnchorRun } from './history.mjs';
import { buildNative, runNative } from './native.mjs';
import { writeTables } from './tables.mjs';
import { wasmCountFirstRow } from './wasm-bench.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, anchor: { type: 'boolean' }, sizes: { type: 'string' } },
});
const anchor = values.anchor === true;
// Smoke runs (--quick, or --sizes) print only: the files and README keep the full runs.
const publish = !values.quick && values.sizes === undefined;
const sizes = values.sizes ? values.sizes.split(',').map(Number) : anchor ? [17] : values.quick ? [8, 10, 12] : [8, 10, 12, 14, 16];
const cores = availableParallelism();
const wasm = getWasmKernel();
if (!wasm || !wasmUsesSimd()) throw new Error('the benchmark needs WebAssembly with SIMD');
const wasmBaseline = wasmKernelFrom(compileKernel('baseline'));
const compiler = buildNative();
// Before this run writes anything: the code being measured.
const commit = measuredCommit();

// The plain bitmask DFS is not in the shipped wasm: it comes from the bench build (bench/wasm-bench.mjs).
const wasmFirstRow = wasmCountFirstRow('simd');

/**
 * The plain mirror-halved bitmask count with one kernel's countFirstRow.
 * @param {(n: number, col: number) => bigint} countFirstRow
 * @param {number} n
 */
function mirrored(countFirstRow, n) {
  let total = 0n;
  for (let col = 0; col < n >> 1; col++) total += countFirstRow(n, col);
  total *= 2n;
  if (n & 1) total += countFirstRow(n, n >> 1);
  return total;
}

const ENGINES = [
  { id: 'reference', label: 'reference: array backtracking', maxN: 12, run: (n) => countReference(n).total },
  { id: 'bitmask-js', label: 'plain bitmask, TS', maxN: anchor ? 0 : 16, run: (n) => mirrored(jsCountFirstRow, n) },
  { id: 'bitmask-wasm', label: 'plain bitmask, wasm', maxN: anchor ? 0 : 16, run: (n) => mirrored(wasmFirstRow, n) },
  { id: 'native', label: 'plain bitmask, native C', native: true },
  { id: 'symmetry-js', label: 'symmetry search, TS', run: (n) => countAll(n, jsKernel).total },
  { id: 'symmetry-wasm-nosimd', label: 'symmetry search, wasm without SIMD', run: (n) => countAll(n, wasmBaseline).total },
  { id: 'symmetry-wasm', label: 'symmetry search, wasm (SIMD)', run: (n) => countAll(n, wasm).total },
  {
    id: 'threads-1',
    label: 'symmetry search, wasm, 1 worker',
    minN: anchor ? 17 : 99,
    run: async (n) => (await count(n, { threads: 1 })).total,
  },
  {
    id: `threads-${cores}`,
    label: `symmetry search, wasm, ${cores} workers`,
    minN: 12,
    run: async (n) => (await count(n, { threads: cores })).total,
  },
];
const BASELINE = 'symmetry-wasm';

function iterationsFor(n) {
  if (anchor) return 5;
  if (values.quick) return 5;
  return n >= 16 ? 3 : n >= 14 ? 5 : 10;
}

/**
 * Every engine runs once per round, in turn, for `iterationsFor(n)` rounds
 * (tinybench times each pass), so all engines sample the same stretch of a
 * shared machine: run one after another, a slow minute on the host lands on
 * one engine and skews the ratios. Small n also repeats within a round.
 */
function passFor(n, round) {
  const timed = anchor || n >= 14;
  return { iterations: 1, time: timed ? 0 : 500 / iterationsFor(n), warmupIterations: round === 0 ? 1 : 0, warmupTime: 0 };
}

function median(sorted) {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median, mean and relative margin of error (95%, normal approximation) of pooled samples. */
function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const sd = Math.sqrt(sorted.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(1, sorted.length - 1));
  return { median: median(sorted), mean, rme: (100 * 1.96 * sd) / Math.sqrt(sorted.length) / mean, count: sorted.length };
}

/**
 * One engine at one n.
 * @typedef {{ n: number, engine: string, label: string, medianMs: number, meanMs: number, rme: number, samples: number, total: string,
 *   vsSymmetryWasm?: number, vsNativePerRound?: { median: number, min: number, max: number, rounds: number[] } }} Row
 */
/** @type {Row[]} */
const rows = [];
for (const n of sizes) {
  const engines = ENGINES.filter((e) => (e.maxN ?? 99) >= n && (e.minN ?? 0) <= n && (!e.native || compiler));
  const totals = new Map();
  const samples = new Map(engines.map((e) => [e.id, []]));
  // Per engine, the median of each round's samples: the rounds pair engines in time.
  const roundMedians = new Map(engines.map((e) => [e.id, []]));
  process.stderr.write(`n = ${n}: ${engines.map((e) => e.id).join(', ')}, ${iterationsFor(n)} rounds\n`);
  for (let round = 0; round < iterationsFor(n); round++) {
    const bench = new Bench({ name: `n = ${n}, round ${round + 1}`, ...passFor(n, round), retainSamples: true, throws: true });
    for (const e of engines) {
      if (e.native) {
        bench.add(e.id, () => {
          const { total, ms } = runNative(n);
          totals.set(e.id, total);
          return { overriddenDuration: ms };
        });
      } else {
        bench.add(e.id, async () => {
          totals.set(e.id, await e.run(n));
        });
      }
    }
    await bench.run();
    for (const task of bench.tasks) {
      if (task.result.state !== 'completed') throw new Error(`n = ${n}: ${task.name} did not complete (${task.result.state})`);
      const taken = task.result.latency.samples ?? [];
      samples.get(task.name).push(...taken);
      roundMedians.get(task.name).push(median([...taken].sort((a, b) => a - b)));
    }
  }
  const expected = totals.get(BASELINE);
  for (const e of engines) {
    if (totals.get(e.id) !== expected) throw new Error(`n = ${n}: ${e.id} counted ${totals.get(e.id)}, ${BASELINE} ${expected}`);
    const stats = summarise(samples.get(e.id));
    rows.push({
      n,
      engine: e.id,
      label: e.label,
      medianMs: stats.median,
      meanMs: stats.mean,
      rme: stats.rme,
      samples: stats.count,
      total: String(expected),
    });
  }
  const base = rows.find((r) => r.n === n && r.engine === BASELINE).medianMs;
  for (const r of rows.filter((r) => r.n === n)) r.vsSymmetryWasm = r.medianMs / base;
  if (roundMedians.has('native')) {
    // Time relative to native C, round by round: the host's drift between
    // rounds cancels, which pooled medians taken minutes apart cannot do.
    const native = roundMedians.get('native');
    for (const r of rows.filter((r) => r.n === n)) {
      const ratios = roundMedians.get(r.engine).map((ms, round) => ms / native[round]);
      const sorted = [...ratios].sort((a, b) => a - b);
      r.vsNativePerRound = { median: median(sorted), min: sorted[0], max: sorted.at(-1), rounds: ratios };
    }
  }
  console.table(
    rows
      .filter((r) => r.n === n)
      .map((r) => ({
        engine: r.label,
        'median ms': r.medianMs.toFixed(2),
        '±%': r.rme.toFixed(1),
        'x wasm symmetry': r.vsSymmetryWasm.toFixed(2),
      })),
  );
}

/** Cold: a fresh process per sample, so module load, compile and warm-up count. */
const cold = [];
if (!anchor) {
  for (const engine of ['wasm', 'js']) {
    for (const n of [8, 12]) {
      const samples = [];
      for (let i = 0; i < 5; i++) {
        const r = spawnSync(process.execPath, [new URL('./cold.mjs', import.meta.url).pathname, engine, String(n)], { encoding: 'utf8' });
        samples.push(JSON.parse(r.stdout).ms);
      }
      samples.sort((a, b) => a - b);
      cold.push({ engine, n, medianMs: samples[2] });
    }
  }
}

/** Abort latency: a long count on every core, aborted mid-run; time until it rejects. */
const abortLatency = [];
for (let i = 0; i < 5; i++) {
  const controller = new AbortController();
  const running = count(18, { threads: cores, signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 500 + 100 * i));
  const abortedAt = performance.now();
  controller.abort();
  const name = await running.then(
    () => 'finished',
    (e) => e.name,
  );
  if (name !== 'AbortError') throw new Error(`abort: the count ended with ${name}`);
  abortLatency.push(performance.now() - abortedAt);
}
abortLatency.sort((a, b) => a - b);

/** The async path against countSync at n = 16 (bench/async.mjs): warm and cold, ratios round by round. */
let asyncVsSync;
if (!anchor) {
  process.stderr.write('async vs sync at n = 16: warm and cold rounds\n');
  asyncVsSync = { warm: await warmRounds(values.quick ? 3 : 9), cold: coldRounds(values.quick ? 2 : 5) };
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores,
  os: `${platform()} ${release()} ${arch()}`,
  node: process.version,
  v8: process.versions.v8,
  nativeCompiler: compiler ?? 'none found (native row skipped)',
};
const date = new Date().toISOString();
const result = { date, machine, sizes, rows, cold, abortLatencyMs: abortLatency, asyncVsSync, baseline: BASELINE };
const name = anchor ? 'latest-n17' : 'latest';
if (publish) writeFileSync(new URL(`./results/${name}.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');
// The chart docs/benchmarks.md embeds: time against n, one line per engine.
if (publish && !anchor) writeFileSync(new URL('./results/latest.svg', import.meta.url), latestChart(result));

/** A time in the unit that keeps three significant digits (small n runs in microseconds). */
function duration(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

function markdown() {
  const labels = [...new Set(rows.map((r) => r.engine))];
  const head = `| engine | ${sizes.map((n) => `n = ${n}`).join(' | ')} |\n|---|${sizes.map(() => '---:').join('|')}|`;
  const cell = (engine, n) => {
    const r = rows.find((x) => x.engine === engine && x.n === n);
    if (!r) return '–';
    return `${duration(r.medianMs)} (${r.vsSymmetryWasm.toFixed(2)}x)`;
  };
  // The anchor run (one n) adds the targets' measure: time relative to native C, round by round.
  const perRound = anchor && sizes.length === 1 && rows.some((r) => r.vsNativePerRound);
  const ratioCell = (engine) => {
    const v = rows.find((x) => x.engine === engine && x.n === sizes[0])?.vsNativePerRound;
    return v && engine !== 'native' ? `${v.median.toFixed(3)}x (${v.min.toFixed(3)}–${v.max.toFixed(3)})` : '–';
  };
  const table = perRound ? `${head.replace(' |\n', ' | ÷ native C, per round: median (range) |\n')}---:|` : head;
  const body = labels
    .map(
      (e) =>
        `| ${rows.find((r) => r.engine === e).label} | ${sizes.map((n) => cell(e, n)).join(' | ')} |${perRound ? ` ${ratioCell(e)} |` : ''}`,
    )
    .join('\n');
  const rounds = iterationsFor(sizes[0]);
  const lines = [
    `Median wall time per count, one run of \`npm run bench${anchor ? ':17' : ''}\` on ${date.slice(0, 10)}: ${machine.cpu}, ${cores} cores, Node ${machine.node}; native C built with ${machine.nativeCompiler}. In brackets: time relative to the single-threaded wasm (SIMD) symmetry search in the same run (lower is faster).${perRound ? ` Last column: each round's time divided by the native C time of the same round (${rounds} rounds), so drift between rounds cancels.` : ''}`,
    '',
    table,
    body,
  ];
  if (cold.length > 0) {
    lines.push('', 'Cold start (a fresh Node process: import, wasm compile and instantiation, warm-up, first count; median of 5):', '');
    lines.push('| engine | n = 8 | n = 12 |', '|---|---:|---:|');
    for (const engine of ['wasm', 'js']) {
      const c = (n) => `${cold.find((x) => x.engine === engine && x.n === n).medianMs.toFixed(1)} ms`;
      lines.push(`| ${engine} | ${c(8)} | ${c(12)} |`);
    }
  }
  if (asyncVsSync) {
    lines.push('', 'The async path at n = 16 (bench/async.mjs; per-round ratios, so drift cancels):', '');
    for (const l of describeAsync(asyncVsSync.warm, asyncVsSync.cold)) lines.push(`- ${l}`);
  }
  lines.push(
    '',
    `Abort: \`count(18, { threads: ${cores}, signal })\` aborted 0.5 to 0.9 s in rejects with an AbortError after ${abortLatency.map((ms) => ms.toFixed(1)).join(', ')} ms (5 runs; target < 1000 ms).`,
  );
  return lines.join('\n') + '\n';
}

const md = markdown();
if (publish) {
  writeFileSync(new URL(`./results/${name}.md`, import.meta.url), md);
  if (anchor) recordAnchorRun({ date, machine, rows, commit });
  // The tables in bench/README.md and the summary in docs/benchmarks.md, from the results just written.
  writeTables();
}
console.log('\n' + md);
