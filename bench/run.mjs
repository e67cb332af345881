// The engine benchmark: every engine and algorithm a user can pick
// (bench/engines.mjs) on the same n, side by side in one run (tinybench),
// plus the native C anchor. A published run writes bench/results/latest.{json,md,svg}
// and the tables in README.md, bench/README.md and docs/benchmarks.md
// (bench/tables.mjs), all from the same result; bench:17 also appends to the
// run history (bench/history.mjs).
//
//   npm run bench                n = 8, 10, 12, 14, 16, then cold start, abort and the async path
//   npm run bench:17             n = 17 only: the targets against native C
//   npm run bench -- --quick     n = 8, 10, 12, two short rounds; prints only
//   npm run bench -- --sizes 9   chosen sizes (with --anchor: the n = 17 setup); prints only
//   --cpu K                      the core the single-thread rows and the native anchor run on
//                                (default: the first core this process may use; Linux, taskset: bench/pin.mjs); --cpu any: not pinned
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, arch, cpus, loadavg, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { coldRounds, describeAsync, warmRounds } from './async.mjs';
import { count } from 'nqueens-wasm';
import { wasmUsesSimd } from '../dist/engines/wasm-loader.js';
import { latestChart } from './chart-latest.mjs';
import { BASELINE, benchEngines, webgpuEngine } from './engines.mjs';
import { measuredCommit, recordAnchorRun } from './history.mjs';
import { buildNative, runNative } from './native.mjs';
import { pinning, runOn } from './pin.mjs';
import { duration, resultMarkdown } from './report.mjs';
import { writeTables } from './tables.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, anchor: { type: 'boolean' }, sizes: { type: 'string' }, cpu: { type: 'string' } },
});
const anchor = values.anchor === true;
const quick = values.quick === true;
// Smoke runs (--quick, or --sizes) print only: the files and README keep the full runs.
const publish = !quick && values.sizes === undefined;
const sizes = values.sizes ? values.sizes.split(',').map(Number) : anchor ? [17] : quick ? [8, 10, 12] : [8, 10, 12, 14, 16];
const cores = availableParallelism();
const say = (/** @type {string} */ line) => process.stderr.write(line + '\n');
if (!wasmUsesSimd()) throw new Error('the benchmark needs WebAssembly with SIMD');
// Load at the start, before this run adds its own: a busy machine shows in every table.
const load = loadavg()[0];
const busy =
  load >= 0.5
    ? `Measured on a busy shared machine (load average ${load.toFixed(2)} at the start): compare ratios, not absolute times.`
    : undefined;
say(`npm run bench${quick ? ' --quick' : ''}: ${cpuName()}, ${cores} cores, Node ${process.version}, load average ${load.toFixed(2)}`);
const pin = pinning(values.cpu);
if ('cpu' in pin) runOn(pin.cpu);
const pinned = 'cpu' in pin ? `CPU ${pin.cpu} (taskset)` : undefined;
say('cpu' in pin ? `single-thread rows and the native anchor on ${pinned}; rows on every core on ${pin.all}` : `not pinned: ${pin.reason}`);

/** Runs `work` with every thread on this process's own cores (workers on every core), then pins again. */
async function onEveryCore(/** @type {() => Promise<unknown> | unknown} */ work) {
  if ('all' in pin) runOn(pin.all);
  try {
    return await work();
  } finally {
    if ('cpu' in pin) runOn(pin.cpu);
  }
}
const compiler = buildNative();
say(compiler ? `native C anchor built with ${compiler}` : 'native C anchor: no C compiler found, its row is skipped');
// Before this run writes anything: the code being measured.
const commit = measuredCommit();

/**
 * The CPU as lscpu names it, with its family and model and whether it has
 * AVX-512 (Linux, /proc/cpuinfo): a VM often reports only "Intel(R) Xeon(R) Processor".
 */
function cpuName() {
  const model = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (/** @type {string} */ name) => new RegExp(`^${name}\\s*: (.*)$`, 'm').exec(info)?.[1];
    const avx512 = / avx512f /.test(` ${field('flags') ?? ''} `) ? ', AVX-512' : '';
    return `${model} (family ${field('cpu family')} model ${field('model')}${avx512})`;
  } catch {
    return model;
  }
}

/** @type {{ engine: string, reason: string }[]} */
const skipped = [];
if (!compiler) skipped.push({ engine: 'native', reason: 'no C compiler found' });
const engines = benchEngines({ cores, referenceMaxN: 12 });
const gpu = await webgpuEngine();
if ('engine' in gpu) engines.push(gpu.engine);
else skipped.push({ engine: 'webgpu', reason: gpu.reason });
for (const s of skipped) say(`${s.engine}: skipped (${s.reason})`);

function roundsFor(/** @type {number} */ n) {
  if (anchor) return 5;
  if (quick) return 2;
  return n >= 16 ? 3 : n >= 14 ? 5 : 10;
}

