// count(n, { threads: 1 }) once, as the first call of a fresh Node process
// (run.mjs runs it as a child): prints the total and the seconds from the
// call to the resolved result, leaving out Node's start and the import, as
// the C++ programs' own times leave out their process's start.
import { count } from 'nqueens-wasm';

const n = Number(process.argv[2]);
const start = performance.now();
const { total } = await count(n, { algorithm: 'join', threads: 1 });
const seconds = (performance.now() - start) / 1000;
process.stdout.write(JSON.stringify({ total: String(total), seconds }) + '\n');
