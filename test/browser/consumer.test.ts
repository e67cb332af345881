// examples/vite-consumer uses the package as an app would: installed from
// its `npm pack` tarball into node_modules, imported by name, and bundled by
// Vite. It must count with two Web Workers after a production build (the
// worker is bundled from new URL('./worker.js', import.meta.url)) and under
// the dev server (where the package must not be pre-bundled).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, RECORD_WORKERS, buildAndPreview, devServer, launchChromium, watchErrors, type Served, type WorkerLog } from './harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = join(ROOT, 'examples/vite-consumer');

/** Installs the package's tarball (what `npm install` of a release unpacks) into the app. */
function installTarball(): void {
  const packDir = mkdtempSync(join(tmpdir(), 'nqueens-pack-'));
  try {
    // The caller has built dist/; --ignore-scripts skips `prepare` (a second build).
    const [{ filename }] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as { filename: string }[];
    const target = join(APP, 'node_modules/nqueens-wasm');
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', join(packDir, filename), '-C', target, '--strip-components=1']);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}

describe.skipIf(!HAVE_CHROMIUM)('a Vite app that depends on nqueens-wasm', () => {
  let browser: Browser;
  beforeAll(async () => {
    installTarball();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function check(served: Served): Promise<void> {
    const context = await browser.newContext();
    try {
      await context.addInitScript(RECORD_WORKERS);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(served.url);
      await page.waitForFunction(() => 'consumerResult' in globalThis);
      const result = await page.evaluate(() => (globalThis as unknown as { consumerResult: Promise<unknown> }).consumerResult);
      expect(result).toEqual({ ok: true, n: 12, total: '14200', unique: '1787', engine: 'wasm', threads: 2 });
      const workers = await page.evaluate(() => (globalThis as unknown as { workerLog: WorkerLog }).workerLog);
      expect(workers).toHaveLength(2);
      expect(await page.textContent('#out')).toContain('"total": "14200"');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it.each([
    ['after a production build (vite build + vite preview)', () => buildAndPreview({ root: APP })],
    ['under the dev server (optimizeDeps.exclude)', () => devServer({ root: APP })],
  ])('counts with two workers %s', async (_, serve) => {
    const served = await serve();
    try {
      await check(served);
    } finally {
      await served.close();
    }
  });
});
