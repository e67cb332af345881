// The bundles scripts/bundle.mjs writes (dist/node/index.js, dist/cli/main.js)
// load and count where Object.prototype holds keys other code set before
// them, as tsc's modules do: rolldown's runtime, which builds the namespace
// of each import() it inlines, walked inherited keys with for...in and its
// descriptor literals inherited `get` and `set`, so the import threw
// ("Getter must be a function"). Node's own module loader needs
// node:fs/promises loaded before `get` or `set` is set (it defines accessors
// with descriptor literals too), so each script imports it first.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** Each as a plain assignment (enumerable) or a non-enumerable property, as a number and an object. */
const POLLUTIONS = [
  'Object.prototype.polluted = 1',
  'Object.prototype.polluted = {}',
  "Object.defineProperty(Object.prototype, 'get', { value: 1, writable: true, configurable: true })",
  "Object.defineProperty(Object.prototype, 'set', { value: {}, writable: true, configurable: true })",
];
const LOADER_FIRST = "await import('node:fs/promises');";

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

describe('the bundles with keys set on Object.prototype before they load', () => {
  it.each(POLLUTIONS)('the library (the node condition) loads and counts after %s', (pollution) => {
    const script = `${LOADER_FIRST} ${pollution};
const url = import.meta.resolve('nqueens-wasm');
const q = await import('nqueens-wasm');
const r = await q.count(12, { threads: 2 });
console.log(url, String(r.total), r.threads, String(q.countSync(8, { algorithm: 'join' }).total));`;
    const out = node(['--input-type=module', '-e', script]).trim();
    expect(out).toBe(`${pathToFileURL(`${ROOT}dist/node/index.js`).href} 14200 2 92`);
  });

  // Before: withCode's descriptor literal inherited `get` or `set`, so every
  // refused argument threw "Getter must be a function" (no code, the wrong class).
  it.each(POLLUTIONS)('the library refuses bad arguments with their coded errors after %s', (pollution) => {
    const script = `${LOADER_FIRST} ${pollution};
const q = await import('nqueens-wasm');
const seen = (e) => [e.name, e.code, e.message].join(' | ');
try { q.countSync(33); } catch (e) { console.log(seen(e)); }
await q.count(8, { thread: 2 }).catch((e) => console.log(seen(e)));`;
    const lines = node(['--input-type=module', '-e', script]).trim().split('\n');
    expect(lines).toEqual([
      'RangeError | ERR_NQUEENS_OUT_OF_RANGE | n must be an integer from 1 to 32; got 33',
      expect.stringMatching(/^TypeError \| ERR_NQUEENS_UNKNOWN_OPTION \| count\(\): unknown option "thread"/),
    ]);
  });

  it.each(POLLUTIONS)('the CLI counts after %s', (pollution) => {
    const preload = `data:text/javascript,${encodeURIComponent(`${LOADER_FIRST} ${pollution};`)}`;
    const out = node(['--import', preload, CLI, 'count', '12', '--json']);
    expect(JSON.parse(out)).toMatchObject({ n: 12, total: '14200', unique: '1787' });
  });
});
