// The first count of a fresh process, for bench/async.mjs: the package is
// imported first (both kinds pay that alike), then one count is timed.
//
//   node bench/async-cold.mjs sync|one|default
const kind = process.argv[2];
const { count, countSync } = await import('nqueens-wasm');
const start = performance.now();
const r = kind === 'sync' ? countSync(16) : await count(16, kind === 'one' ? { threads: 1 } : {});
const ms = performance.now() - start;
if (r.total !== 14772512n) throw new Error(`${kind}: counted ${r.total}`);
console.log(JSON.stringify({ kind, ms }));
