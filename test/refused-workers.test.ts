// A page that refuses workers: its CSP (worker-src 'none': the worker errors
// before its first message), its Trusted Types (the Worker constructor
// throws), or no Worker at all. Workers start here as a page's do, from a
// stand-in globalThis.Worker (startWorkersAsPage); counts then go on on the
// calling thread, exact, with progress and abort, and the refusal is kept:
// later counts start no worker. A worker that fails once it ran still fails
// its count. The same in Chromium: test/browser/unbundled.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count, countCompletions, countCompletionsSync, type Progress } from '../dist/index.js';
import { runMethod } from '../dist/run/runner.js';
import { closeIdleWorkers } from '../dist/run/pool.js';
import { startWorkersAsPage, workersAlive, workersRefused } from '../dist/run/spawn.js';
import { workersToPrestart } from '../dist/run/thread-plan.js';
import { methodForCount } from '../dist/run/methods.js';
import { range, TOTAL, UNIQUE } from './oeis.js';

type Handler = ((event: unknown) => void) | null;

/** A Web Worker as the pool uses it: its handlers, postMessage and terminate; `made` counts those constructed. */
class StandIn {
  static made = 0;
  static live = new Set<StandIn>();
  onmessage: Handler = null;
  onmessageerror: Handler = null;
  #onerror: Handler = null;
  constructor() {
    StandIn.made++;
    StandIn.live.add(this);
  }
  set onerror(handler: Handler) {
    this.#onerror = handler;
  }
  /** An error event: with no message, that of a script that did not load, as a CSP's refusal fires it. */
  error(message = ''): void {
    this.#onerror?.({ message, preventDefault: () => undefined });
  }
  postMessage(): void {}
  terminate(): void {
    StandIn.live.delete(this);
  }
}

/** Trusted Types without a policy for its URL: the constructor throws. */
class Throws extends StandIn {
  constructor() {
    super();
    throw new TypeError("Failed to construct 'Worker': This document requires 'TrustedScriptURL' assignment.");
  }
}

/** A CSP's worker-src 'none': constructed, then an error event before any message, once the pool listens. */
class Unloaded extends StandIn {
  override set onerror(handler: Handler) {
    super.onerror = handler;
    queueMicrotask(() => this.error());
  }
}

/** The same refusal, fired when the test says (fireAll): after the calling thread counted some units. */
class UnloadedLater extends StandIn {
  static fireAll(): void {
    for (const w of [...StandIn.live]) w.error();
  }
}

/** A worker that ran: it says 'online', then fails at its 'init' (a crash, out of memory mid-count). */
class FailsOnceRunning extends StandIn {
  override set onerror(handler: Handler) {
    super.onerror = handler; // set after onmessage, once the pool listens
    queueMicrotask(() => this.onmessage?.({ data: { type: 'online' } }));
  }
  override postMessage(): void {
    queueMicrotask(() => this.error('Uncaught RangeError: Out of memory'));
  }
}

const scope = globalThis as { Worker?: unknown };

function refuseWith(worker: typeof StandIn | undefined): void {
  startWorkersAsPage(true); // and forget the refusal of the test before
  if (worker) scope.Worker = worker;
  else delete scope.Worker; // as in Node 20: no Worker at all
}

beforeEach(() => {
  StandIn.made = 0;
  StandIn.live.clear();
});
afterEach(async () => {
  startWorkersAsPage(false);
  delete scope.Worker;
  await closeIdleWorkers();
});

const REFUSALS = [
  ['the Worker constructor throws (Trusted Types)', Throws],
  ["the worker errors before its first message (a CSP's worker-src 'none')", Unloaded],
  ['there is no Worker', undefined],
] as const;

