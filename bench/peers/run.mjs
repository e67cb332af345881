// Our join (wasm and TS, one thread) against public counters a user has built
// on this machine, in one run with rounds interleaved: each round times every
// contestant at every size, rotating who goes first, so drift on a shared
// host hits all alike. Ratios are per round (ours / peer), then the median.
// After the rounds, unless --no-memory, each of ours and Kluev's program run
// once more in a fresh process under GNU time for its peak RSS (ours: Node,
// the package and the join on the calling thread, as countSync runs it).
//
//   node bench/peers/run.mjs [--sizes 16,17,18] [--rounds 3] [--no-memory]    (after npm run build)
//   node bench/peers/run.mjs --project [--sizes 21,22,23] [--share 0.01]   (project.mjs: sampled projections)
//   node bench/peers/run.mjs --whole 20 [--rounds 1]   a whole count of ours (wasm) and of the C++ program, recorded
//                                                      in bench/results/peers-whole.jsonl with the machine and date
//   --no-ts: without the TypeScript join (at n = 19 it takes 4 minutes a round)
//   --no-count: without count(n, { threads: 1 }) (one worker, warm in this process, and cold in a fresh one)
//   --cpu K: the core every contestant runs on (default 0, Linux with taskset); --cpu any: not pinned
//   --no-record: leave bench/results/peers.jsonl alone (every other interleaved run is appended there, record.mjs)
//
// Peers (each skipped when its variable is unset; build steps in README.md here):
//   NQUEENS_PEER_KLUEV_DIR    folder of Kluev's N-Queens-Count-Sol binaries, one per N, named by N ("16", "17", ...)
//   NQUEENS_PEER_KLUEV_BUILDS label=dir,...  the same program built otherwise (tuned, avx2: README.md here)
//   NQUEENS_PEER_FAF_JAR      NQueensFAF's CPU solver (faf.mjs)
//   NQUEENS_PEER_Q27_BIN      the q27 project's coronal2 counter (q27.mjs)
//   NQUEENS_PEER_TAKAKEN_BIN  Takaken's C program (takaken.mjs)
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { measuredCommit } from '../history.mjs';
import { machine, machineLine } from './machine.mjs';
import { interleavedRecord, median, medianRatio, PEERS_FILE, recordInterleavedRun } from './record.mjs';
import { count, countSync } from 'nqueens-wasm';
import { contestant as faf } from './faf.mjs';
import { contestant as q27 } from './q27.mjs';
import { contestant as takaken } from './takaken.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
// Every contestant on one core (Linux, taskset; `--cpu K` picks it, `--cpu any` leaves it to the
// scheduler): the peers run as child processes, and on a VM whose cores differ (a busy sibling
// thread made one 1.5x slower than the other here) a ratio between two cores measures the cores.
const cpu = option('cpu', '0');
if (cpu !== 'any' && process.platform === 'linux' && !process.env.NQUEENS_BENCH_CPU && existsSync('/usr/bin/taskset')) {
  const pinned = spawnSync('/usr/bin/taskset', ['-c', cpu, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NQUEENS_BENCH_CPU: cpu },
  });
  process.exit(pinned.status ?? 1);
}
const measuredOn = machine();
console.log(machineLine(measuredOn));
if (process.env.NQUEENS_BENCH_CPU) console.log(`every contestant on CPU ${process.env.NQUEENS_BENCH_CPU} (taskset)`);
if (args.includes('--project')) {
  // Counts too long to run: projected from a sample of their units (project.mjs reads the same arguments).
  await import('./project.mjs');
  process.exit(0);
}
// --whole N: whole counts at N (comma-separated sizes too), ours on wasm only (the TS join takes 4x as long), one round
// unless --rounds says more, recorded with the machine.
const whole = option('whole', undefined);
const sizes = (whole ?? option('sizes', '16,17,18')).split(',').map(Number);
const rounds = Number(option('rounds', whole ? '1' : '3'));

/** Our join on one thread, in this process, as a user runs it: plan, every unit and the unique count. */
function ours(engine) {
  return (n) => countSync(n, { algorithm: 'join', engine }).total;
}

/**
 * count(n, { threads: 1 }) as a user runs it, from the call to the resolved result: one worker (the calling thread
 * counts while it starts). Warm: in this process, after earlier rounds (a worker may be idle from the last one).
 */
async function oursOnAWorker(n) {
  return (await count(n, { algorithm: 'join', threads: 1 })).total;
}