/**
 * Every engine runs once per round, in turn, for `roundsFor(n)` rounds
 * (tinybench times each pass), so all engines sample the same stretch of a
 * shared machine: run one after another, a slow minute on the host lands on
 * one engine and skews the ratios. Small n also repeats within a round.
 */
function passFor(/** @type {number} */ n, /** @type {number} */ round) {
  const timed = anchor || n >= 14;
  const budgetMs = quick ? 40 : 500 / roundsFor(n);
  return { iterations: 1, time: timed ? 0 : budgetMs, warmupIterations: round === 0 ? 1 : 0, warmupTime: 0 };
}

function median(/** @type {number[]} */ sorted) {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median, mean and relative margin of error (95%, normal approximation) of pooled samples. */
function summarise(/** @type {number[]} */ samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const sd = Math.sqrt(sorted.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(1, sorted.length - 1));
  return { median: median(sorted), mean, rme: (100 * 1.96 * sd) / Math.sqrt(sorted.length) / mean, count: sorted.length };
}

/** @type {import('./report.mjs').Row[]} */
const rows = [];
for (const n of sizes) {
  const here = engines.filter((e) => (e.maxN ?? 99) >= n && (e.minN ?? 0) <= n && (!e.native || compiler));
  /** @type {Map<string, bigint>} */
  const totals = new Map();
  /** @type {Map<string, number[]>} */
  const samples = new Map(here.map((e) => [e.id, []]));
  // Per engine, the median of each round's samples: the rounds pair engines in time.
  /** @type {Map<string, number[]>} */
  const roundMedians = new Map(here.map((e) => [e.id, []]));
  say(`n = ${n}: ${here.length} engines, ${roundsFor(n)} rounds`);
  for (let round = 0; round < roundsFor(n); round++) {
    const bench = new Bench({ name: `n = ${n}, round ${round + 1}`, ...passFor(n, round), retainSamples: true, throws: true });
    // The native anchor reports its own time, a process start apart: a fixed number of runs, not a time budget
    // (filling 40 ms with runs of microseconds would start thousands of processes).
    const native = new Bench({
      name: `n = ${n}, round ${round + 1}, native`,
      iterations: anchor || n >= 14 ? 1 : quick ? 3 : 10,
      time: 0,
      warmupIterations: round === 0 ? 1 : 0,
      warmupTime: 0,
      retainSamples: true,
      throws: true,
    });
    for (const e of here) {
      if (e.native) {
        native.add(e.id, () => {
          const { total, ms } = runNative(n);
          totals.set(e.id, total);
          return { overriddenDuration: ms };
        });
      } else {
        const run = /** @type {NonNullable<typeof e.run>} */ (e.run);
        const everyCore = e.everyCore && 'cpu' in pin;
        const hooks = {
          beforeAll: async (/** @type {string} */ mode) => {
            if (everyCore) runOn(pin.all);
            // Rounds of n = 16 outlast the pool's idle workers (5 s): an untimed call first, so the round times
            // counts on a warm worker, as the other rows are warm. A worker's start: bench:async, docs/benchmarks.md.
            if (e.workers && mode === 'run') await run(n);
          },
          afterAll: () => {
            if (everyCore) runOn(pin.cpu);
          },
        };
        bench.add(
          e.id,
          async () => {
            totals.set(e.id, await run(n));
          },
          hooks,
        );
      }
    }
    await bench.run();
    await native.run();
    for (const task of [...bench.tasks, ...native.tasks]) {
      const result = /** @type {any} */ (task.result);
      if (result.state !== 'completed') throw new Error(`n = ${n}: ${task.name} did not complete (${result.state})`);
      /** @type {number[]} */
      const taken = result.latency.samples ?? [];
      samples.get(task.name)?.push(...taken);
      roundMedians.get(task.name)?.push(median([...taken].sort((a, b) => a - b)));
    }
    if (roundsFor(n) > 2 && n >= 14) say(`  n = ${n}: round ${round + 1} of ${roundsFor(n)} done`);
  }
  const expected = totals.get(BASELINE);
  for (const e of here) {
    if (totals.get(e.id) !== expected) throw new Error(`n = ${n}: ${e.id} counted ${totals.get(e.id)}, ${BASELINE} ${expected}`);
    const stats = summarise(samples.get(e.id) ?? []);
    rows.push({ n, engine: e.id, label: e.label, medianMs: stats.median, rme: stats.rme, samples: stats.count, total: String(expected) });
    say(`  n = ${n}  ${e.label}: ${duration(stats.median)} ±${stats.rme.toFixed(1)}% (${stats.count} samples)`);
  }
  const base = rows.find((r) => r.n === n && r.engine === BASELINE)?.medianMs ?? NaN;
  for (const r of rows.filter((r) => r.n === n)) r.vsBaseline = r.medianMs / base;
  if (roundMedians.has('native')) {
    // Time relative to native C, round by round: the host's drift between
    // rounds cancels, which pooled medians taken minutes apart cannot do.
    const native = roundMedians.get('native') ?? [];
    for (const r of rows.filter((r) => r.n === n)) {
      const ratios = (roundMedians.get(r.engine) ?? []).map((ms, round) => ms / native[round]);
      const sorted = [...ratios].sort((a, b) => a - b);
      r.vsNativePerRound = { median: median(sorted), min: sorted[0], max: sorted[sorted.length - 1], rounds: ratios };
    }
  }
}

/** Cold: a fresh process per sample, so module load, compile and warm-up count. */
const cold = [];
if (publish && !anchor) {
  say('cold start: a fresh process per count, wasm and TypeScript at n = 8 and 12, 5 each');
  for (const engine of ['wasm', 'js']) {
    for (const n of [8, 12]) {
      const taken = [];
      for (let i = 0; i < 5; i++) {
        const r = spawnSync(process.execPath, [new URL('./cold.mjs', import.meta.url).pathname, engine, String(n)], { encoding: 'utf8' });
        taken.push(JSON.parse(r.stdout).ms);
      }
      taken.sort((a, b) => a - b);
      cold.push({ engine, n, medianMs: taken[2] });
    }
  }
}

/** Abort latency: a long count on every core, aborted mid-run; time until it rejects. */
const abortLatency = [];
if (!quick) {
  say(`abort: count(18) on ${cores} workers, aborted 5 times`);
  await onEveryCore(async () => {
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
  });
  abortLatency.sort((a, b) => a - b);
}

/** The async path against countSync at n = 16 (bench/async.mjs): warm and cold, ratios round by round. */
let asyncVsSync;
if (publish && !anchor) {
  say('async vs sync at n = 16: warm and cold rounds');
  asyncVsSync = { warm: await warmRounds(9), cold: coldRounds(5) };
}

/** README's sample of the CLI's output: `nqueens count 16` (on every core), run 5 times; the output of the median run. */
let cliSample;
if (publish && !anchor) {
  say('the CLI: nqueens count 16, 5 times, for README');
  const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  const outputs = /** @type {string[]} */ (
    await onEveryCore(() => Array.from({ length: 5 }, () => execFileSync(process.execPath, [cli, 'count', '16'], { encoding: 'utf8' })))
  );
  cliSample = outputs.sort((a, b) => printedMs(a) - printedMs(b))[2];
}

/** The time a CLI count printed (`time  216.9 ms`, `time  1.52 s`), in milliseconds. */
function printedMs(/** @type {string} */ output) {
  const [, value, unit] = /^time\s+([\d.]+) (µs|ms|s)$/m.exec(output) ?? [];
  if (value === undefined) throw new Error(`the CLI printed no time:\n${output}`);
  return Number(value) * { µs: 1e-3, ms: 1, s: 1000 }[/** @type {'µs' | 'ms' | 's'} */ (unit)];
}

const machine = {
  cpu: cpuName(),
  cores,
  os: `${platform()} ${release()} ${arch()}`,
  node: process.version,
  v8: process.versions.v8,
  loadAverage: load,
  nativeCompiler: compiler ?? 'none found (native row skipped)',
  pinned,
};
const date = new Date().toISOString();
/** @type {import('./report.mjs').Result & Record<string, unknown>} */
const result = {
  // The command the tables name: a bench:17 run must not be published as `npm run bench`.
  command: anchor
    ? 'npm run bench:17'
    : quick
      ? 'npm run bench -- --quick'
      : values.sizes
        ? `npm run bench -- --sizes ${values.sizes}`
        : 'npm run bench',
  date,
  machine,
  sizes,
  rows,
  skipped,
  busy,
  cold,
  abortLatencyMs: abortLatency,
  asyncVsSync,
  cliSample,
  baseline: BASELINE,
};
let md = resultMarkdown(result);
if (asyncVsSync) {
  md += '\nThe async path at n = 16 (bench/async.mjs; per-round ratios, so drift cancels):\n\n';
  md += describeAsync(asyncVsSync.warm, asyncVsSync.cold)
    .map((l) => `- ${l}\n`)
    .join('');
}
const name = anchor ? 'latest-n17' : 'latest';
if (publish) {
  writeFileSync(new URL(`./results/${name}.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(new URL(`./results/${name}.md`, import.meta.url), md);
  // The chart README and docs/benchmarks.md embed: time against n, one line per engine, from this same result.
  if (!anchor) writeFileSync(new URL('./results/latest.svg', import.meta.url), latestChart(result));
  if (anchor) recordAnchorRun({ date, machine, rows, commit });
  // The tables in README.md, bench/README.md and docs/benchmarks.md, from the results just written.
  writeTables();
  say(`wrote bench/results/${name}.json, .md${anchor ? '' : ', .svg'} and the tables in README.md, bench/README.md, docs/benchmarks.md`);
}
console.log('\n' + md);
