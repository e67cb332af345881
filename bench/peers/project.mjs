// Projects the whole time of a count too long to run here from a random
// sample of its units: `node bench/peers/project.mjs --sizes 21,22 --share 0.01`
// (after npm run build; `npm run bench:peers -- --project` runs it too).
// For each n, the plan count(n) runs (`--algorithm auto`, the default: the
// join's up to JOIN_AUTO_MAX_N, else the search's; or `join` or `search`), a seeded random sample of its units (`--share` of
// them, at least 50, in 20 runs of consecutive units), timed on one thread
// with the wasm engine; the whole is projected from the sample's time per
// unit of estimated work, with a spread from the 20 runs (the 10th to 90th
// percentile of their projections). The same seed picks the same units.
//
// With NQUEENS_PEER_KLUEV_DIR set (README.md here: one binary per n), the C++
// program runs beside it on one thread over shares of its own work:
// `<binary> 1 <parts> <part>` counts one of every `parts` of its work items
// (a round robin, so a part is spread over the whole work). A part costs
// other than 1 / parts of the whole: set-up, work every item costs before
// the program skips it, and what neighbouring items share (a part's time x
// its parts, shipped build: 92, 84, 72.5 and 66.2 s at n = 19 in 100, 25,
// 5 and 1 parts; 1,007, 1,022 and 1,071 s at n = 20 in 100, 25 and 1). So
// for `--kluev-parts` part numbers spread over 0..P/4-1 (default 3; P =
// round(1 / share)) it runs the part of P / 4 and the four parts of P that
// hold the same items, each `--kluev-repeat` times (default 2, the least
// kept), and fits a fixed cost per run (projectKluev): +12% to +23% at 19
// by part number, -5% at 20. (Scaling one part by P, before 2026-11-26, put
// n = 20 at 2.2x its whole; extrapolating the two scaled wholes in
// log(parts) was right for part 0 at 19 and 20 but 23-26% low for others.)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { methodForCount, resolveAlgorithm } from '../../dist/run/methods.js';
import { countWhole } from '../../dist/contract/method.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const sizes = option('sizes', '21,22,23').split(',').map(Number);
const share = Number(option('share', '0.01'));
const seed = Number(option('seed', '20261124'));
/** 'auto' (the default plan of count(n)), 'join' or 'search'. */
const choice = option('algorithm', 'auto');
const BATCHES = 20;
const kluevDir = process.env.NQUEENS_PEER_KLUEV_DIR;
const kluevRuns = Number(option('kluev-parts', '3'));
// Each part run this many times, its least time kept: on a shared host interference only adds time, and the
// fit below rests on a difference of two times.
const kluevRepeat = Number(option('kluev-repeat', '2'));