/** The same call as the first in a fresh Node process (cold-count.mjs times it there, leaving out Node's start and the import). */
function oursOnAWorkerCold(n) {
  const out = execFileSync(process.execPath, [new URL('./cold-count.mjs', import.meta.url).pathname, String(n)], { encoding: 'utf8' });
  const { total, seconds } = JSON.parse(out);
  return { total: BigInt(total), seconds };
}

/** Kluev's program: one binary per N, run with one thread; it prints its own time. */
function kluev(dir) {
  return (n) => {
    const binary = join(dir, String(n));
    if (!existsSync(binary)) return undefined;
    const out = execFileSync(binary, ['1'], { encoding: 'utf8' });
    const total = BigInt(/Result: (\d+)/.exec(out)[1]);
    return { total, seconds: Number(/Elapsed time: ([\d.e+-]+) s/.exec(out)[1]) };
  };
}

/** @typedef {bigint | { total: bigint, seconds: number } | undefined} Timed */
/** @typedef {{ name: string, run: (n: number) => Timed | Promise<Timed>, ours?: boolean }} Contestant */
/** @type {Contestant[]} */
const contestants = [
  { name: 'join wasm', run: ours('wasm'), ours: true },
  ...(whole || args.includes('--no-ts') ? [] : [{ name: 'join TS', run: ours('js'), ours: true }]),
  ...(whole || args.includes('--no-count')
    ? []
    : [
        { name: 'count() 1 worker', run: oursOnAWorker, ours: true },
        { name: 'count() 1 worker, cold', run: oursOnAWorkerCold, ours: true },
      ]),
];
if (process.env.NQUEENS_PEER_KLUEV_DIR) {
  contestants.push({ name: 'Kluev C++', run: kluev(process.env.NQUEENS_PEER_KLUEV_DIR) });
} else {
  console.log('NQUEENS_PEER_KLUEV_DIR unset: skipping Kluev N-Queens-Count-Sol');
}
// The same program built otherwise (README.md here: with its own per-size tuning table, or without AVX-512), where
// a size has a binary there: `label=dir` pairs, comma-separated.
for (const build of (process.env.NQUEENS_PEER_KLUEV_BUILDS ?? '').split(',').filter(Boolean)) {
  const [label, dir] = build.split('=');
  contestants.push({ name: `Kluev ${label}`, run: kluev(dir) });
}
for (const [variable, name, make] of /** @type {const} */ ([
  ['NQUEENS_PEER_FAF_JAR', 'NQueensFAF CPU', faf],
  ['NQUEENS_PEER_Q27_BIN', 'q27 coronal2', q27],
  ['NQUEENS_PEER_TAKAKEN_BIN', 'Takaken C', takaken],
])) {
  const path = process.env[variable];
  if (path) contestants.push({ name, run: make(path) });
  else console.log(`${variable} unset: skipping ${name}`);
}

// Warm V8 on a small board so the first timed round is not the JIT's.
for (const c of contestants) if (c.ours) await c.run(13);

const loadAtStart = loadavg()[0];
// The code measured, before this run writes anything ('+': with uncommitted changes).
const commit = measuredCommit();
const seconds = new Map(); // `${name}/${n}` -> seconds per round
const agreed = new Map(); // n -> the total every contestant must count (ours are tested against OEIS)
let turn = 0;
for (let round = 0; round < rounds; round++) {
  for (const n of sizes) {
    for (let j = 0; j < contestants.length; j++) {
      const c = contestants[(j + turn) % contestants.length];
      const start = performance.now();
      const result = await c.run(n);
      const wall = (performance.now() - start) / 1000;
      if (result === undefined) continue;
      const total = typeof result === 'bigint' ? result : result.total;
      if (!agreed.has(n)) agreed.set(n, total);
      if (total !== agreed.get(n)) throw new Error(`${c.name} counted ${total} at n = ${n}, not ${agreed.get(n)}`);
      const key = `${c.name}/${n}`;
      if (!seconds.has(key)) seconds.set(key, []);
      seconds.get(key).push(typeof result === 'bigint' ? wall : result.seconds);
    }
    turn++;
  }
  console.log(`round ${round + 1} of ${rounds} done`);
}

const peers = contestants.filter((c) => !c.ours);
console.log(
  `\n${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${rounds} rounds, one thread each; median seconds, and median of per-round ratios`,
);
for (const n of sizes) {
  for (const c of contestants) {
    const mine = seconds.get(`${c.name}/${n}`);
    if (!mine) continue;
    let line = `n = ${n}  ${c.name.padEnd(22)} ${median(mine).toFixed(3).padStart(8)} s`;
    if (c.ours) {
      for (const p of peers) {
        const theirs = seconds.get(`${p.name}/${n}`);
        if (theirs) line += `   ${medianRatio(mine, theirs).toFixed(2)}x ${p.name}`;
      }
    }
    console.log(line);
  }
}

