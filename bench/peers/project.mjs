// Projects the whole time of a count too long to run here from a random
// sample of its units: `node bench/peers/project.mjs --sizes 21,22 --share 0.01`
// (after npm run build; `npm run bench:peers -- --project` runs it too).
// For each n, the plan count(n) runs (`--algorithm auto`, the default: the
// join's up to JOIN_AUTO_MAX_N, else the search's; or `join` or `search`), a seeded random sample of its units (`--share` of
// them, at least 50), each timed on one thread with the wasm engine; the
// whole is projected from the sample's time per unit of estimated work, with
// a spread from 20 batches of the sample (the 10th to 90th percentile of
// their projections). One thread; the same seed picks the same units.
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
}
