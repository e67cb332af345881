// Uses the package exactly as an app would: by name, through the bundler.
import { count } from 'nqueens-wasm';

const out = document.getElementById('out');
const result = count(12, { threads: 2 }).then(
  (r) => ({ ok: true, n: r.n, total: String(r.total), unique: String(r.unique), engine: r.engine, threads: r.threads }),
  (e) => ({ ok: false, error: String(e) }),
);
// A revoked Proxy as n, refused by the package's own argument check: a check the bundler's minifier must keep.
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
globalThis.consumerRefusal = count(proxy).then(
  () => 'counted',
  (e) => String(e),
);
// The browser test reads these; people read the page.
globalThis.consumerResult = result;
result.then((r) => (out.textContent = JSON.stringify(r, null, 2)));
