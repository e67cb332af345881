// engine 'webgpu' in headless Chromium on the SwiftShader software adapter
// (WebGPU needs a secure context, so the demo page is served from
// http://127.0.0.1): exact counts, abort, progress, the dispatch loop with
// many dispatches in flight (dist/ served as it is), and the clear error where
// WebGPU is missing. SwiftShader runs on the CPU: these times say nothing
// about GPU speed.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { smallPlan } from '../fixtures/webgpu/small-plan.mjs';
import { range, TOTAL, UNIQUE } from '../oeis.js';
import {
  HAVE_CHROMIUM,
  WEBGPU_FLAGS,
  buildAndPreview,
  launchChromium,
  serveStatic,
  watchErrors,
  type PlainResult,
  type Served,
} from './harness.js';

const WEB = fileURLToPath(new URL('../../web', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/** n = 15 takes 1.2 to 2.5 s on SwiftShader with two cores; the whole test about 7 s. */
const LARGEST_N = 15;

describe.skipIf(!HAVE_CHROMIUM)("engine 'webgpu' in Chromium (SwiftShader)", () => {
  let browser: Browser;
  let served: Served;
  let errors: string[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    [browser, served] = await Promise.all([launchChromium(WEBGPU_FLAGS), buildAndPreview({ root: WEB, configFile: false })]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  async function open(...initScripts: string[]): Promise<Page> {
    const context = await browser.newContext();
    for (const script of initScripts) await context.addInitScript(script);
    const page = await context.newPage();
    pages.push(page);
    errors = watchErrors(page);
    await page.goto(served.url);
    await page.waitForFunction(() => 'nqueens' in globalThis);
    return page;
  }

  it('the benchmark page offers WebGPU (unticked) and times it like any engine', async () => {
    const page = await open();
    await page.fill('#bench-from', '6');
    await page.fill('#bench-to', '8');
    await page.fill('#bench-rounds', '1');
    const box = page.locator('#bench-engines input[value="webgpu"]');
    expect(await box.isChecked()).toBe(false);
    // WebGPU alone: untick the others.
    await page.locator('#bench-engines input').evaluateAll((boxes) => boxes.forEach((b) => ((b as HTMLInputElement).checked = false)));
    await box.check();
    await page.click('#bench-run');
    await page.waitForFunction(() => document.getElementById('bench-status')!.textContent!.startsWith('Done'), undefined, {
      timeout: 60_000,
    });
    for (const n of [6, 7, 8]) {
      expect(await page.locator(`#bench-table td[data-n="${n}"][data-engine="webgpu"]`).getAttribute('data-total')).toBe(String(TOTAL[n]));
    }
    expect(errors).toEqual([]);
  });

  it(`counts n = 1..${LARGEST_N} exactly, with the result's usual shape`, async () => {
    const page = await open();
    const results = await page.evaluate(
      async (sizes) => {
        const out: PlainResult[] = [];
        for (const n of sizes) {
          const r = await nqueens.count(n, { engine: 'webgpu' });
          out.push({ ...r, total: String(r.total), unique: String(r.unique) });
        }
        return out;
      },
      range(1, LARGEST_N),
    );
    for (const r of results) {
      expect(r).toMatchObject({ n: r.n, total: String(TOTAL[r.n]), unique: String(UNIQUE[r.n]), engine: 'webgpu', threads: 1 });
      expect(r.elapsedMs).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
  });

  it('counts exactly where other code set `error` and `unref` on Object.prototype, the idle device reused too', async () => {
    // Before: `'error' in outcome` found Object.prototype's (every count failed: "the shader did not compile"), and
    // the idle device's timer, a number here, had its `unref` called from there (a count that succeeded rejected).
    const page = await open(`for (const key of ['error', 'unref']) Object.defineProperty(Object.prototype, key, { value: 1 });`);
    const totals = await page.evaluate(async () => {
      const out: string[] = [];
      for (const n of [10, 11]) out.push(String((await nqueens.count(n, { engine: 'webgpu' })).total));
      return out;
    });
    expect(totals).toEqual([String(TOTAL[10]), String(TOTAL[11])]);
    expect(errors).toEqual([]);
  });

  it('reports progress between dispatches, ending at fraction 1 with the exact counts', async () => {
    const page = await open();
    const reports = await page.evaluate(async () => {
      const seen: { fraction: number; finished: number; subproblems: number; total: string; unique: string }[] = [];
      await nqueens.count(14, {
        engine: 'webgpu',
        onProgress: (p) =>
          seen.push({
            fraction: p.fraction,
            finished: p.finished,
            subproblems: p.subproblems,
            total: String(p.total),
            unique: String(p.unique),
          }),
      });
      return seen;
    });
    expect(reports.length).toBeGreaterThanOrEqual(2);
    const fractions = reports.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(reports.at(-1)).toEqual({
      fraction: 1,
      finished: 1632,
      subproblems: 1632,
      total: String(TOTAL[14]),
      unique: String(UNIQUE[14]),
    });
    expect(errors).toEqual([]);
  });

  it('rejects with an AbortError when aborted between dispatches, and when aborted before it starts', async () => {
    const page = await open();
    const outcome = await page.evaluate(async () => {
      const controller = new AbortController();
      const during = await nqueens.count(15, { engine: 'webgpu', signal: controller.signal, onProgress: () => controller.abort() }).then(
        () => 'resolved',
        (e: Error) => e.name,
      );
      const before = await nqueens.count(10, { engine: 'webgpu', signal: AbortSignal.abort() }).then(
        () => 'resolved',
        (e: Error) => e.name,
      );
      // The device is released: the next count still works.
      const after = String((await nqueens.count(9, { engine: 'webgpu' })).total);
      return { during, before, after };
    });
    expect(outcome).toEqual({ during: 'AbortError', before: 'AbortError', after: '352' });
    expect(errors).toEqual([]);
  });

  // dist/ served as it is, so the page can drive the dispatch loop with a small plan: many dispatches at n = 12.
  describe('the dispatch loop on the real shader, three dispatches in flight', () => {
    let files: Served;
    beforeAll(async () => {
      files = await serveStatic(ROOT);
    });
    afterAll(() => files?.close());

    it('is exact in dispatches of up to 256 units taken by 64 invocations, stack shared or private, lookahead 0, 2 (the default) or 3, with and without finer tails, and aborts with dispatches queued', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      pages.push(page);
      errors = watchErrors(page);
      await page.goto(new URL('dist/index.js', files.url).href); // any page of this origin (a secure context)
      // Dispatches of 256 units: each of the 64 invocations takes 4.
      const outcome = await page.evaluate(
        async ({ runUrl, plan }) => {
          // A plain import(), out of reach of vitest's rewriting of this file's imports.
          const load = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;
          const { countOnDevice } = (await load(runUrl)) as typeof import('../../dist/search/webgpu/webgpu-run.js');
          const gpu = (navigator as unknown as { gpu: { requestAdapter(): Promise<{ requestDevice(): Promise<unknown> }> } }).gpu;
          const limits = { maxComputeWorkgroupsPerDimension: 65_535, maxStorageBufferBindingSize: 128 << 20 };
          const device = (await (await gpu.requestAdapter()).requestDevice()) as Parameters<typeof countOnDevice>[1];
          const sizes: number[] = [];
          const r = await countOnDevice(12, device, limits, { plan, onDispatch: (d) => sizes.push(d.units) });
          const own = await countOnDevice(12, device, limits, { plan, layout: { stackPlace: 'private' } });
          const looked = await countOnDevice(12, device, limits, { plan, layout: { lookahead: 3 } });
          const plain = await countOnDevice(12, device, limits, { plan, layout: { lookahead: 0 } });
          // Dispatches ending in units a row finer (the engine's own plans do): 64 of each 256 units' worth.
          const tailed = await countOnDevice(12, device, limits, { plan: { ...plan, tailPerInvocation: 1 } });
          const controller = new AbortController();
          const aborted = await countOnDevice(12, device, limits, {
            plan,
            signal: controller.signal,
            onDispatch: () => controller.abort(),
          }).then(
            () => 'resolved',
            (e: Error) => e.name,
          );
          device.destroy();
          return {
            total: String(r.total),
            unique: String(r.unique),
            sizes,
            aborted,
            privateTotal: String(own.total),
            lookaheadTotal: String(looked.total),
            plainTotal: String(plain.total),
            tailedTotal: String(tailed.total),
          };
        },
        { runUrl: '/dist/search/webgpu/webgpu-run.js', plan: smallPlan({ unitsPerDispatch: 256, maxUnitsPerDispatch: 256 }) },
      );
      expect(outcome).toMatchObject({
        total: String(TOTAL[12]),
        unique: String(UNIQUE[12]),
        aborted: 'AbortError',
        privateTotal: String(TOTAL[12]),
        lookaheadTotal: String(TOTAL[12]),
        plainTotal: String(TOTAL[12]),
        tailedTotal: String(TOTAL[12]),
      });
      expect(outcome.sizes.length).toBeGreaterThan(10);
      // Whole branches only: a dispatch stops short of 256 units only where the next branch (at most 32) would not fit.
      expect(outcome.sizes.slice(0, -1).every((units) => units > 256 - 32 && units <= 256)).toBe(true);
      expect(errors.filter((e) => !e.includes('/favicon.ico'))).toEqual([]); // the plain file server has no icon
    });
  });

  it('rejects with a clear Error where navigator.gpu is missing, without falling back', async () => {
    const page = await open('delete Navigator.prototype.gpu;');
    const outcome = await page.evaluate(async () => {
      const hasGpu = 'gpu' in navigator;
      const counted = await nqueens.count(8, { engine: 'webgpu' }).then(
        (r) => `resolved with ${r.engine}`,
        (e: Error) => `${e.name}: ${e.message}`,
      );
      const sync = (() => {
        try {
          nqueens.countSync(8, { engine: 'webgpu' as never });
          return 'returned';
        } catch (e) {
          return (e as Error).name;
        }
      })();
      return { hasGpu, counted, sync, auto: (await nqueens.count(8)).engine };
    });
    expect(outcome.hasGpu).toBe(false);
    expect(outcome.counted).toMatch(/^Error: engine 'webgpu' is unavailable here: navigator.gpu is missing/);
    expect(outcome.sync).toBe('TypeError');
    expect(outcome.auto).toBe('wasm');
    expect(errors).toEqual([]);
  });
});