const cpuPinned = process.env.NQUEENS_BENCH_CPU ?? 'any';
if (!whole && !args.includes('--no-record')) {
  // Every interleaved run, with the machine, the pinning and the per-round times its ratios came from.
  const record = interleavedRecord({
    machine: measuredOn,
    cpuPinned,
    commit,
    rounds,
    sizes,
    contestants,
    seconds,
    totals: agreed,
    loadAverage: [loadAtStart, loadavg()[0]],
  });
  recordInterleavedRun(record);
  console.log(`recorded in ${PEERS_FILE.pathname}`);
}

if (whole) {
  // Every whole count, with the machine: the file is only appended to.
  const file = new URL('../results/peers-whole.jsonl', import.meta.url);
  for (const n of sizes) {
    const record = {
      n,
      machine: measuredOn,
      cpuPinned,
      commit,
      total: String(agreed.get(n)),
      seconds: {},
    };
    for (const c of contestants) if (seconds.has(`${c.name}/${n}`)) record.seconds[c.name] = seconds.get(`${c.name}/${n}`);
    appendFileSync(file, JSON.stringify(record) + '\n');
  }
  console.log(`recorded in ${file.pathname}`);
}

// The whole counts recorded so far (--whole), the latest per n and machine: too long to run in every round.
{
  const file = new URL('../results/peers-whole.jsonl', import.meta.url);
  const latest = new Map();
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line);
      latest.set(`${r.n} ${r.machine.cpu} ${r.machine.family}/${r.machine.model}`, r);
    }
  }
  if (latest.size > 0) console.log('\nwhole counts recorded (bench/results/peers-whole.jsonl, --whole N), one thread each:');
  for (const r of latest.values()) {
    const times = Object.entries(r.seconds).map(([name, s]) => `${name} ${median(s).toFixed(1)} s`);
    const mine = r.seconds['join wasm'];
    const ratios = Object.entries(r.seconds)
      .filter(([name]) => name !== 'join wasm' && mine)
      .map(([name, s]) => `${(median(mine) / median(s)).toFixed(2)}x ${name}`);
    console.log(`n = ${r.n}  ${times.join(', ')}${ratios.length ? `  (${ratios.join(', ')})` : ''}  on ${machineLine(r.machine)}`);
  }
}

/** Peak RSS in MB of a command run once under GNU time (`/usr/bin/time -f %M`), or undefined without it. */
function peakMegabytes(command, commandArgs) {
  if (!existsSync('/usr/bin/time')) return undefined;
  const r = spawnSync('/usr/bin/time', ['-f', 'peak %M', command, ...commandArgs], { encoding: 'utf8' });
  const m = /peak (\d+)/.exec(r.stderr);
  return r.status === 0 && m ? Number(m[1]) / 1024 : undefined;
}

if (!args.includes('--no-memory') && !whole) {
  const module = new URL('../../dist/node/index.js', import.meta.url).href; // what Node imports
  // Node's own memory, idle and once V8's optimizing compiler has run (any hot loop: ours do).
  const hotLoop = 'let s = 0; for (let i = 0; i < 1e8; i++) s += i % 7;';
  console.log(
    '\npeak RSS of one run in a fresh process (/usr/bin/time -f %M); Node alone: ' +
      `${peakMegabytes(process.execPath, ['-e', '0'])?.toFixed(0)} MB, ` +
      `running a hot loop: ${peakMegabytes(process.execPath, ['-e', hotLoop])?.toFixed(0)} MB`,
  );
  for (const n of sizes) {
    const line = [`n = ${n}`];
    for (const engine of ['wasm', 'js']) {
      const script = `import(${JSON.stringify(module)}).then((m) => m.countSync(${n}, { algorithm: 'join', engine: '${engine}' }))`;
      line.push(`join ${engine === 'js' ? 'TS' : engine} ${peakMegabytes(process.execPath, ['-e', script])?.toFixed(0)} MB`);
    }
    const dir = process.env.NQUEENS_PEER_KLUEV_DIR;
    if (dir && existsSync(join(dir, String(n)))) line.push(`Kluev C++ ${peakMegabytes(join(dir, String(n)), ['1'])?.toFixed(0)} MB`);
    console.log(line.join('   '));
  }
}
