// Runs the package's API once under whatever runtime executes this file
// (node, deno, bun): count with default options, countSync, solutions and a
// count on two worker threads, each checked against known answers. Prints
// one JSON line and exits 0 when everything matched, 1 otherwise. The
// package is the clone's dist/, or what the argument names: a path, or the
// bare name 'nqueens-wasm' as installed beside this file (runtimes.test.ts
// copies it into a project with the tarball unpacked in node_modules).
//   node test/runtimes/smoke.mjs [nqueens-wasm | path/to/dist/index.js]
//   deno run --allow-read test/runtimes/smoke.mjs
//   bun test/runtimes/smoke.mjs
const target = globalThis.process?.argv?.[2] ?? globalThis.Deno?.args?.[0];
const cwd = globalThis.process?.cwd?.() ?? globalThis.Deno.cwd();
const entry = !target
  ? new URL('../../dist/index.js', import.meta.url).href
  : /^[./]/.test(target)
    ? new URL(target, `file://${cwd}/`).href
    : target;
const { count, countSync, solutions, toBoard } = await import(entry);

const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${globalThis.process.version}`;

const checks = [];
async function check(name, run, expected) {
  let got;
  try {
    got = await run();
  } catch (error) {
    got = `threw ${error?.name}: ${error?.message}`;
  }
  checks.push({ name, ok: JSON.stringify(got) === JSON.stringify(expected), got, expected });
}
const brief = (r) => ({ total: String(r.total), unique: String(r.unique), engine: r.engine, threads: r.threads });

await check('count(10)', async () => brief(await count(10)), { total: '724', unique: '92', engine: 'wasm', threads: 1 });
await check("countSync(9, { engine: 'js' })", () => brief(countSync(9, { engine: 'js' })), {
  total: '352',
  unique: '46',
  engine: 'js',
  threads: 1,
});
await check('countSync(8)', () => brief(countSync(8)), { total: '92', unique: '12', engine: 'wasm', threads: 1 });
await check('solutions(8, { limit: 2 })', () => [...solutions(8, { limit: 2 })], [
  [0, 4, 7, 5, 2, 6, 1, 3],
  [0, 5, 7, 2, 6, 3, 1, 4],
]);
await check('solutions(4).map(toBoard)', () => [...solutions(4)].map(toBoard), [
  ['.Q..', '...Q', 'Q...', '..Q.'],
  ['..Q.', 'Q...', '...Q', '.Q..'],
]);
// From n = 15 the default is a worker per core: the road that needs the worker file.
await check(
  'count(15)',
  async () => {
    const r = await count(15);
    return [String(r.total), String(r.unique), r.engine, r.threads >= 1];
  },
  ['2279184', '285053', 'wasm', true],
);
await check('count(12, { threads: 2 })', async () => brief(await count(12, { threads: 2 })), {
  total: '14200',
  unique: '1787',
  engine: 'wasm',
  threads: 2,
});
await check("count(11, { threads: 2, engine: 'js' })", async () => brief(await count(11, { threads: 2, engine: 'js' })), {
  total: '2680',
  unique: '341',
  engine: 'js',
  threads: 2,
});
await check(
  'abort',
  async () => {
    const controller = new AbortController();
    const pending = count(13, { threads: 2, signal: controller.signal });
    controller.abort();
    return pending.then(
      () => 'resolved',
      (e) => e.name,
    );
  },
  'AbortError',
);

const ok = checks.every((c) => c.ok);
console.log(JSON.stringify({ runtime, ok, failed: checks.filter((c) => !c.ok), passed: checks.filter((c) => c.ok).map((c) => c.name) }));
if (globalThis.Deno) globalThis.Deno.exit(ok ? 0 : 1);
else globalThis.process.exit(ok ? 0 : 1);
