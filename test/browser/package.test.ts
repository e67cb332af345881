// The package in headless Chromium, loaded through the demo page's
// production build: wasm and TypeScript engines, Web Workers, abort, CSP.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countCompletionsSync, solutions, toBoard } from '../../dist/index.js';
import { TOTAL, UNIQUE } from '../oeis.js';
import {
  HAVE_CHROMIUM,
  MISSING_MESSAGE,
  RECORD_WORKERS,
  REQUIRED,
  buildAndPreview,
  devServer,
  launchChromium,
  watchErrors,
  type PlainResult,
  type Served,
  type WorkerLog,
} from './harness.js';

const WEB = fileURLToPath(new URL('../../web', import.meta.url));
const NO_WASM = 'delete globalThis.WebAssembly;';

it.runIf(REQUIRED && !HAVE_CHROMIUM)('Chromium is installed (NQUEENS_REQUIRE_BROWSER=1)', () => {
  throw new Error(MISSING_MESSAGE);
});

function countIn(page: Page, n: number, options: { engine?: string; threads?: number } = {}): Promise<PlainResult> {
  return page.evaluate(
    async ([n, options]) => {
      const r = await nqueens.count(n, options as Parameters<typeof nqueens.count>[1]);
      return { ...r, total: String(r.total), unique: String(r.unique) };
    },
    [n, options] as const,
  );
}

const exact = (n: number) => ({ n, total: String(TOTAL[n]), unique: String(UNIQUE[n]) });
/** The counts as the demo page shows them: grouped by thousands. */
const exactText = (n: number) => ({ total: TOTAL[n].toLocaleString('en-US'), unique: UNIQUE[n].toLocaleString('en-US') });

