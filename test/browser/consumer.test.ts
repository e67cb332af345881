// examples/vite-consumer and examples/webpack-consumer use the package as an
// app would: installed from its `npm pack` tarball into node_modules, imported
// by name, and bundled. Each must count with two Web Workers (the worker is
// bundled from new URL('./worker.js', import.meta.url)), and that bundled
// worker, started on its own, must load and answer: Vite after a
// production build and under the dev server (where the package must not be
// pre-bundled), webpack 5 after a production build with no configuration
// beyond entry and output, and no warning. Both builds also under Trusted
// Types that allow only the package's policy: the bundled call
// new Worker(new URL(...)) takes its URL through that policy.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpack from 'webpack';
import { installPacked } from '../pack.js';
import {
  HAVE_CHROMIUM,
  RECORD_WORKERS,
  buildAndPreview,
  devServer,
  launchChromium,
  serveStatic,
  watchErrors,
  type Served,
  type WorkerLog,
} from './harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = join(ROOT, 'examples/vite-consumer');
const WEBPACK_APP = join(ROOT, 'examples/webpack-consumer');

/** webpack's production build of the app (its own webpack.config.mjs), into the app's dist/. */
async function webpackBuild(app: string): Promise<void> {
  const { default: config } = (await import(join(app, 'webpack.config.mjs'))) as { default: webpack.Configuration };
  const stats = await new Promise<webpack.Stats>((resolve, reject) => {
    webpack({ ...config, context: app }, (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result)));
  });
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  // No warning either: an app's build log should not show the package's Node-only code (its worker URL).
  if (stats.hasWarnings()) throw new Error(stats.toString({ all: false, warnings: true }));
}

/** Trusted Types required, and only the package's policy allowed: no default policy passes a plain URL. */
const TRUSTED_TYPES = { 'content-security-policy': "require-trusted-types-for 'script'; trusted-types nqueens-wasm" };

describe.skipIf(!HAVE_CHROMIUM)('apps that depend on nqueens-wasm', () => {
  let browser: Browser;
  beforeAll(async () => {
    installPacked(APP);
    installPacked(WEBPACK_APP);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** `trusted`: under TRUSTED_TYPES, where the page's own `new Worker(url)` below would be refused (a plain URL). */
  async function check(served: Served, workerUrl: RegExp, trusted = false): Promise<void> {
    const context = await browser.newContext();
    try {
      await context.addInitScript(RECORD_WORKERS);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(served.url);
      await page.waitForFunction(() => 'consumerResult' in globalThis);
      const result = await page.evaluate(() => (globalThis as unknown as { consumerResult: Promise<unknown> }).consumerResult);
      expect(result).toEqual({ ok: true, n: 12, total: '14200', unique: '1787', engine: 'wasm', threads: 2 });
      // The package's check of a revoked Proxy calls Array.isArray for its throw alone: a minifier drops such a call
      // as pure unless its result is used (rolldown, terser), and the count then failed inside the check's caller.
      const refusal = await page.evaluate(() => (globalThis as unknown as { consumerRefusal: Promise<unknown> }).consumerRefusal);
      expect(refusal).toBe('TypeError: n must be an integer from 1 to 32; got a revoked Proxy');
      const workers = await page.evaluate(() => (globalThis as unknown as { workerLog: WorkerLog }).workerLog);
      expect(workers).toHaveLength(2);
      for (const w of workers) expect(w).toMatchObject({ url: expect.stringMatching(workerUrl), terminated: true });
      // Under Trusted Types a refused constructor throws before it records a worker, and the count reports 1 thread.
      if (trusted) return expect(errors).toEqual([]);
      // Whether the pool's workers counted anything depends on how soon they started (the page's thread counts
      // while they start, and n = 12 is quick): so the bundled worker is also started on its own here, and
      // must load and say it listens, however long that takes.
      const answer = await page.evaluate(
        ({ url, type }) =>
          new Promise<unknown>((resolve) => {
            const worker = new Worker(url, type === 'module' ? { type } : {});
            worker.onmessage = (event: MessageEvent) => {
              resolve(event.data);
              worker.terminate();
            };
            worker.onerror = (event) => resolve(`error: ${event.message}`);
          }),
        { url: workers[0].url, type: workers[0].type },
      );
      expect(answer).toMatchObject({ type: 'online' });
      expect(await page.textContent('#out')).toContain('"total": "14200"');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it.each([
    // Each bundler emits the worker as a file of its own.
    [
      "Vite, after a production build, under Trusted Types that allow the package's policy",
      /\/assets\/worker-[\w-]+\.js$/,
      () => buildAndPreview({ root: APP, preview: { headers: TRUSTED_TYPES } }),
    ],
    [
      "webpack 5, after a production build, under Trusted Types that allow the package's policy",
      /\/dist\/\d+\.main\.js$/,
      async () => {
        await webpackBuild(WEBPACK_APP);
        return serveStatic(WEBPACK_APP, TRUSTED_TYPES);
      },
    ],
    ['Vite, after a production build (vite build + vite preview)', /\/assets\/worker-[\w-]+\.js$/, () => buildAndPreview({ root: APP })],
    [
      'Vite, under the dev server (optimizeDeps.exclude)',
      /\/node_modules\/nqueens-wasm\/dist\/run\/worker\.js\b/,
      () => devServer({ root: APP }),
    ],
    [
      'webpack 5, after a production build served as static files',
      /\/dist\/\d+\.main\.js$/,
      async () => {
        await webpackBuild(WEBPACK_APP);
        return serveStatic(WEBPACK_APP);
      },
    ],
  ] as const)('counts with two workers: %s', async (name, workerUrl, serve) => {
    const served = await serve();
    try {
      await check(served, workerUrl, name.includes('Trusted Types'));
    } finally {
      await served.close();
    }
  });
});
