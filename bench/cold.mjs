// One cold count in a fresh process: module load, wasm compile and
// instantiation, warm-up and the count itself. Prints JSON.
const [engine, n] = [process.argv[2], Number(process.argv[3])];
const start = performance.now();
const { countSync } = await import('nqueens-wasm');
const r = countSync(n, { engine: /** @type {'auto' | 'wasm' | 'js' | 'reference'} */ (engine) });
const ms = performance.now() - start;
console.log(JSON.stringify({ engine: r.engine, n, total: String(r.total), ms }));