describe.each(REFUSALS)('where %s', (_, refusing) => {
  it.each(range(1, 12))('count(%i, { threads: 2 }) counts on the calling thread, exact', async (n) => {
    refuseWith(refusing);
    const r = await count(n, { threads: 2 });
    expect(r).toMatchObject({ n, total: TOTAL[n], unique: UNIQUE[n], engine: 'wasm', threads: 1 });
    expect(workersAlive()).toBe(0);
  });

  it.each(range(1, 12))('n = %i, a method that does not help while workers start: the calling thread counts it all, exact', async (n) => {
    refuseWith(refusing);
    const r = await runMethod({ ...methodForCount(n, 'search', 1, 0), helps: false }, { engine: 'js', threads: 2 });
    expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], engine: 'js', threads: 1 });
  });

  it('countCompletions with two workers asked for (its units do not help either): exact on the calling thread', async () => {
    refuseWith(refusing);
    const r = await countCompletions(12, [[0, 1]], { threads: 2 });
    expect(r).toMatchObject({ total: countCompletionsSync(12, [[0, 1]]).total, threads: 1 });
  });

  it('the refusal is kept: the next counts start no worker, whatever threads they ask for', async () => {
    refuseWith(refusing);
    expect(workersRefused()).toBe(false);
    await count(10, { threads: 2 });
    expect(workersRefused()).toBe(true);
    const made = StandIn.made;
    expect(await count(11, { threads: 4 })).toMatchObject({ total: TOTAL[11], threads: 1 });
    expect(await countCompletions(12, [[0, 1]], { threads: 2 })).toMatchObject({ threads: 1 });
    expect(workersToPrestart(16, 2, 2)).toBe(0);
    expect(StandIn.made).toBe(made);
  });
});

describe('on a page that refuses workers', () => {
  it.each([undefined, 1])('count(15, { threads: %s }) counts on the calling thread, exact', async (threads) => {
    refuseWith(Unloaded);
    const r = await count(15, { threads });
    expect(r).toMatchObject({ total: TOTAL[15], unique: UNIQUE[15], threads: 1 });
  });

  it("once a worker's constructor threw, the count tries no other: each try costs a page a console error", async () => {
    refuseWith(Throws);
    expect(await count(12, { threads: 4 })).toMatchObject({ total: TOTAL[12], threads: 1 });
    expect(StandIn.made).toBe(1);
  });

  it('a refusal that comes after the calling thread counted some units: it counts the rest, exact, progress monotone', async () => {
    refuseWith(UnloadedLater);
    const seen: Progress[] = [];
    const onProgress = (p: Progress): void => {
      seen.push(p);
      if (p.finished === 1) UnloadedLater.fireAll(); // the workers' errors, with one unit counted here
    };
    const r = await runMethod(methodForCount(12, 'search', 1, 0), { engine: 'wasm', threads: 2, progressIntervalMs: 0, onProgress });
    expect(r).toMatchObject({ total: TOTAL[12], unique: UNIQUE[12], threads: 1 });
    expect(seen.some((p) => p.finished === 1)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ fraction: 1, total: TOTAL[12] });
    for (let i = 1; i < seen.length; i++) expect(seen[i].fraction).toBeGreaterThanOrEqual(seen[i - 1].fraction);
    expect(workersRefused()).toBe(true);
  });

  it('a count there can be aborted: it rejects with the AbortError, and no worker is left', async () => {
    refuseWith(Throws);
    const controller = new AbortController();
    const onProgress = (p: Progress): void => {
      if (p.finished > 0) controller.abort();
    };
    const running = count(13, { threads: 2, signal: controller.signal, onProgress });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(workersAlive()).toBe(0);
  });

  it('a worker that fails once it ran (a crash, out of memory) still fails the count, and is no refusal', async () => {
    refuseWith(FailsOnceRunning);
    // countCompletions: its units are the workers' alone, so the calling thread counts none before the failure.
    const failing = countCompletions(12, [[0, 1]], { threads: 2 });
    await expect(failing).rejects.toMatchObject({
      code: 'ERR_NQUEENS_WORKER_FAILED',
      message: 'counting worker failed: Uncaught RangeError: Out of memory',
    });
    expect(workersRefused()).toBe(false);
    expect(workersAlive()).toBe(0);
  });
});