describe.skipIf(!HAVE_CHROMIUM)('in Chromium', () => {
  let browser: Browser;
  let served: Served;
  let errors: string[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    [browser, served] = await Promise.all([launchChromium(), buildAndPreview({ root: WEB, configFile: false })]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  /** A fresh context (own storage, own init scripts) on the demo page. */
  async function open(url: string, ...initScripts: string[]): Promise<Page> {
    const context = await browser.newContext();
    for (const script of initScripts) await context.addInitScript(script);
    const page = await context.newPage();
    pages.push(page);
    errors = watchErrors(page);
    await page.goto(url);
    await page.waitForFunction(() => 'nqueens' in globalThis);
    return page;
  }

  describe('with WebAssembly', () => {
    it.each([1, 4, 8, 10, 12])('count(%i, { engine: wasm }) is exact', async (n) => {
      const page = await open(served.url);
      expect(await countIn(page, n, { engine: 'wasm', threads: 1 })).toMatchObject({ ...exact(n), engine: 'wasm' });
      expect(errors).toEqual([]);
    });

    it("'auto' picks wasm; countSync, solutions and toBoard work", async () => {
      const page = await open(served.url);
      expect(await countIn(page, 11)).toMatchObject({ ...exact(11), engine: 'wasm', threads: 1 });
      const other = await page.evaluate(() => {
        const sync = nqueens.countSync(9, { engine: 'wasm' });
        // The join's SIMD build (over 4 KB) compiles synchronously on the page's thread too (Chrome 114+).
        const join = nqueens.countSync(12, { engine: 'wasm', algorithm: 'join' });
        return {
          sync: [String(sync.total), String(sync.unique), sync.engine],
          join: [String(join.total), join.algorithm, join.engine],
          first8: [...nqueens.solutions(8, { limit: 2, engine: 'wasm' })],
          boards4: [...nqueens.solutions(4)].map(nqueens.toBoard),
        };
      });
      expect(other).toEqual({
        sync: ['352', '46', 'wasm'],
        join: ['14200', 'join', 'wasm'],
        first8: [
          [0, 4, 7, 5, 2, 6, 1, 3],
          [0, 5, 7, 2, 6, 3, 1, 4],
        ],
        boards4: [
          ['.Q..', '...Q', 'Q...', '..Q.'],
          ['..Q.', 'Q...', '...Q', '.Q..'],
        ],
      });
      expect(errors).toEqual([]);
    });
  });

  describe('Web Workers', () => {
    it.each(['wasm', 'js'])('count(13, { threads: 2, engine: %s }) runs on two module workers and is exact', async (engine) => {
      const page = await open(served.url, RECORD_WORKERS);
      const { result, last, completions, workers } = await page.evaluate(async (engine) => {
        let last: { finished: number; subproblems: number; fraction: number; total: string } | undefined;
        const r = await nqueens.count(13, {
          engine: engine as 'wasm' | 'js',
          threads: 2,
          onProgress: (p) => (last = { finished: p.finished, subproblems: p.subproblems, fraction: p.fraction, total: String(p.total) }),
        });
        // The page's thread counts count(13)'s units while the workers load, and may count them all: a completion
        // count's units are the workers' alone, so they count, whatever the machine's speed.
        const c = await nqueens.countCompletions(12, [[0, 1]], { engine: engine as 'wasm' | 'js', threads: 2 });
        const workers = (globalThis as unknown as { workerLog: WorkerLog }).workerLog;
        const completions = { total: String(c.total), engine: c.engine, threads: c.threads };
        return { result: { ...r, total: String(r.total), unique: String(r.unique) }, last, completions, workers };
      }, engine);
      expect(result).toMatchObject({ ...exact(13), engine, threads: 2 });
      expect(last).toMatchObject({ fraction: 1, total: String(TOTAL[13]) });
      expect(completions).toEqual({ total: String(countCompletionsSync(12, [[0, 1]]).total), engine, threads: 2 });
      expect(workers).toHaveLength(4); // two a count: a page keeps no idle workers
      for (const w of workers) {
        expect(w).toMatchObject({ type: 'module', terminated: true });
        expect(new URL(w.url).origin).toBe(new URL(served.url).origin);
      }
      expect(errors).toEqual([]);
    });

    it('aborting count(18, { threads: 2 }) once a unit is in rejects with an AbortError and stops the workers', async () => {
      const page = await open(served.url, RECORD_WORKERS);
      const outcome = await page.evaluate(async () => {
        const controller = new AbortController();
        let finished = 0;
        // Aborted from the first report of a finished unit: the workers are counting, whatever the machine's speed.
        const onProgress = (p: { finished: number }): void => {
          finished = p.finished;
          if (finished > 0) controller.abort();
        };
        const pending = nqueens.count(18, { threads: 2, signal: controller.signal, onProgress });
        try {
          await pending;
          return { settled: 'resolved' };
        } catch (error) {
          const e = error as Error;
          return {
            settled: 'rejected',
            name: e.name,
            isDOMException: e instanceof DOMException,
            finished,
            workers: (globalThis as unknown as { workerLog: WorkerLog }).workerLog,
          };
        }
      });
      expect(outcome).toMatchObject({ settled: 'rejected', name: 'AbortError', isDOMException: true });
      expect(outcome.finished).toBeGreaterThan(0);
      expect(outcome.workers).toHaveLength(2);
      expect(outcome.workers!.every((w) => w.terminated)).toBe(true);
      expect(errors).toEqual([]);
    });
  });

  it("takes an AbortSignal of another realm (an iframe's): it aborts a count on workers, and one never aborted lets it finish", async () => {
    const page = await open(served.url, RECORD_WORKERS);
    const outcome = await page.evaluate(async () => {
      const frame = document.createElement('iframe');
      document.body.append(frame);
      const { AbortController: FrameController } = frame.contentWindow as unknown as typeof globalThis;
      const settle = (running: Promise<{ total: bigint }>) =>
        running.then(
          (r) => String(r.total),
          (e: Error) => `${e.name}: ${e.message}`,
        );
      const untouched = await settle(nqueens.count(10, { signal: new FrameController().signal }));
      const controller = new FrameController();
      // Aborted from the first report of a finished unit: its two workers are counting.
      const onProgress = (p: { finished: number }) => p.finished > 0 && controller.abort();
      const aborted = await settle(nqueens.count(18, { threads: 2, signal: controller.signal, onProgress }));
      frame.remove();
      return { untouched, aborted, workers: (globalThis as unknown as { workerLog: WorkerLog }).workerLog };
    });
    // Before: "TypeError: options.signal must be an AbortSignal; got an object" for both (instanceof is per realm).
    expect(outcome).toMatchObject({ untouched: String(TOTAL[10]), aborted: 'AbortError: signal is aborted without reason' });
    expect(outcome.workers).toHaveLength(2);
    expect(outcome.workers.every((w) => w.terminated)).toBe(true);
    expect(errors).toEqual([]);
  });

  describe('without WebAssembly', () => {
    it("'auto' falls back to the TypeScript kernel, on this thread and on workers", async () => {
      const page = await open(served.url, NO_WASM);
      expect(await page.evaluate(() => typeof globalThis.WebAssembly)).toBe('undefined');
      expect(await countIn(page, 12)).toMatchObject({ ...exact(12), engine: 'js', threads: 1 });
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), engine: 'js', threads: 2 });
      expect(await page.evaluate(() => [...nqueens.solutions(8, { limit: 1 })])).toEqual([[0, 4, 7, 5, 2, 6, 1, 3]]);
      expect(errors).toEqual([]);
    });

    it("engine 'wasm' rejects and says why", async () => {
      const page = await open(served.url, NO_WASM);
      const message = await page.evaluate(() =>
        nqueens.count(8, { engine: 'wasm' }).then(
          () => 'resolved',
          (e: Error) => e.message,
        ),
      );
      expect(message).toMatch(/engine 'wasm' is unavailable here \(WebAssembly is not available\)/);
    });
  });

  describe('Content-Security-Policy', () => {
    const policy = (script: string) => ({
      preview: { headers: { 'Content-Security-Policy': `default-src 'self'; script-src ${script}; worker-src 'self'` } },
    });
    let strict: Served;
    let wasmAllowed: Served;
    beforeAll(async () => {
      strict = await buildAndPreview({ root: WEB, configFile: false, ...policy("'self'") });
      wasmAllowed = await buildAndPreview({ root: WEB, configFile: false, ...policy("'self' 'wasm-unsafe-eval'") });
    });
    afterAll(async () => {
      await strict?.close();
      await wasmAllowed?.close();
    });

    it("with 'wasm-unsafe-eval' the wasm kernel runs, on workers too", async () => {
      const page = await open(wasmAllowed.url);
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), engine: 'wasm', threads: 2 });
      expect(errors).toEqual([]);
    });

    it("without it, 'auto' falls back to the TypeScript kernel", async () => {
      const page = await open(strict.url);
      expect(await countIn(page, 12)).toMatchObject({ ...exact(12), engine: 'js' });
      expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), engine: 'js', threads: 2 });
      const compile = await page.evaluate(() => {
        try {
          new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
          return 'compiled';
        } catch (error) {
          return (error as Error).name;
        }
      });
      expect(compile).toBe('CompileError'); // the policy is enforced
      expect(errors).toEqual([]);
    });
  });

  describe('the demo page', () => {
    it('works under the dev server too (npm run demo)', async () => {
      const dev = await devServer({ root: WEB, configFile: false });
      try {
        const page = await open(dev.url);
        expect(await countIn(page, 13, { threads: 2 })).toMatchObject({ ...exact(13), engine: 'wasm', threads: 2 });
        expect(errors).toEqual([]);
      } finally {
        await dev.close();
      }
    });

    /** The demo page once it has counted N = 8 with `engine` on `threads` threads (or refused to). */
    async function countEight(engine: string, threads: string): Promise<Page> {
      const page = await open(served.url);
      await page.fill('#n', '8');
      await page.selectOption('#engine', engine);
      await page.selectOption('#threads', threads);
      await page.click('#count');
      await page.waitForFunction(() => /^(Done|RangeError)/.test(document.getElementById('status')!.textContent!));
      return page;
    }

    it('the reference engine counts on this thread whatever Threads says (it has no workers)', async () => {
      const page = await countEight('reference', '2');
      const shown = await page.evaluate(() => ({
        status: document.getElementById('status')!.textContent,
        total: document.getElementById('total')!.textContent,
        engine: document.getElementById('ran-engine')!.textContent,
        threads: document.getElementById('ran-threads')!.textContent,
      }));
      expect(shown).toEqual({ status: 'Done: N = 8, by the search.', total: '92', engine: 'reference', threads: '1' });
      expect(errors).toEqual([]);
    });

    it('counts, shows the result and draws the first boards', async () => {
      const page = await countEight('wasm', '1');
      const shown = await page.evaluate(() => ({
        total: document.getElementById('total')!.textContent,
        unique: document.getElementById('unique')!.textContent,
        engine: document.getElementById('ran-engine')!.textContent,
        threads: document.getElementById('ran-threads')!.textContent,
        progress: (document.getElementById('progress') as HTMLProgressElement).value,
        boards: [...document.querySelectorAll('#boards .board')].map((b) => b.getAttribute('aria-label')),
      }));
      expect(shown).toMatchObject({ total: '92', unique: '12', engine: 'wasm', threads: '1', progress: 1 });
      expect(shown.boards).toHaveLength(3);
      expect(shown.boards[0]).toBe(toBoard([0, 4, 7, 5, 2, 6, 1, 3]).join('\n'));
      expect(errors).toEqual([]);
    });

    // The Threads list offers 1 to navigator.hardwareConcurrency: on a one-core machine (or under taskset -c 0)
    // it has no '2', and selectOption('#threads', '2') waited out its 30 s. The page is told of 2 cores here.
    const TWO_CORES = "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 2 });";

    it('Cancel stops a long count', async () => {
      const page = await open(served.url, TWO_CORES);
      await page.fill('#n', '18');
      await page.selectOption('#threads', '2');
      await page.click('#count');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Counting'));
      await page.waitForTimeout(300);
      await page.click('#cancel');
      // No cap on how soon: a busy machine is no failure (the engines' abort is checked without clocks).
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'Cancelled.');
      expect(await page.isEnabled('#count')).toBe(true);
      expect(errors).toEqual([]);
    });

    it('the algorithm selector: the join shows its unique count after the last unit, and says which algorithm ran', async () => {
      const page = await open(served.url, TWO_CORES);
      const shown = () =>
        page.evaluate(() => ({
          total: document.getElementById('total')!.textContent,
          unique: document.getElementById('unique')!.textContent,
          algorithm: document.getElementById('ran-algorithm')!.textContent,
          status: document.getElementById('status')!.textContent,
        }));
      for (const [choice, n, ran] of [
        ['join', '13', 'join'],
        ['search', '13', 'search'],
        ['auto', '16', 'join'],
        ['auto', '12', 'search'],
      ] as const) {
        await page.fill('#n', n);
        await page.selectOption('#algorithm', choice);
        await page.selectOption('#threads', '2');
        await page.click('#count');
        await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Done'), undefined, {
          timeout: 30_000,
        });
        expect(await shown()).toEqual({ ...exactText(Number(n)), algorithm: ran, status: `Done: N = ${n}, by the ${ran}.` });
      }
      // During a join count the unique count is not 0: it comes after the last unit.
      await page.fill('#n', '18');
      await page.selectOption('#algorithm', 'join');
      await page.click('#count');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Counting N = 18 (join)'));
      expect((await shown()).unique).toBe('after the last unit');
      await page.click('#cancel');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'Cancelled.');
      expect((await shown()).unique).toBe('–');
      expect(errors).toEqual([]);
    });

    // Only results: what a count did not finish is marked, and what did not run is not named.
    const panel = (page: Page) =>
      page.evaluate(() =>
        Object.fromEntries(
          ['total', 'unique', 'ran-engine', 'ran-algorithm', 'ran-threads', 'time', 'rate', 'status'].map((id) => [
            id,
            document.getElementById(id)!.textContent,
          ]),
        ),
      );

    it('Cancel marks the sums so far as partial and names no algorithm, engine or threads', async () => {
      const page = await open(served.url, TWO_CORES);
      await page.fill('#n', '18');
      await page.selectOption('#algorithm', 'join');
      await page.selectOption('#threads', '2');
      await page.click('#count');
      await page.waitForFunction(() => /^[\d,]+$/.test(document.getElementById('total')!.textContent!));
      expect((await panel(page))['ran-algorithm']).toBe('–');
      await page.click('#cancel');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'Cancelled.');
      const shown = await panel(page);
      expect(shown.total).toMatch(/^[\d,]+ \(partial\)$/);
      expect(shown).toMatchObject({ unique: '–', 'ran-engine': '–', 'ran-algorithm': '–', 'ran-threads': '–', time: '–', rate: '–' });
      expect(errors).toEqual([]);
    });

    it('a failed count (WebGPU missing) shows the error and no algorithm', async () => {
      const page = await open(served.url, "Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });");
      await page.fill('#n', '12');
      await page.selectOption('#engine', 'webgpu');
      await page.click('#count');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Error'));
      expect(await panel(page)).toMatchObject({ total: '–', unique: '–', 'ran-algorithm': '–', 'ran-engine': '–', rate: '–' });
    });

    // The page shows formatRate's words (test/rate.test.ts checks its figures from fixed times): here, only that
    // the panel uses it, whatever this machine's speed makes of the figure.
    it.each([1, 10])('the rate of N = %i is shown as the CLI shows it', async (n) => {
      const page = await open(served.url);
      await page.fill('#n', String(n));
      await page.selectOption('#threads', '1');
      await page.click('#count');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Done'));
      const rate = (await panel(page)).rate!;
      expect(rate).toMatch(/^\d+(?:\.\d+)? (?:[kMG] )?solutions\/s$/);
      expect(errors).toEqual([]);
    });

    it.each([1, 3])('with %i cores the Threads list offers 1 to that many', async (cores) => {
      const page = await open(served.url, `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${cores} });`);
      const offered = await page.locator('#threads option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(offered).toEqual(['', ...Array.from({ length: cores }, (_, i) => String(i + 1))]);
    });

    it('the viewer disables First and Previous on the first solution, Next on the last', async () => {
      const page = await open(served.url);
      const enabled = () =>
        page.evaluate(() =>
          ['viewer-first', 'viewer-prev', 'viewer-next'].map((id) => !(document.getElementById(id) as HTMLButtonElement).disabled),
        );
      await page.fill('#viewer-n', '4');
      await page.dispatchEvent('#viewer-n', 'change');
      expect(await enabled()).toEqual([false, false, true]);
      await page.click('#viewer-next');
      expect(await text(page, '#viewer-status')).toBe('Solution 2 of N = 4: [2, 0, 3, 1] (the last)');
      expect(await enabled()).toEqual([true, true, false]);
      await page.fill('#viewer-n', '3');
      await page.dispatchEvent('#viewer-n', 'change');
      expect(await enabled()).toEqual([false, false, false]);
      expect(await text(page, '#viewer-status')).toBe('N = 3 has no solutions.');
      expect(errors).toEqual([]);
    });

    it('Complete a board: N = 20 and Clear start no count; a placed queen does', async () => {
      const page = await open(served.url);
      const idle =
        'No queens placed: click squares to count the solutions that contain them (for every solution of N = 20, use Count above).';
      await page.fill('#complete-n', '20');
      expect([await text(page, '#complete-count'), await text(page, '#complete-status')]).toEqual(['–', idle]);
      await page.click('#complete-board span[data-row="0"][data-col="0"]');
      expect(await text(page, '#complete-status')).toMatch(/^Counting/);
      await page.click('#complete-clear');
      expect([await text(page, '#complete-count'), await text(page, '#complete-status')]).toEqual(['–', idle]);
      expect(errors).toEqual([]);
    });

    /** The demo page with N = 8 counted: its results and boards up. */
    async function afterCountingEight(): Promise<Page> {
      const page = await open(served.url);
      await page.fill('#n', '8');
      await page.click('#count');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Done'));
      return page;
    }

    it('an out-of-range N clears the previous results and says what is allowed', async () => {
      const page = await afterCountingEight();
      await page.fill('#n', '40');
      expect(await page.locator('#status').innerText()).toBe('N must be a whole number from 1 to 32.');
      expect(await page.locator('#total').innerText()).toBe('–');
      expect(await page.locator('#boards .board').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a count refused before it starts (the join at N = 25) clears the earlier results, and the next N is welcomed', async () => {
      const page = await afterCountingEight();
      await page.fill('#n', '25');
      await page.selectOption('#algorithm', 'join');
      await page.click('#count');
      expect(await page.locator('#status').innerText()).toMatch(/^RangeError: join: n = 25/);
      // Before: the three boards of N = 8 stayed up, and the error stayed on the status line for a valid N.
      expect([await page.locator('#total').innerText(), await page.locator('#boards .board').count()]).toEqual(['–', 0]);
      await page.fill('#n', '10');
      expect(await page.locator('#status').innerText()).toBe('Pick N and press Count.');
      expect(errors).toEqual([]);
    });

    it.each(['2.5', '0', '40', ''])(
      'the viewer and the completion board at N = "%s": no error, nothing of the old N left, what is allowed said',
      async (bad) => {
        const page = await open(served.url);
        await page.click('#complete-board span[data-row="0"][data-col="0"]');
        await page.waitForFunction(() => /placed/.test(document.getElementById('complete-status')!.textContent!));
        for (const id of ['#viewer-n', '#complete-n']) {
          await page.fill(id, bad);
          await page.dispatchEvent(id, 'change');
        }
        // Before: an uncaught RangeError or TypeError at 2.5, and the previous boards and a live Next at the others.
        expect(await text(page, '#viewer-status')).toBe('Pick N, a whole number from 1 to 32.');
        expect(await page.locator('#viewer-board .board').count()).toBe(0);
        expect(
          await page.evaluate(() =>
            ['viewer-first', 'viewer-prev', 'viewer-next'].map((id) => (document.getElementById(id) as HTMLButtonElement).disabled),
          ),
        ).toEqual([true, true, true]);
        expect([await text(page, '#complete-count'), await text(page, '#complete-status')]).toEqual([
          '–',
          'Pick N, a whole number from 1 to 32.',
        ]);
        expect(await page.locator('#complete-board .board').count()).toBe(0);
        expect(errors).toEqual([]);
      },
    );

    // Beyond counting: the benchmark, the board viewer and the completion board.
    const text = (page: Page, selector: string) => page.locator(selector).innerText();

    it('the benchmark runs every engine, draws the chart, fills the table and offers the JSON', async () => {
      const page = await open(served.url);
      await page.fill('#bench-from', '6');
      await page.fill('#bench-to', '9');
      await page.fill('#bench-rounds', '1');
      const offered = await page.locator('#bench-engines input').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      const engines = await page
        .locator('#bench-engines input:checked')
        .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const gpu = await page.evaluate(() => 'gpu' in navigator);
      const ticked = [
        'wasm-simd',
        'wasm-baseline',
        'js',
        'reference',
        'join-wasm',
        'join-js',
        ...Array.from({ length: cores }, (_, i) => `workers-${i + 1}`),
      ];
      // WebGPU is offered where the browser has it, unticked (an adapter may still be missing).
      expect(offered).toEqual([...ticked.slice(0, 6), ...(gpu ? ['webgpu'] : []), ...ticked.slice(6)]);
      expect(engines).toEqual(ticked);
      await page.click('#bench-run');
      await page.waitForFunction(() => document.getElementById('bench-status')!.textContent!.startsWith('Done'), undefined, {
        timeout: 60_000,
      });

      // The chart: one line per engine, a point per n, on a log axis with power-of-ten labels.
      expect(await page.locator('#bench-chart svg').count()).toBe(1);
      expect(await page.locator('#bench-chart g.series').count()).toBe(engines.length);
      expect(await page.locator('#bench-chart g.series circle').count()).toBe(engines.length * 4);
      expect(
        await page.locator('#bench-chart g.series path').evaluateAll((ps) => ps.map((p) => p.getAttribute('d')!.split('L').length)),
      ).toEqual(engines.map(() => 4));
      expect(await page.locator('#bench-chart line.grid').count()).toBeGreaterThanOrEqual(2);

      // The table: totals agree with OEIS for every engine.
      for (const n of [6, 7, 8, 9]) {
        expect(await text(page, `#bench-table tr.totals td[data-n="${n}"]`)).toBe(`${TOTAL[n]} (${UNIQUE[n]})`);
        const totals = await page
          .locator(`#bench-table td[data-n="${n}"][data-engine]`)
          .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-total')));
        expect(totals).toEqual(engines.map(() => String(TOTAL[n])));
      }

      // The JSON download, and the browser details.
      const href = await page.getAttribute('#bench-download', 'href');
      expect(href).toMatch(/^data:application\/json/);
      const json = JSON.parse(decodeURIComponent(href!.slice(href!.indexOf(',') + 1)));
      expect(json.rows).toHaveLength(engines.length * 4);
      expect(json.environment).toMatchObject({ hardwareConcurrency: cores, wasmSimd: true });
      expect(json.rows.every((r: { medianMs: number }) => r.medianMs >= 0)).toBe(true);
      expect(await text(page, '#bench-env')).toContain('userAgent');
      expect(errors).toEqual([]);
    });

    it('the viewer pages through all solutions, and the fundamental ones with their 8 images', async () => {
      const page = await open(served.url);
      const board = () => page.getAttribute('#viewer-board .board', 'aria-label');
      const all8 = [...solutions(8, { limit: 3 })];
      await page.waitForFunction(() => document.getElementById('viewer-status')!.textContent!.startsWith('Solution 1'));
      expect(await board()).toBe(toBoard(all8[0]).join('\n'));
      await page.click('#viewer-next');
      expect(await board()).toBe(toBoard(all8[1]).join('\n'));
      await page.click('#viewer-next');
      expect(await board()).toBe(toBoard(all8[2]).join('\n'));
      await page.click('#viewer-prev');
      expect(await board()).toBe(toBoard(all8[1]).join('\n'));
      expect(await text(page, '#viewer-status')).toContain('Solution 2 of N = 8');

      await page.selectOption('#viewer-mode', 'fundamental');
      const unique8 = [...solutions(8, { unique: true, limit: 2 })];
      expect(await board()).toBe(toBoard(unique8[0]).join('\n'));
      expect(await page.locator('#viewer-images .board').count()).toBe(8);
      await page.click('#viewer-next');
      expect(await board()).toBe(toBoard(unique8[1]).join('\n'));

      // A large board pages at once.
      await page.fill('#viewer-n', '24');
      await page.dispatchEvent('#viewer-n', 'change');
      await page.click('#viewer-next');
      expect(await board()).toBe(toBoard([...solutions(24, { unique: true, limit: 2 })][1]).join('\n'));
      expect(errors).toEqual([]);
    });

    it('clicking queens onto the board updates the number of completions', async () => {
      const page = await open(served.url);
      const square = (r: number, c: number) => `#complete-board span[data-row="${r}"][data-col="${c}"]`;
      const waitFor = (value: string) =>
        page.waitForFunction((v) => document.getElementById('complete-count')!.textContent === v, value, { timeout: 20_000 });
      await waitFor('92');
      await page.click(square(0, 0));
      await waitFor('4');
      expect(await page.locator(square(0, 0)).innerText()).toBe('♛');
      expect(await text(page, '#complete-status')).toMatch(/^1 queen placed: 4 solutions contain it \(/);
      await page.click(square(3, 4));
      await waitFor(
        String(
          countCompletionsSync(8, [
            [0, 0],
            [3, 4],
          ]).total,
        ),
      );
      await page.click(square(3, 4));
      await waitFor('4');
      // An attacking queen: both queens are named in words (no raw RangeError) and marked on the board.
      await page.click(square(1, 1));
      await waitFor('0');
      expect(await text(page, '#complete-status')).toMatch(/^The queens \[0, 0\] and \[1, 1\] attack each other \(they share a diagonal\)/);
      expect(await page.locator('#complete-board span.attacking').count()).toBe(2);
      expect(await page.locator(square(1, 1)).getAttribute('class')).toContain('attacking');
      await page.click('#complete-clear');
      await waitFor('92');
      // A bigger board: each click cancels the count before it.
      await page.fill('#complete-n', '12');
      await waitFor('14,200');
      await page.click(square(0, 5));
      await page.click(square(4, 2));
      await page.click(square(11, 8));
      await waitFor(
        new Intl.NumberFormat('en-US').format(
          countCompletionsSync(12, [
            [0, 5],
            [4, 2],
            [11, 8],
          ]).total,
        ),
      );
      expect(errors).toEqual([]);
    });
  });
});
