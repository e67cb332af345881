// The package in a browser with no bundler: the tarball unpacked into a
// site's node_modules and served as plain files from http://127.0.0.1, loaded
// (1) by name through an import map, (2) by path from a plain
// <script type="module">, and (3) from another origin, as from a CDN (with
// CORS, as CDNs send). Each counts with default options (n = 15 starts a
// worker per core) and with two workers. Module workers never see the page's
// import map, so this holds only because dist/ names no bare specifier.
// Then the same under CSPs (one that lets workers start, one that refuses
// them: counts go on on the page's thread), under Trusted Types (the
// package's own policy), in a sandboxed iframe (an opaque origin), and
// cross-origin isolated.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCompletionsSync } from '../../dist/index.js';
import { TOTAL, UNIQUE } from '../oeis.js';
import { installPacked } from '../pack.js';
import {
  HAVE_CHROMIUM,
  RECORD_WORKERS,
  launchChromium,
  serveStatic,
  watchErrors,
  type PlainResult,
  type Served,
  type WorkerLog,
} from './harness.js';

const page = (imports: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>nqueens-wasm, unbundled</title><link rel="icon" href="data:," /></head>
  <body>
    ${imports}
  </body>
</html>
`;

const IMPORT_MAP = page(`<script type="importmap">{ "imports": { "nqueens-wasm": "/node_modules/nqueens-wasm/dist/index.js" } }</script>
    <script type="module">
      import * as nqueens from 'nqueens-wasm';
      globalThis.nqueens = nqueens;
    </script>`);

const BY_PATH = page(`<script type="module">
      import * as nqueens from './node_modules/nqueens-wasm/dist/index.js';
      globalThis.nqueens = nqueens;
    </script>`);

const FROM_CDN = (cdn: string) =>
  page(`<script type="module">
      import * as nqueens from '${cdn}nqueens-wasm@0.1.0/dist/index.js';
      globalThis.nqueens = nqueens;
    </script>`);

describe.skipIf(!HAVE_CHROMIUM)('an unbundled page', () => {
  let browser: Browser;
  let site: string;
  let cdnRoot: string;
  let served: Served;
  let cdn: Served;
  let isolated: Served;
  let isolatedPageOnly: Served;
  let withCsp: Served;
  let noWorkers: Served;
  let trustedTypes: Served;
  let otherPolicy: Served;

  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), 'nqueens-site-'));
    cdnRoot = mkdtempSync(join(tmpdir(), 'nqueens-cdn-'));
    installPacked(site);
    // The CDN serves the same files under /nqueens-wasm@0.1.0/.
    mkdirSync(join(cdnRoot, 'x'));
    installPacked(join(cdnRoot, 'x'));
    rmSync(join(cdnRoot, 'nqueens-wasm@0.1.0'), { recursive: true, force: true });
    const { renameSync } = await import('node:fs');
    renameSync(join(cdnRoot, 'x/node_modules/nqueens-wasm'), join(cdnRoot, 'nqueens-wasm@0.1.0'));
    // And a copy without its worker, as a CDN that failed to serve it.
    cpSync(join(cdnRoot, 'nqueens-wasm@0.1.0'), join(cdnRoot, 'broken@0.1.0'), { recursive: true });
    rmSync(join(cdnRoot, 'broken@0.1.0/dist/run/worker.js'));
    [browser, served, cdn] = await Promise.all([
      launchChromium(),
      serveStatic(site),
      serveStatic(cdnRoot, { 'access-control-allow-origin': '*' }),
    ]);
    // The same site, cross-origin isolated (COOP and COEP): shared memory is allowed there.
    const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
    isolated = await serveStatic(site, isolation);
    // Isolated by the page's own headers alone: worker.js comes without COEP.
    isolatedPageOnly = await serveStatic(site, (path) => (path.endsWith('.html') ? isolation : {}));
    // The same site under docs/browser.md's CSP for a package from a CDN (and the page's inline loader).
    const cdnOrigin = new URL(cdn.url).origin;
    withCsp = await serveStatic(site, {
      'content-security-policy': `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' ${cdnOrigin}; worker-src 'self' blob:`,
    });
    // The same site under a CSP that refuses every worker, the package's own and a blob:'s.
    noWorkers = await serveStatic(site, {
      'content-security-policy': `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' ${cdnOrigin}; worker-src 'none'`,
    });
    // Trusted Types required, with the package's policy allowed by name (and no default policy); then with another name only.
    const requireTrustedTypes = `script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' ${cdnOrigin}; worker-src 'self' blob:; require-trusted-types-for 'script'`;
    trustedTypes = await serveStatic(site, { 'content-security-policy': `${requireTrustedTypes}; trusted-types nqueens-wasm` });
    otherPolicy = await serveStatic(site, { 'content-security-policy': `${requireTrustedTypes}; trusted-types other` });
    // A page of the CDN's origin (CORS for all) that shows the package in a sandboxed iframe: an opaque origin.
    writeFileSync(join(cdnRoot, 'sandboxed.html'), BY_PATH.replace('./node_modules/nqueens-wasm/', './nqueens-wasm@0.1.0/'));
    writeFileSync(join(cdnRoot, 'sandbox-host.html'), page('<iframe sandbox="allow-scripts" src="sandboxed.html"></iframe>'));
    writeFileSync(join(site, 'import-map.html'), IMPORT_MAP);
    writeFileSync(join(site, 'by-path.html'), BY_PATH);
    writeFileSync(join(site, 'from-cdn.html'), FROM_CDN(cdn.url));
    writeFileSync(join(site, 'from-broken-cdn.html'), FROM_CDN(cdn.url).replace('nqueens-wasm@0.1.0', 'broken@0.1.0'));
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await cdn?.close();
    await isolated?.close();
    await isolatedPageOnly?.close();
    await withCsp?.close();
    await noWorkers?.close();
    await trustedTypes?.close();
    await otherPolicy?.close();
    if (site) rmSync(site, { recursive: true, force: true });
    if (cdnRoot) rmSync(cdnRoot, { recursive: true, force: true });
  });

  async function open(file: string, ...initScripts: string[]): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
    return openFrom(served, file, ...initScripts);
  }

  async function openFrom(
    site: Served,
    file: string,
    ...initScripts: string[]
  ): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
    const context = await browser.newContext();
    for (const script of [RECORD_WORKERS, ...initScripts]) await context.addInitScript(script);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(new URL(file, site.url).href);
    await page.waitForFunction(() => 'nqueens' in globalThis);
    return { page, errors, close: () => context.close() };
  }

  /** Runs `body` on `file` of `site` in a fresh context, closed after it. */
  async function inPage(site: Served, file: string, body: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
    const { page, errors, close } = await openFrom(site, file);
    try {
      await body(page, errors);
    } finally {
      await close();
    }
  }

  function countIn(
    page: Page,
    n: number,
    options: { threads?: number; engine?: 'js'; algorithm?: 'join' } = {},
  ): Promise<PlainResult & { cores: number; workers: WorkerLog }> {
    return page.evaluate(
      async ([n, options]) => {
        const r = await nqueens.count(n, options);
        const workers = (globalThis as unknown as { workerLog: WorkerLog }).workerLog.splice(0);
        return { ...r, total: String(r.total), unique: String(r.unique), cores: navigator.hardwareConcurrency, workers };
      },
      [n, options] as const,
    );
  }

  const exact = (n: number) => ({ n, total: String(TOTAL[n]), unique: String(UNIQUE[n]), engine: 'wasm' });

  /**
   * countCompletions(12, [[0, 1]]) on two workers: the page's thread counts count(13)'s units while its workers load,
   * and may count them all; a completion count's units are the workers' alone, so they load and count, whatever the
   * machine's speed.
   */
  function completionsIn(page: Page): Promise<{ total: string; engine: string; threads: number; workers: WorkerLog }> {
    return page.evaluate(async () => {
      const r = await nqueens.countCompletions(12, [[0, 1]], { threads: 2 });
      const workers = (globalThis as unknown as { workerLog: WorkerLog }).workerLog.splice(0);
      return { total: String(r.total), engine: r.engine, threads: r.threads, workers };
    });
  }
  const COMPLETIONS_12 = String(countCompletionsSync(12, [[0, 1]]).total);

  it.each([
    [
      'through an import map',
      'import-map.html',
      /^http:\/\/127\.0\.0\.1:\d+\/node_modules\/nqueens-wasm\/dist\/run\/worker\.js$/,
      'module',
    ],
    [
      'by path, from a plain <script type="module">',
      'by-path.html',
      /^http:\/\/127\.0\.0\.1:\d+\/node_modules\/nqueens-wasm\/dist\/run\/worker\.js$/,
      'module',
    ],
    // A worker must come from the page's origin: the package starts it from a blob: URL that imports worker.js from
    // the CDN, a classic worker (whose import() loads the module worker.js all the same).
    ['from another origin, as from a CDN', 'from-cdn.html', /^blob:http:\/\/127\.0\.0\.1:\d+\//, undefined],
  ])('loaded %s: counts with default options and with two workers', async (_, file, workerUrl, type) => {
    const { page, errors, close } = await open(file);
    try {
      // Default options at n = 15: one worker per core.
      const auto = await countIn(page, 15);
      expect(auto).toMatchObject({ ...exact(15), threads: auto.cores });
      expect(auto.workers).toHaveLength(auto.cores);
      const two = await countIn(page, 13, { threads: 2 });
      expect(two).toMatchObject({ ...exact(13), threads: 2 });
      expect(two.workers).toHaveLength(2);
      const completions = await completionsIn(page);
      expect(completions).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 2 });
      expect(completions.workers).toHaveLength(2);
      for (const w of [...auto.workers, ...two.workers, ...completions.workers])
        expect(w).toMatchObject({ url: expect.stringMatching(workerUrl), type, terminated: true });
      const other = await page.evaluate(() => ({
        sync: String(nqueens.countSync(9).total),
        first: [...nqueens.solutions(8, { limit: 1 })][0],
      }));
      expect(other).toEqual({ sync: '352', first: [0, 4, 7, 5, 2, 6, 1, 3] });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("from a CDN under a CSP whose worker-src allows blob: (docs/browser.md's), workers count: their loader imports worker.js dynamically", async () => {
    // Before: the blob's static import was checked against worker-src, and every count on workers failed ("could not load worker.js").
    const { page, errors, close } = await openFrom(withCsp, 'from-cdn.html');
    try {
      const two = await countIn(page, 13, { threads: 2 });
      expect(two).toMatchObject({ ...exact(13), threads: 2 });
      const join = await countIn(page, 14, { threads: 2, algorithm: 'join' });
      expect(join).toMatchObject({ ...exact(14), threads: 2 });
      expect(await completionsIn(page)).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 2 });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("from a CDN that cannot serve worker.js: its loader fails before worker.js ran, so the page's thread counts, exact", () =>
    inPage(withCsp, 'from-broken-cdn.html', async (page) => {
      // countCompletions: its units are the workers' alone, so the page's thread counts none of them before every
      // worker has failed to load. Before, the count failed with ERR_NQUEENS_WORKER_FAILED ("could not load ...").
      const r = await completionsIn(page);
      expect(r).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 1 });
      expect(r.workers).toHaveLength(2); // tried, and refused
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), threads: 1, workers: [] });
    }));

  it('from a CDN where no blob: URL can be made (a service worker has no URL.createObjectURL): this thread counts, exact', async () => {
    // Before: the loader's blob: URL was made outside the refusal's try, and every count on workers failed.
    const { page, errors, close } = await openFrom(served, 'from-cdn.html', 'delete URL.createObjectURL;');
    try {
      expect(await countIn(page, 15)).toMatchObject({ ...exact(15), threads: 1, workers: [] });
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), threads: 1, workers: [] });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each(['by-path.html', 'from-cdn.html'])(
    "under a CSP that refuses workers (worker-src 'none'), %s: counts go on on the page's thread, exact; none starts a worker again",
    (file) =>
      inPage(noWorkers, file, async (page) => {
        // Before: every count on workers failed with ERR_NQUEENS_WORKER_FAILED, count(15) with default options too.
        const completions = await completionsIn(page);
        expect(completions).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 1 });
        expect(completions.workers).toHaveLength(2); // tried, and refused: the page remembers it
        expect(await countIn(page, 15)).toMatchObject({ ...exact(15), threads: 1, workers: [] });
        expect(await countIn(page, 15, { threads: 1 })).toMatchObject({ ...exact(15), threads: 1, workers: [] });
        for (const n of [10, 11, 12]) {
          expect(await countIn(page, n)).toMatchObject({ ...exact(n), threads: 1, workers: [] });
          expect(await countIn(page, n, { threads: 2 })).toMatchObject({ ...exact(n), threads: 1, workers: [] });
        }
      }),
  );

  it("under a CSP that refuses workers, count(15) with default options as the page's first count: exact", () =>
    inPage(noWorkers, 'by-path.html', async (page) => {
      const r = await countIn(page, 15);
      expect(r).toMatchObject(exact(15));
      expect(r.workers).toHaveLength(r.cores); // tried, and refused while the page's thread counted
    }));

  it.each([
    ['by-path.html', /\/node_modules\/nqueens-wasm\/dist\/run\/worker\.js$/],
    ['from-cdn.html', /^blob:http:\/\/127\.0\.0\.1:\d+\//],
  ] as const)("under Trusted Types that allow the package's policy by name (no default policy), %s: workers start and count", (file, url) =>
    inPage(trustedTypes, file, async (page, errors) => {
      // Before: new Worker() took no plain URL there, and every count on workers failed ("requires 'TrustedScriptURL'").
      const worker = { url: expect.stringMatching(url) };
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), threads: 2, workers: [worker, worker] });
      expect(await completionsIn(page)).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 2 });
      expect(errors).toEqual([]);
    }),
  );

  it("under Trusted Types that allow another policy only, the Worker constructor throws: the page's thread counts, exact", () =>
    inPage(otherPolicy, 'by-path.html', async (page, errors) => {
      expect(await completionsIn(page)).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 1, workers: [] });
      expect(await countIn(page, 15)).toMatchObject({ ...exact(15), threads: 1, workers: [] });
      // The browser's own reports of what its policy refused, once each: the package's policy name, the worker's URL.
      expect(errors).toEqual([
        expect.stringMatching(/Creating a TrustedTypePolicy named 'nqueens-wasm' violates/),
        expect.stringMatching(/requires 'TrustedScriptURL' assignment/),
      ]);
    }));

  it.each(['by-path.html', 'from-cdn.html'])(
    'with `credentials` and `endings` set on Object.prototype, %s: workers start and count (their options have no prototype)',
    async (file) => {
      // Before: the Worker's options read `credentials` through Object.prototype (workers refused: threads 1), and the
      // CDN's blob: loader's Blob read `endings` there and threw (every count failed with ERR_NQUEENS_WORKER_FAILED).
      const pollute = `for (const key of ['credentials', 'endings']) Object.defineProperty(Object.prototype, key, { value: 1 });`;
      const { page, errors, close } = await openFrom(served, file, pollute);
      try {
        expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), threads: 2, workers: [{}, {}] });
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it("with `setImmediate` and `simd` set on Object.prototype, counts on the page's thread run, on wasm", async () => {
    // Before: the page's global setImmediate came from Object.prototype (the count rejected, "immediate is not a
    // function", and every later count on this thread hung), and the open-rows module's missing SIMD build too (its
    // compile failed: completions ran on 'js').
    const pollute = `for (const key of ['setImmediate', 'simd']) Object.defineProperty(Object.prototype, key, { value: 1 });`;
    const { page, errors, close } = await openFrom(served, 'by-path.html', pollute);
    try {
      expect(await countIn(page, 12)).toMatchObject({ ...exact(12), threads: 1 });
      const completions = await page.evaluate(async () => {
        const r = await nqueens.countCompletions(12, [[0, 1]]);
        return { total: String(r.total), engine: r.engine };
      });
      expect(completions).toEqual({ total: COMPLETIONS_12, engine: 'wasm' });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('where Error.prototype is frozen (a hardened page), a worker that fails fails the count with its error', async () => {
    // The page's Worker posts each worker a 'run' before the package's 'init': the worker answers with an error.
    const failing = `Object.freeze(Error.prototype);
      globalThis.Worker = class extends Worker { constructor(u, o) { super(u, o); this.postMessage({ type: 'run', units: [] }); } };`;
    const { page, errors, close } = await openFrom(served, 'by-path.html', failing);
    try {
      // Before: rebuilding its error assigned `name`, which threw (read-only on the frozen prototype): the failure was
      // lost as two uncaught errors on the page, and the count went on with the failed workers.
      const outcome = await page.evaluate(() =>
        nqueens.countCompletions(12, [[0, 1]], { threads: 2 }).then(
          () => 'resolved',
          (e: Error & { code: string; cause: Error & { code: string } }) => [e.code, e.cause.name, e.cause.code, e.cause.message],
        ),
      );
      expect(outcome).toEqual(['ERR_NQUEENS_WORKER_FAILED', 'Error', 'ERR_NQUEENS_INTERNAL', "'run' before 'init'"]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('in a sandboxed iframe (an opaque origin), workers start from a blob: URL that imports worker.js with CORS', async () => {
    const context = await browser.newContext();
    try {
      await context.addInitScript(RECORD_WORKERS);
      const host = await context.newPage();
      const errors = watchErrors(host);
      await host.goto(new URL('sandbox-host.html', cdn.url).href);
      const frame = host.frames().find((f) => f !== host.mainFrame())!;
      await frame.waitForFunction(() => 'nqueens' in globalThis);
      // location.origin is still the frame's URL's: before, the package compared worker.js with that, started the
      // worker from its URL, and every count on workers failed ("cannot be accessed from origin 'null'").
      expect(await frame.evaluate(() => [origin, location.origin === new URL(document.URL).origin])).toEqual(['null', true]);
      const completions = await frame.evaluate(async () => {
        const r = await nqueens.countCompletions(12, [[0, 1]], { threads: 2 });
        return {
          total: String(r.total),
          engine: r.engine,
          threads: r.threads,
          workers: (globalThis as unknown as { workerLog: WorkerLog }).workerLog,
        };
      });
      expect(completions).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 2 });
      expect(completions.workers).toHaveLength(2);
      // Classic workers: a module worker from a blob: URL does not load in an opaque origin.
      for (const w of completions.workers)
        expect(w).toMatchObject({ url: expect.stringMatching(/^blob:null\//), type: undefined, terminated: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("cross-origin isolated, the join's workers share one memory for their tables; without isolation each has its own", async () => {
    for (const [site, shared] of [
      [isolated, true],
      [served, false],
    ] as const) {
      const { page, errors, close } = await openFrom(site, 'by-path.html');
      try {
        expect(await page.evaluate(() => crossOriginIsolated)).toBe(shared);
        // n = 18: the calling thread does not count join units while workers start, so every worker gets its 'init'.
        const r = await countIn(page, 18, { algorithm: 'join', threads: 2 });
        expect(r).toMatchObject({ ...exact(18), threads: 2 });
        expect(r.workers.map((w) => w.sharedMemory)).toEqual([shared, shared]);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("cross-origin isolated by the page's headers alone, Chromium refuses workers whose worker.js lacks COEP: the page's thread counts, exact", () =>
    inPage(isolatedPageOnly, 'by-path.html', async (page, errors) => {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      const r = await completionsIn(page);
      expect(r).toMatchObject({ total: COMPLETIONS_12, engine: 'wasm', threads: 1 });
      expect(r.workers).toHaveLength(2); // tried, and refused
      expect(errors).toEqual([]); // and the console says nothing of it (docs/browser.md)
    }));

  it('loaded by path without WebAssembly: the TypeScript kernel counts, on this thread and on two workers', async () => {
    const { page, errors, close } = await open('by-path.html', 'delete globalThis.WebAssembly;');
    try {
      expect(await countIn(page, 12)).toMatchObject({ ...exact(12), engine: 'js', threads: 1 });
      const two = await countIn(page, 13, { threads: 2 });
      expect(two).toMatchObject({ ...exact(13), engine: 'js', threads: 2 });
      expect(two.workers).toHaveLength(2);
      expect(await completionsIn(page)).toMatchObject({ total: COMPLETIONS_12, engine: 'js', threads: 2 });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
