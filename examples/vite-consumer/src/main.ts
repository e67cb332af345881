// Uses the package exactly as an app would: by name, through the bundler.
import { count } from 'nqueens-wasm';

const out = document.getElementById('out')!;
const result = count(12, { threads: 2 }).then(
  (r) => ({ ok: true as const, n: r.n, total: String(r.total), unique: String(r.unique), engine: r.engine, threads: r.threads }),
  (e: unknown) => ({ ok: false as const, error: String(e) }),
);
// A revoked Proxy as n, refused by the package's own argument check: a check the bundler's minifier must keep.
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
(globalThis as { consumerRefusal?: unknown }).consumerRefusal = count(proxy as unknown as number).then(
  () => 'counted',
  (e: unknown) => String(e),
);
// The browser test reads these; people read the page.
(globalThis as { consumerResult?: unknown }).consumerResult = result;
result.then((r) => (out.textContent = JSON.stringify(r, null, 2)));
