// Uses the package exactly as an app would: by name, through the bundler.
import { count } from 'nqueens-wasm';

const out = document.getElementById('out')!;
const result = count(12, { threads: 2 }).then(
  (r) => ({ ok: true as const, n: r.n, total: String(r.total), unique: String(r.unique), engine: r.engine, threads: r.threads }),
  (e: unknown) => ({ ok: false as const, error: String(e) }),
);
// The browser test reads this; people read the page.
(globalThis as { consumerResult?: unknown }).consumerResult = result;
result.then((r) => (out.textContent = JSON.stringify(r, null, 2)));
