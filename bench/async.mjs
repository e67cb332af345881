// The async path against countSync at n = 16, in one run: countSync(16),
// count(16, { threads: 1 }) and count(16) (a worker per core) take turns
// (tinybench, one pass each per round, the order rotating), and the ratios
// are taken round by round, so drift on a shared host cancels.
//
//   warm: calls in one process (from the second on, count() takes the idle
//         workers of the previous call);
//   cold: the first call in a fresh process (bench/async-cold.mjs), the three
//         kinds taking turns, one process each.
//
// `other` is the CPU that other processes used during the round, in cores
// (Linux, from /proc/stat less this process's own): on a 2-core machine, 1
// means another program held a core, and a count on 2 workers cannot then
// beat one thread.
//
//   node bench/async.mjs [rounds=9] [coldRounds=5]     (after npm run build)
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { count, countSync } from 'nqueens-wasm';

const N = 16;
const KINDS = /** @type {const} */ (['sync', 'one', 'default']);
const LABELS = { sync: 'countSync(16)', one: 'count(16, { threads: 1 })', default: 'count(16)' };

/** @param {'sync' | 'one' | 'default'} kind */
async function run(kind) {
  const r = kind === 'sync' ? countSync(N) : await count(N, kind === 'one' ? { threads: 1 } : {});
  if (r.total !== 14772512n) throw new Error(`${kind}: counted ${r.total}`);
}

/** Busy jiffies of the whole machine (Linux), or undefined. */
function busyTicks() {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return f.reduce((a, b) => a + b, 0) - f[3] - (f[4] ?? 0); // less idle and iowait
  } catch {
    return undefined;
  }
}

/** Cores used by other processes between two snapshots. */
function otherCores(before, after) {
  if (before.busy === undefined || after.busy === undefined) return undefined;
  const wallS = (after.t - before.t) / 1000;
  const ownS = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1e6;
  return Math.max(0, ((after.busy - before.busy) / 100 - ownS) / wallS);
}

const snapshot = () => ({ t: performance.now(), busy: busyTicks(), cpu: process.cpuUsage() });

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-round ms of each kind and their ratios to countSync. */
function summarise(rounds) {
  const ratio = (kind) => rounds.map((r) => r[kind] / r.sync);
  return {
    rounds,
    oneVsSync: { median: median(ratio('one')), rounds: ratio('one') },
    defaultVsSync: { median: median(ratio('default')), rounds: ratio('default') },
  };
}

/** Warm: tinybench, one pass of each kind per round, the order rotating. */
export async function warmRounds(rounds = 9) {
  for (const kind of KINDS) await run(kind); // first calls: compile, first workers
  const out = [];
  for (let round = 0; round < rounds; round++) {
    const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]);
    const bench = new Bench({
      name: `async vs sync, round ${round + 1}`,
      iterations: 1,
      time: 0,
      warmupIterations: 0,
      warmupTime: 0,
      retainSamples: true,
      throws: true,
    });
    // An async function, so tinybench sees it is one without calling it (a probe call would overlap the timed one).
    for (const kind of order) bench.add(kind, async () => await run(kind));
    const before = snapshot();
    await bench.run();
    const row = { other: otherCores(before, snapshot()) };
    for (const task of bench.tasks) {
      if (task.result.state !== 'completed') throw new Error(`async vs sync: ${task.name} did not complete (${task.result.state})`);
      row[task.name] = task.result.latency.samples?.[0] ?? task.result.latency.mean;
    }
    out.push(row);
  }
  return summarise(out);
}

/** Cold: the first call of a fresh process, the kinds taking turns. */
export function coldRounds(rounds = 5) {
  const script = fileURLToPath(new URL('./async-cold.mjs', import.meta.url));
  const out = [];
  for (let round = 0; round < rounds; round++) {
    const row = {};
    for (let i = 0; i < KINDS.length; i++) {
      const kind = KINDS[(i + round) % KINDS.length];
      const r = spawnSync(process.execPath, [script, kind], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`async-cold ${kind}: ${r.stderr}`);
      row[kind] = JSON.parse(r.stdout).ms;
    }
    out.push(row);
  }
  return summarise(out);
}

export function describeAsync(warm, cold) {
  const f = (x) => x.toFixed(3);
  const line = (name, s) =>
    `${name}: count(16, { threads: 1 }) ÷ countSync(16) median ${f(s.oneVsSync.median)}x (rounds ${s.oneVsSync.rounds.map(f).join(', ')}); ` +
    `count(16) ÷ countSync(16) median ${f(s.defaultVsSync.median)}x (rounds ${s.defaultVsSync.rounds.map(f).join(', ')})`;
  return [line('warm (repeated calls)', warm), line('cold (first call in a fresh process)', cold)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const warm = await warmRounds(Number(process.argv[2] ?? 9));
  console.table(
    warm.rounds.map((r) => ({
      ...Object.fromEntries(KINDS.map((k) => [LABELS[k], r[k].toFixed(1)])),
      'other cores': r.other?.toFixed(2) ?? '–',
    })),
  );
  const cold = coldRounds(Number(process.argv[3] ?? 5));
  console.table(cold.rounds.map((r) => Object.fromEntries(KINDS.map((k) => [LABELS[k], r[k].toFixed(1)]))));
  for (const l of describeAsync(warm, cold)) console.log(l);
}
