// Uses the package exactly as an app would: by name, through the bundler.
import { count } from 'nqueens-wasm';

const out = document.getElementById('out');
const result = count(12, { threads: 2 }).then(
  (r) => ({ ok: true, n: r.n, total: String(r.total), unique: String(r.unique), engine: r.engine, threads: r.threads }),
  (e) => ({ ok: false, error: String(e) }),
);
// The browser test reads this; people read the page.
globalThis.consumerResult = result;
result.then((r) => (out.textContent = JSON.stringify(r, null, 2)));