/** mulberry32: a seeded generator, so a projection can be repeated unit for unit. */
function random(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seconds = (s) => (s >= 3600 ? `${(s / 3600).toFixed(2)} h` : s >= 60 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(1)} s`);

for (const n of sizes) {
  const algorithm = resolveAlgorithm(n, 'auto', choice);
  const method = methodForCount(n, algorithm, 1);
  const counter = method.counter(method.module('wasm'));
  const next = random(seed + n);
  const want = Math.min(method.units, Math.max(50, Math.round(method.units * share)));
  // BATCHES runs of consecutive units at seeded random places: a real count takes units in plan order, and
  // neighbours share quarter tables (the join's), so isolated units would each pay for building their own.
  const run = Math.max(1, Math.ceil(want / BATCHES));
  const starts = new Set();
  while (starts.size < Math.min(BATCHES, Math.floor(method.units / run))) starts.add(run * Math.floor((next() * method.units) / run));
  const blocks = [...starts].sort((a, b) => a - b).map((from) => ({ from, to: Math.min(method.units, from + run) }));
  const ids = blocks.flatMap(({ from, to }) => Array.from({ length: to - from }, (_, i) => from + i));
  // The first unit pays for V8's warm-up: timed apart, added once.
  const setUp = performance.now();
  countWhole(counter, [...method.unitsIn(ids[0], ids[0] + 1)][0]);
  const setUpSeconds = (performance.now() - setUp) / 1000;
  // Each run twice: the first builds the join's quarter tables its units need, the second finds them (as most
  // units of a whole count do). Projected: the second's time per unit of work, plus every table of n built once,
  // at the first pass's extra cost per table it built. (A count from n = 20 also rebuilds tables its cache
  // dropped: a few percent more; not included.)
  /** @param {{ from: number, to: number }} block */
  const timeRun = ({ from, to }) => {
    const t = performance.now();
    for (const unit of method.unitsIn(from, to)) countWhole(counter, unit);
    return (performance.now() - t) / 1000;
  };
  let cold = 0;
  const batches = blocks.map((block) => {
    cold += timeRun(block);
    return { seconds: timeRun(block), work: method.workIn(block.from, block.to) };
  });
  // Asked of the method that runs (its units carry the join's row sets), not of the name chosen for it.
  const tables = method.name === 'join' && method.bytesPerThread > 0 ? quarterTablesOf(n, ids, method) : { touched: 0, all: 0 };
  const whole = method.workIn(0, method.units);
  const sampled = batches.reduce((s, b) => ({ seconds: s.seconds + b.seconds, work: s.work + b.work }), { seconds: 0, work: 0 });
  const coldExtra = Math.max(0, cold - batches.reduce((s, b) => s + b.seconds, 0));
  const tablesOnce = tables.touched > 0 ? (coldExtra / tables.touched) * tables.all : 0;
  const project = (b) => setUpSeconds + tablesOnce + (b.seconds / b.work) * whole;
  const spread = batches.map(project).sort((a, b) => a - b);
  console.log(
    `n = ${n} (${algorithm}, ${method.units} units): sampled ${ids.length} (${((100 * sampled.work) / whole).toFixed(2)}% of the work) in ` +
      `${seconds(sampled.seconds)}; projected one thread ${seconds(project(sampled))} ` +
      `(runs: ${seconds(spread[Math.floor(spread.length * 0.1)])} to ${seconds(spread[Math.floor(spread.length * 0.9 - 1e-9)])}); first unit (warm-up) ${seconds(setUpSeconds)}` +
      (tables.all ? `; every quarter table once ${seconds(tablesOnce)} (the sample built ${tables.touched} of ${tables.all})` : ''),
  );
  const kluev = projectKluev(n);
  if (kluev) {
    const mid = [...kluev.projections].sort((a, b) => a - b)[kluev.projections.length >> 1];
    console.log(
      `  C++ (Kluev), one thread, ${kluev.projections.length} part number(s), each of ${kluev.parts / 4} parts and its four of ${kluev.parts}: ` +
        `projected ${kluev.projections.map(seconds).join(', ')}; ` +
        `ours / C++ ${(project(sampled) / mid).toFixed(2)}x (the median)`,
    );
  }
}

/** Quarter tables (sets of band-local rows) the sampled join units use, and how many sets n has. */
function quarterTablesOf(n, ids, method) {
  const h = n >> 1;
  const band = n - h;
  const north = (1 << band) - 1;
  const sets = new Set();
  for (const id of ids) {
    const unit = [...method.unitsIn(id, id + 1)][0];
    const west = (2 ** n - 1) & ~unit.eastRows & ~(unit.centreRow >= 0 ? 1 << unit.centreRow : 0);
    for (const rows of [unit.eastRows, west]) sets.add(rows & north).add(rows >>> band);
  }
  return { touched: sets.size, all: 2 ** band };
}

/**
 * The C++ program's projection at n, or undefined without its binary: per
 * part number k of P / 4, the time of that part and of the four parts of P
 * that hold the same items (k, k + P/4, k + P/2, k + 3P/4: the program deals
 * its work items round robin). A run costs a + (its items' work): the four
 * fine parts pay a four times over the same work as the coarse one, so
 * a = (fine - coarse) / 3, and the whole is (P / 4) (coarse - a) + a.
 */
function projectKluev(n) {
  const binary = kluevDir && join(kluevDir, String(n));
  if (!binary || !existsSync(binary)) return undefined;
  const once = (parts, part) => {
    const out = execFileSync(binary, ['1', String(parts), String(part)], { encoding: 'utf8', maxBuffer: 1 << 20 });
    return Number(/Elapsed time: ([\d.e+-]+) s/.exec(out)[1]);
  };
  const elapsed = (parts, part) => Math.min(...Array.from({ length: kluevRepeat }, () => once(parts, part)));
  const parts = Math.max(4, 4 * Math.round(1 / share / 4));
  const coarse = parts / 4;
  const projections = [];
  for (let i = 0; i < kluevRuns; i++) {
    const part = Math.floor((i * coarse) / kluevRuns);
    let fine = 0;
    for (let j = 0; j < 4; j++) fine += elapsed(parts, part + j * coarse);
    const thick = elapsed(coarse, part);
    const a = Math.max(0, (fine - thick) / 3);
    projections.push(coarse * (thick - a) + a);
  }
  return { parts, projections };
}
