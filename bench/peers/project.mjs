// Projects the whole time of a count too long to run here from a random
// sample of its units: `node bench/peers/project.mjs --sizes 21,22 --share 0.01`
// (after npm run build; `npm run bench:peers -- --project` runs it too).
// For each n, the plan count(n) runs (`--algorithm auto`, the default: the
// join's up to JOIN_AUTO_MAX_N, else the search's; or `join` or `search`), a seeded random sample of its units (`--share` of
// them, at least 50), each timed on one thread with the wasm engine; the
// whole is projected from the sample's time per unit of estimated work, with
// a spread from 20 batches of the sample (the 10th to 90th percentile of
// their projections). One thread; the same seed picks the same units.
//
// With NQUEENS_PEER_KLUEV_DIR set (README.md here: one binary per n), the C++
// program runs beside it on one thread over a matching share of its own
// work: `<binary> 1 <parts> <part>` counts one of every `parts` of its work
// items, parts = 1 / share rounded, for `--kluev-parts` values of part
// (default 1, part 0); its whole time is projected as elapsed x parts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { methodForCount, resolveAlgorithm } from '../../dist/run/methods.js';
import { countWhole } from '../../dist/run/method.js';

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
const kluevRuns = Number(option('kluev-parts', '1'));

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
  const picked = new Set();
  while (picked.size < want) picked.add(Math.floor(next() * method.units));
  const ids = [...picked].sort((a, b) => a - b);
  // The first unit pays for the tables (the join's) and V8's warm-up: timed apart, added once.
  const setUp = performance.now();
  countWhole(counter, [...method.unitsIn(ids[0], ids[0] + 1)][0]);
  const setUpSeconds = (performance.now() - setUp) / 1000;
  const batches = Array.from({ length: BATCHES }, () => ({ seconds: 0, work: 0 }));
  let k = 0;
  for (const id of ids) {
    const unit = [...method.unitsIn(id, id + 1)][0];
    const t = performance.now();
    countWhole(counter, unit);
    const batch = batches[k++ % BATCHES];
    batch.seconds += (performance.now() - t) / 1000;
    batch.work += method.workOf(id);
  }
  const whole = method.workIn(0, method.units);
  const sampled = batches.reduce((s, b) => ({ seconds: s.seconds + b.seconds, work: s.work + b.work }), { seconds: 0, work: 0 });
  const project = (b) => setUpSeconds + (b.seconds / b.work) * whole;
  const spread = batches.map(project).sort((a, b) => a - b);
  console.log(
    `n = ${n} (${algorithm}, ${method.units} units): sampled ${ids.length} (${((100 * sampled.work) / whole).toFixed(2)}% of the work) in ` +
      `${seconds(sampled.seconds)}; projected one thread ${seconds(project(sampled))} ` +
      `(batches: ${seconds(spread[Math.floor(BATCHES * 0.1)])} to ${seconds(spread[Math.floor(BATCHES * 0.9)])}); first unit (tables, warm-up) ${seconds(setUpSeconds)}`,
  );
  const kluev = projectKluev(n);
  if (kluev) {
    const best = Math.min(...kluev.projections);
    console.log(
      `  C++ (Kluev), one thread, ${kluev.projections.length} part(s) of ${kluev.parts}: projected ${kluev.projections.map(seconds).join(', ')}; ` +
        `ours / C++ ${(project(sampled) / best).toFixed(2)}x`,
    );
  }
}

/** The C++ program's projection at n from `kluevRuns` parts of round(1 / share), or undefined without its binary. */
function projectKluev(n) {
  const binary = kluevDir && join(kluevDir, String(n));
  if (!binary || !existsSync(binary)) return undefined;
  const parts = Math.max(1, Math.round(1 / share));
  const projections = [];
  for (let part = 0; part < kluevRuns; part++) {
    const out = execFileSync(binary, ['1', String(parts), String(part)], { encoding: 'utf8' });
    projections.push(Number(/Elapsed time: ([\d.e+-]+) s/.exec(out)[1]) * parts);
  }
  return { parts, projections };
}
