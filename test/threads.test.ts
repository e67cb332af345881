// Worker threads, progress and abort through count().
import { availableParallelism } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTO_THREADS_MIN_N, count, countCompletions, countCompletionsSync, planUnits, type Progress, type Queen } from '../dist/index.js';
import { searchUnitCodec } from '../dist/search/unit-codec.js';
import { addResult, eachResult, noResults } from '../dist/run/unit-results.js';
import { runMethod } from '../dist/run/runner.js';
import { BESIDE_MAX_N, besideOneWorker, completionsThreads, releasesAwaited, releaseThreads, threadPlan } from '../dist/run/thread-plan.js';
import { closeIdleWorkers, IDLE_MS, idleWorkers, runOnWorkers } from '../dist/run/pool.js';
import { workersAlive, workersStarted } from '../dist/run/spawn.js';
import { wasmModule } from '../dist/engines/wasm-loader.js';
import { counterFor } from '../dist/run/counters.js';
import { countWhole, type Method, type PlannedMethod } from '../dist/contract/method.js';
import type { JoinUnit } from '../dist/join/join-plan.js';
import { TOTAL, UNIQUE } from './oeis.js';
import { methodForCount } from '../dist/run/methods.js';
import { searchPlan, unitsOf } from './plans.js';

const index = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe.each(['wasm', 'js'] as const)('threads with engine %s', (engine) => {
  it.each([
    [8, 1],
    [11, 2],
    [12, 3],
    [13, 2],
    [1, 2],
    [2, 4],
  ])('count(%i, { threads: %i }) is exact', async (n, threads) => {
    const r = await count(n, { engine, threads });
    expect(r).toMatchObject({ n, total: TOTAL[n], unique: UNIQUE[n], engine });
    // No more workers than units (n = 2 has none: it runs on this thread).
    expect(r.threads).toBe(Math.max(1, Math.min(threads, planUnits(n, { parts: threads }).units)));
  });
});

describe('default threads', () => {
  it(`uses every core from n = ${AUTO_THREADS_MIN_N}`, async () => {
    const r = await count(AUTO_THREADS_MIN_N);
    expect(r.total).toBe(TOTAL[AUTO_THREADS_MIN_N]);
    expect(r.threads).toBe(availableParallelism());
  });

  it.each([
    [300, 256],
    [3.5, 3],
    [0, 1],
    [Number.NaN, 1],
  ])('takes the cores the runtime says, %s, as %i threads (a whole number from 1 to MAX_THREADS)', (said, cores) => {
    // A child: the cores are read once a process. Before, a page saying 300 started 300 workers, 3.5 gave threads: 3.5.
    const environment = fileURLToPath(new URL('../dist/contract/environment.js', import.meta.url));
    const code = `import os from 'node:os'; os.availableParallelism = () => ${said};
      const { availableCoresNow } = await import(${JSON.stringify(environment)}); console.log(availableCoresNow());`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect([child.stderr, child.stdout.trim()]).toEqual(['', String(cores)]);
  });

  it('counts small boards on the calling thread', async () => {
    const r = await count(AUTO_THREADS_MIN_N - 1);
    expect(r).toMatchObject({ total: TOTAL[AUTO_THREADS_MIN_N - 1], threads: 1 });
  });

  // The cores given, so the rule is pinned on any machine (on one core, a worker and the calling thread both say 1).
  it.each([
    [15, undefined, 4, 4],
    [14, undefined, 4, 0],
    [15, undefined, 1, 1],
    [16, undefined, 2, 2],
    [0, undefined, 8, 0],
    [14, 3, 4, 3],
    [15, 1, 4, 1],
  ] as const)('a completion count with %i open rows, threads %s, on %i cores asks for %i threads', (open, threads, cores, wanted) => {
    expect(completionsThreads(open, threads, cores)).toBe(wanted);
  });

  it('countCompletions: a worker a core from 15 open rows, the calling thread at 14 (n = 17: 2 queens, then 3)', async () => {
    // At least one queen placed: countCompletions(n, []) is count(n), whose threads go by n (AUTO_THREADS_MIN_N).
    const two: Queen[] = [
      [0, 0],
      [16, 1],
    ];
    const open15 = await countCompletions(17, two);
    expect(open15).toMatchObject({ total: countCompletionsSync(17, two).total, threads: availableParallelism() });
    const three: Queen[] = [...two, [1, 3]];
    const open14 = await countCompletions(17, three);
    expect(open14).toMatchObject({ total: countCompletionsSync(17, three).total, threads: 1 });
  });
});

describe('onProgress', () => {
  it.each([0, 2])('reports monotone progress ending at the exact total (threads %i)', async (threads) => {
    const seen: Progress[] = [];
    const r = await count(13, { threads: threads || undefined, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const last = seen[seen.length - 1];
    const units = planUnits(13, { parts: 2 }).units;
    expect(last).toMatchObject({ n: 13, finished: units, subproblems: units, fraction: 1, total: 73712n, unique: 9233n });
    expect(r.total).toBe(last.total);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].finished).toBeGreaterThanOrEqual(seen[i - 1].finished);
      expect(seen[i].total).toBeGreaterThanOrEqual(seen[i - 1].total);
    }
    expect(seen[0]).toMatchObject({ finished: 0, total: 0n, fraction: 0 });
  });

  it('weights the fraction by expected work, so the large subproblems that run first count for more', async () => {
    const plan = searchPlan(12, 0);
    const units = [...unitsOf(plan)];
    const seen: Progress[] = [];
    const reports: Progress[] = [];
    await runMethod(methodForCount(12, 'search', 1, 0), {
      engine: 'js',
      threads: 0,
      progressIntervalMs: 0,
      onProgress: (p) => reports.push(p),
    });
    // The first report with each number of finished units: the start, then one as each unit ends
    // (a slow machine may add reports from inside a unit, between them).
    for (const p of reports) if (p.finished === seen.length) seen.push(p);
    expect(seen).toHaveLength(units.length + 1);
    const work = units.map((u) => u.work);
    const all = work.reduce((a, b) => a + b, 0);
    let done = 0;
    for (let i = 0; i < units.length - 1; i++) {
      done += work[i];
      expect(seen[i + 1].fraction).toBeCloseTo(done / all, 12);
    }
    expect(seen[units.length].fraction).toBe(1);
    // The corner constellations (one more row to search) come first and weigh 4 each at n = 12.
    expect(work[0]).toBe(4);
    expect(units.find((u) => u.kind === 'solutions' && u.constellation.innerRows === 8)!.work).toBe(1);
    expect(seen[1].fraction).toBeGreaterThan(1 / units.length);
  });
});

describe('abort', () => {
  // Idle workers left by earlier tests would count as alive below.
  beforeEach(closeIdleWorkers);

  it('an already-aborted signal rejects before counting or starting a worker, on any engine', async () => {
    for (const engine of ['auto', 'js', 'reference'] as const) {
      const started = workersStarted();
      const seen: number[] = [];
      const run = count(16, { engine, signal: AbortSignal.abort(), onProgress: (p) => seen.push(p.finished) });
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(workersStarted()).toBe(started);
      expect(seen.filter((finished) => finished > 0)).toEqual([]);
    }
  });

  it.each([1, 2])('aborting a long count with %i worker(s) rejects and stops its workers', async (threads) => {
    // Aborted once the workers are counting (the first results are in), whatever the machine's speed.
    const controller = new AbortController();
    let abortedAtFinished = 0;
    const running = count(18, {
      threads,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.finished > 0 && abortedAtFinished === 0) {
          abortedAtFinished = p.finished;
          controller.abort();
        }
      },
    });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(abortedAtFinished).toBeGreaterThan(0);
    expect(workersAlive()).toBe(0);
  });

  it('aborting a count on the calling thread stops it between subproblems', async () => {
    // Aborted from the first progress report, so no timer races a fast machine.
    const controller = new AbortController();
    let lastFinished = -1;
    const running = count(13, {
      engine: 'js',
      signal: controller.signal,
      onProgress: (p) => {
        lastFinished = p.finished;
        if (p.finished === 0) controller.abort();
      },
    });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(lastFinished).toBe(0);
  });

  it('leaves no worker behind to keep Node alive', () => {
    const script = `
      import { count } from ${JSON.stringify(index)};
      const done = await count(15, { threads: 2 });
      const controller = new AbortController();
      const onProgress = (p) => { if (p.finished > 0) controller.abort(); };
      const aborted = count(19, { threads: 2, signal: controller.signal, onProgress }).catch((e) => e.name);
      console.log(String(done.total), await aborted);`;
    // A worker left behind would keep the child alive until the kill below (status null, not 0).
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.trim()).toBe('2279184 AbortError');
    expect(r.status).toBe(0);
  });
});

describe("a worker's counter, by the method's name", () => {
  it('each method folder says how its units are counted; the worker finds it by name', () => {
    const counter = counterFor('search', 8, null);
    let total = 0n;
    const plan = searchPlan(8, 0);
    for (const unit of unitsOf(plan)) total += plan.contribution(unit.id, countWhole(counter, unit)).total;
    expect(total).toBe(TOTAL[8]);
    expect(() => counterFor('sorting' as never, 8, null)).toThrow(/no method is named sorting/);
  });
});

describe('this thread beside one worker, on two cores', () => {
  it.each([
    [16, undefined, 2, true],
    [AUTO_THREADS_MIN_N, undefined, 2, true],
    [BESIDE_MAX_N, undefined, 2, true],
    [BESIDE_MAX_N + 1, undefined, 2, false],
    [AUTO_THREADS_MIN_N - 1, undefined, 2, false],
    [16, 2, 2, false],
    [16, 1, 2, false],
    [16, undefined, 1, false],
    [16, undefined, 4, false],
  ] as const)('n = %i, threads %s, %i cores: %s', (n, threads, cores, beside) => {
    expect(besideOneWorker(n, threads, cores)).toBe(beside);
    expect(besideOneWorker(n, threads, cores, false)).toBe(false); // a browser's calling thread is the page's
  });

  it.each([15, 16, 17])('count(%i) with no threads: OEIS, with a thread a core counting (beside one worker on two)', async (n) => {
    const r = await count(n);
    expect(r).toMatchObject({ total: TOTAL[n], unique: UNIQUE[n], threads: availableParallelism() });
  });

  it('a helper that stays takes units after the worker has counted some (one that does not, none)', async () => {
    const plan = searchPlan(12, 1);
    for (const stays of [true, false]) {
      let results = 0;
      let afterFirst: number | undefined;
      let total = 0n;
      let mine = 0;
      let firstResult: () => void = () => undefined;
      const workerCounted = new Promise<void>((resolve) => (firstResult = resolve));
      await runOnWorkers({
        method: 'search',
        n: 12,
        units: unitsOf(plan),
        count: plan.units,
        threads: 1,
        module: wasmModule()!,
        onResult: (id, c) => {
          results++;
          total += plan.contribution(id, c).total;
          firstResult();
        },
        helperStays: stays,
        helper: async (take) => {
          // Once the worker's first result is in (so it is ready), take what is left to take: at once, in the turn
          // that result came in, when the worker holds its first batches only. (Before, a 5 ms poll: where it woke
          // late, the worker had counted every unit, and the helper that stays found none.)
          await workerCounted;
          afterFirst = 0;
          const counter = counterFor('search', 12, null);
          for (let u = take(); u; u = take()) {
            afterFirst++;
            mine++;
            total += plan.contribution(u.id, countWhole(counter, u)).total;
          }
        },
      });
      expect(total).toBe(TOTAL[12]);
      expect(results + mine).toBe(plan.units);
      if (stays) expect(afterFirst).toBeGreaterThan(0);
      else expect(afterFirst).toBe(0);
    }
  });
});

type PoolJob = Parameters<typeof runOnWorkers>[0];

/** The search's units of `plan` (n = 12) on one worker with the TypeScript kernel, each result to `onResult`. */
function oneWorkerJob12(plan: ReturnType<typeof searchPlan>, onResult: PoolJob['onResult']): PoolJob {
  return { method: 'search', n: 12, units: unitsOf(plan), count: plan.units, threads: 1, module: null, onResult };
}

describe('the pool', () => {
  it.each([
    [1, 'as objects'],
    [2, 'as objects'],
    [3, 'as objects'],
    [2, 'packed'],
    [3, 'packed'],
  ])('hands every unit out exactly once, in batches, with %i worker(s), %s', async (threads, how) => {
    const plan = searchPlan(12, 1);
    const seen: number[] = [];
    let total = 0n;
    await runOnWorkers({
      method: 'search',
      n: 12,
      units: unitsOf(plan),
      count: plan.units,
      threads,
      module: wasmModule()!,
      codec: how === 'packed' ? searchUnitCodec : undefined,
      onResult: (id, c) => {
        seen.push(id);
        total += plan.contribution(id, c).total;
      },
      onPartial: () => undefined,
    });
    expect(seen.slice().sort((p, q) => p - q)).toEqual([...unitsOf(plan)].map((u) => u.id));
    expect(total).toBe(TOTAL[12]);
  });

  it.each([
    [7, 0],
    [12, 2],
    [12, 4],
  ])('packs every unit of n = %i at depth %i and reads it back as it was; numbers that are no unit are refused', (n, depth) => {
    const plan = searchPlan(n, depth);
    const { stride } = searchUnitCodec;
    const packed = new Float64Array(plan.units * stride);
    const units = [...unitsOf(plan)];
    units.forEach((unit, i) => searchUnitCodec.write(unit, packed, i * stride));
    expect(units.map((_, i) => searchUnitCodec.read(packed, i * stride))).toEqual(units);
    packed[stride - 1 - 4] = 5; // the first unit's prefix length, past MAX_DEPTH
    expect(() => searchUnitCodec.read(packed, 0)).toThrow(RangeError);
  });

  it('hands out units with gaps between their ids (a resumed checkpoint skips some) and takes them back in order', async () => {
    const plan = searchPlan(12, 2);
    const units = [...unitsOf(plan)].filter((u) => u.id % 3 !== 1 && u.id % 7 !== 2);
    const seen: number[] = [];
    let total = 0n;
    await runOnWorkers({
      method: 'search',
      n: 12,
      units: units[Symbol.iterator](),
      count: units.length,
      threads: 2,
      module: wasmModule()!,
      codec: searchUnitCodec,
      onResult: (id, c) => {
        seen.push(id);
        total += plan.contribution(id, c).total;
      },
    });
    expect(seen.slice().sort((p, q) => p - q)).toEqual(units.map((u) => u.id));
    let expected = 0n;
    const counter = counterFor('search', 12, null);
    for (const u of units) expected += plan.contribution(u.id, countWhole(counter, u)).total;
    expect(total).toBe(expected);
  });

  it('a result for a unit the pool did not hand that worker next fails the count (INTERNAL), recording nothing of it', async () => {
    const plan = searchPlan(12, 1);
    const recorded: number[] = [];
    let edited = 0;
    const running = runOnWorkers(
      { ...oneWorkerJob12(plan, (id) => recorded.push(id)), module: wasmModule()! },
      {
        // Stands in for a worker that answers with the wrong unit: its first result's id moved past every unit's.
        onMessage: (message) => {
          if (message.type !== 'results' || message.results.ids.length === 0 || edited++ > 0) return;
          (message.results.ids as number[])[0] += plan.units;
        },
      },
    );
    await expect(running).rejects.toMatchObject({ code: 'ERR_NQUEENS_INTERNAL' });
    await expect(running).rejects.toThrow(/^a counting worker returned unit \d+; the next unit it was given is \d+$/);
    expect(edited).toBe(1);
    expect(recorded.every((id) => id < plan.units)).toBe(true);
  });

  it('results go back as numbers, and a count past 2^53 exactly beside them', () => {
    const results = noResults();
    const sent: [number, bigint][] = [
      [5, 0n],
      [6, 2n ** 53n - 1n],
      [7, 2n ** 53n],
      [9, 12n],
      [4e9, 2n ** 70n + 3n],
    ];
    for (const [id, count] of sent) addResult(results, id, count);
    const back: [number, bigint][] = [];
    eachResult(structuredClone(results), (id, count) => back.push([id, count]));
    expect(back).toEqual(sent);
  });

  // A worker's messages come one a turn of the event loop: Node delivers
  // those that keep arriving in one go (up to 1,000), and a slow handler (a
  // checkpoint's lines, written and flushed) held the thread for seconds, so
  // stop signals, timers and the claims' renewal waited. Each message here
  // asks for a turn (setImmediate); by the message after next it has had it.
  it("a worker's messages are handled one a turn, however slowly: the event loop turns between them", async () => {
    let asked = 0;
    let turns = 0;
    let behind = 0;
    await runOnWorkers(
      oneWorkerJob12(searchPlan(12, 0), () => undefined),
      {
        reportEveryMs: 0,
        onMessage: (m) => {
          if (m.type !== 'results') return;
          behind = Math.max(behind, asked - turns);
          asked++;
          setImmediate(() => turns++);
          // A handler slower than the worker (a checkpoint's writes): messages wait in the port meanwhile.
          const until = performance.now() + 2;
          while (performance.now() < until);
        },
      },
    );
    expect(asked).toBeGreaterThan(100);
    expect(behind).toBeLessThanOrEqual(2);
  });

  // Which messages carry which results, seen through the pool's test hooks
  // rather than guessed from arrival times (which CPU load scrambles).
  it.each([
    [0, 'one message per piece counted, then a closing part'],
    [1e9, 'one message per batch'],
  ])('streams results within a batch: reporting every %i ms sends %s', async (reportEveryMs) => {
    const plan = searchPlan(12, 0);
    const parts: number[] = [];
    let batches = 0;
    let received = 0;
    await runOnWorkers(
      oneWorkerJob12(plan, () => received++),
      {
        reportEveryMs,
        onMessage: (m) => {
          if (m.type !== 'results') return;
          parts.push(m.results.ids.length);
          if (m.batchDone) batches++;
        },
      },
    );
    expect(received).toBe(plan.units);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(plan.units);
    // Batches shrink from 1/8 of the list to single subproblems.
    expect(batches).toBeGreaterThan(8);
    if (reportEveryMs === 0) {
      // Every solutions unit is one piece here (n = 12), and a message goes
      // back at each piece; a fixes unit is counted whole, without one.
      const pieces = [...unitsOf(plan)].filter((u) => u.kind === 'solutions').length;
      expect(pieces).toBeLessThan(plan.units);
      expect(parts).toHaveLength(pieces + batches);
      expect(parts.every((p) => p <= 2)).toBe(true);
    } else {
      expect(parts).toHaveLength(batches);
    }
  });
});

// A settled count leaves no worker running, including one that was still
// starting when the count failed or was aborted (a "late" worker).
/** Turns of the event loop until `running` (a count just called) begins to wait for a release of workers: true; or settles first: false. */
async function beginsToWait(running: Promise<unknown>): Promise<boolean> {
  let settled = false;
  running.then(
    () => (settled = true),
    () => (settled = true),
  );
  const before = releasesAwaited();
  while (!settled && releasesAwaited() === before) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe('counts at once share the workers', () => {
  beforeEach(closeIdleWorkers);
  /** The most workers the process starts: one a core, 4 on smaller machines (thread-plan.ts, workerCap). */
  const cap = Math.max(4, availableParallelism());

  it('30 counts of n = 12 at once, each asking for 2 threads: at most the cap of workers between them, each exact', async () => {
    const before = workersStarted();
    // Before: each count started its own 2 (60 workers; 50 counts took 7.8 s and 1.1 GB on 2 cores).
    const results = await Promise.all(Array.from({ length: 30 }, () => count(12, { threads: 2 })));
    expect(results.map((r) => r.total)).toEqual(results.map(() => TOTAL[12]));
    expect(workersStarted() - before).toBeLessThanOrEqual(cap);
    expect(workersAlive()).toBeLessThanOrEqual(cap);
  });

  it('a count that found every worker held counts on its calling thread, and takes workers once they are free', async () => {
    // The first count holds the cap; the second starts with none and counts here until the first is aborted. The
    // first is n = 19 (seconds on every core), so it cannot end before the second has counted anything, however slow
    // the machine: with n = 17 a fast finish would have resolved it before the abort.
    const first = new AbortController();
    const holding = count(19, { algorithm: 'join', threads: cap, signal: first.signal });
    const waiting = count(17, { algorithm: 'join', threads: 2, onProgress: (p) => p.fraction > 0 && first.abort() });
    await expect(holding).rejects.toMatchObject({ name: 'AbortError' });
    const r = await waiting;
    expect([r.total, r.unique, r.threads]).toEqual([TOTAL[17], UNIQUE[17], 2]);
  }, 60_000);

  /** A count of n = 22 on the cap of workers, once it has counted something (so every worker is held); abort `first` to free them. */
  async function holdEveryWorker(): Promise<{ first: AbortController; holding: Promise<unknown> }> {
    const first = new AbortController();
    let started: () => void = () => undefined;
    const counting = new Promise<void>((resolve) => (started = resolve));
    const holding = count(22, { algorithm: 'search', threads: cap, signal: first.signal, onProgress: (p) => p.fraction > 0 && started() });
    holding.catch(() => undefined); // awaited by the test once it aborts
    await counting;
    return { first, holding };
  }

  it('a completion count that found every worker held counts nothing on its calling thread: it waits for a worker', async () => {
    // Its units are counted in one piece: counted here, each held the event loop, and abort, for seconds (n = 21: 90 s).
    const { first, holding } = await holdEveryWorker();
    // Decided by events, not a clock: each begins its wait for a release, or settles first (counted here). Before, 20
    // sleeps of 10 ms could not tell a count that waits from one that counts here slowly.
    const waiting = countCompletions(12, [[0, 3]], { threads: 1 });
    expect(await beginsToWait(waiting)).toBe(true);
    const aborted = new AbortController();
    const alsoWaiting = countCompletions(12, [[0, 3]], { threads: 1, signal: aborted.signal });
    expect(await beginsToWait(alsoWaiting)).toBe(true);
    aborted.abort();
    await expect(alsoWaiting).rejects.toMatchObject({ name: 'AbortError' }); // abort ends the wait
    first.abort();
    await expect(holding).rejects.toMatchObject({ name: 'AbortError' });
    expect((await waiting).total).toBe(countCompletionsSync(12, [[0, 3]]).total); // on a worker, once one was free
  }, 60_000);

  it('a completion count aborted from its start report, with every worker held, rejects without waiting for one', async () => {
    // Aborted before it reaches its wait for a release: that wait must see the abort at once, not only at the next release.
    const { first, holding } = await holdEveryWorker();
    const order: string[] = [];
    const aborted = new AbortController();
    const stopped = countCompletions(12, [[0, 3]], { threads: 1, signal: aborted.signal, onProgress: () => aborted.abort() });
    const settled = stopped.then(
      () => order.push('counted'),
      (error: unknown) => order.push(`rejected: ${(error as Error).name}`),
    );
    // Turns of the event loop, not a clock: the rejection takes a few; a count that waits for a release never settles here.
    for (let turn = 0; turn < 200 && order.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    order.push('workers released');
    first.abort();
    await expect(holding).rejects.toMatchObject({ name: 'AbortError' });
    await settled;
    expect(order).toEqual(['rejected: AbortError', 'workers released']);
  }, 60_000);

  it('counts that found every worker held take turns on the calling thread: one a turn of the event loop, each exact', async () => {
    // Every worker held, as by other counts: these join counts of n = 16 (a method that helps) count here throughout.
    const held = threadPlan(16, 1024, 1024, { units: 1024, helps: true, bytesPerThread: 0 });
    // A turn of the event loop: a probe that sets itself up again with setImmediate runs once in each.
    let turn = 0;
    let probing = true;
    const probe = (): void => void (probing && (turn++, setImmediate(probe)));
    setImmediate(probe);
    /** For each turn, the counts that began a unit in it. */
    const began = new Map<number, Set<number>>();
    const join = methodForCount(16, 'join', 1) as PlannedMethod<JoinUnit>;
    const counting = (me: number): Method<JoinUnit> => ({
      ...join,
      counter: (module) => {
        const counter = join.counter(module);
        return (unit) => {
          began.set(turn, (began.get(turn) ?? new Set()).add(me));
          return counter(unit);
        };
      },
    });
    try {
      const results = await Promise.all([0, 1, 2, 3].map((me) => runMethod(counting(me), { engine: 'wasm', threads: 2 })));
      expect(results.map((r) => [r.total, r.threads])).toEqual(results.map(() => [TOTAL[16], 1]));
    } finally {
      probing = false;
      releaseThreads(held);
    }
    // Before, each counted a slice in every turn (from the first), and timers waited for all of them: 30 counts, 0.6 s.
    expect(Math.max(...[...began.values()].map((counts) => counts.size))).toBe(1);
    // In turns, not one after another: the counts that counted, turn by turn, change more often than 3 times.
    const order = [...began.keys()].sort((a, b) => a - b).map((t) => [...began.get(t)!][0]);
    expect(new Set(order)).toEqual(new Set([0, 1, 2, 3]));
    expect(order.filter((me, i) => me !== order[i - 1]).length).toBeGreaterThan(4);
  });

  it('the workers come back when counts end, abort or fail: the next count gets the threads it asks for', async () => {
    await Promise.all(Array.from({ length: 6 }, () => count(13, { threads: 2 })));
    const controller = new AbortController();
    const aborted = count(16, { threads: 2, signal: controller.signal, onProgress: (p) => p.fraction > 0 && controller.abort() });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    const failed = count(14, { threads: 2, onProgress: () => Promise.reject(new Error('no')) });
    await expect(failed).rejects.toThrow('no');
    const r = await count(13, { threads: 2 });
    expect([r.total, r.threads]).toEqual([TOTAL[13], 2]);
  });
});

describe('a worker parked while it set up for one count, and taken by the next', () => {
  beforeEach(closeIdleWorkers);
  const plan = searchPlan(12, 0);
  const units = [...unitsOf(plan)];
  const job = () => ({ method: 'search' as const, n: 12, units: units[Symbol.iterator](), count: units.length, threads: 1 });

  it("answers the first count's failed init to the second, which ignores it and counts on its own init, exact", async () => {
    // Count A: a module without the kernel, so its worker's init fails; the calling thread takes every unit once the
    // worker is online (its init posted, not yet answered), so A ends well and parks the worker mid-init.
    const noKernel = new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    let online: () => void = () => undefined;
    const firstOnline = new Promise<void>((resolve) => (online = resolve));
    const seen: string[] = [];
    await runOnWorkers(
      {
        ...job(),
        module: noKernel,
        onResult: () => undefined,
        helper: async (take) => {
          await firstOnline;
          while (take() !== undefined);
        },
      },
      { onMessage: (message) => message.type === 'online' && online() },
    );
    expect(idleWorkers()).toBe(1);
    // Count B, in TypeScript, takes that worker and sends its own init; the worker answers A's init first, failing.
    // Before: B rejected with A's failure ("counting worker failed").
    let total = 0n;
    await runOnWorkers(
      { ...job(), module: null, onResult: (id, c) => (total += plan.contribution(id, c).total) },
      { onMessage: (message) => void seen.push(message.type) },
    );
    expect(seen.slice(0, 2)).toEqual(['error', 'ready']);
    expect(total).toBe(TOTAL[12]);
  });

  it('with two inits unanswered, the next count alike to the first reads neither as its own (answers matched by identity)', async () => {
    const u11 = [...unitsOf(searchPlan(11, 0))];
    let online: () => void = () => undefined;
    const firstOnline = new Promise<void>((resolve) => (online = resolve));
    const takeAll = async (take: () => unknown) => {
      while (take() !== undefined);
    };
    // A: n = 12 in TypeScript, whose warm-up unit is nonsense, so its init fails; parked mid-init.
    const nonsense = { id: 0, nonsense: true } as never;
    await runOnWorkers(
      { ...job(), module: null, warm: nonsense, onResult: () => undefined, helper: async (take) => (await firstOnline, takeAll(take)) },
      { onMessage: (message) => message.type === 'online' && online() },
    );
    // B: n = 11 takes the worker and sends its init; its calling thread takes every unit: parked, two inits unanswered.
    await runOnWorkers({
      method: 'search',
      n: 11,
      units: u11[Symbol.iterator](),
      count: u11.length,
      threads: 1,
      module: null,
      onResult: () => undefined,
      helper: takeAll,
    });
    expect(idleWorkers()).toBe(1);
    // C: n = 12 as A, alike in every setting but the warm-up: A's failure and B's 'ready' are not its answers.
    // Before (answers matched by settings): C rejected with A's failure.
    const seen: string[] = [];
    let total = 0n;
    await runOnWorkers(
      { ...job(), module: null, onResult: (id, c) => (total += plan.contribution(id, c).total) },
      { onMessage: (message) => void seen.push(message.type) },
    );
    expect(seen.slice(0, 3)).toEqual(['error', 'ready', 'ready']);
    expect(total).toBe(TOTAL[12]);
  });
});

describe('workers never outlive the count', () => {
  beforeEach(closeIdleWorkers);
  const plan = searchPlan(12, 0);
  const units = [...unitsOf(plan)];
  const job = (list = units) => ({
    method: 'search' as const,
    n: 12,
    units: list[Symbol.iterator](),
    count: list.length,
    module: null,
    onResult: () => undefined,
  });

  it('aborted while its workers are still starting', async () => {
    const controller = new AbortController();
    const running = runOnWorkers({ ...job(), threads: 2, signal: controller.signal });
    controller.abort(); // synchronously: no worker has come up yet
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(workersAlive()).toBe(0);
  });

  it('aborted as the first worker comes online, with the second still starting', async () => {
    const controller = new AbortController();
    const running = runOnWorkers(
      { ...job(), threads: 2, signal: controller.signal },
      {
        onMessage: (m) => {
          if (m.type === 'online') controller.abort();
        },
      },
    );
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(workersAlive()).toBe(0);
  });

  it('failed by one worker while others are starting', async () => {
    const bad = [{ ...units[0], constellation: { ...units[0].constellation, a: 99 } }, ...units.slice(1)];
    await expect(runOnWorkers({ ...job(bad), threads: 3 })).rejects.toThrow(/counting worker failed/);
    expect(workersAlive()).toBe(0);
  });

  it('finished normally: its workers wait idle for the next count, and nothing else keeps Node alive', async () => {
    await runOnWorkers({ ...job(), threads: 2 });
    expect(idleWorkers()).toBe(2);
    expect(workersAlive()).toBe(2);
    await closeIdleWorkers();
    expect(workersAlive()).toBe(0);
  });
});

describe('idle workers', () => {
  beforeEach(closeIdleWorkers);

  it('the next count takes them instead of starting new ones, and gets the same counts', async () => {
    const first = await count(13, { threads: 2 });
    const started = workersStarted();
    expect(idleWorkers()).toBe(2);
    const second = await count(13, { threads: 2 });
    const third = await count(16, { threads: 1, algorithm: 'join' });
    expect(workersStarted()).toBe(started);
    expect([first.total, second.total, third.total]).toEqual([TOTAL[13], TOTAL[13], TOTAL[16]]);
    expect([third.unique, third.threads]).toEqual([UNIQUE[16], 1]);
    expect(idleWorkers()).toBe(2);
  });

  it('an idle worker is not timed out while another count runs: its IDLE_MS start when the last count ends', async () => {
    await count(13, { threads: 2 });
    expect(idleWorkers()).toBe(2);
    // A count on one worker that lasts past IDLE_MS: its helper (the calling thread) holds it open.
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const [unit] = unitsOf(searchPlan(10, 0));
    // A fake clock from here: IDLE_MS pass at once, whatever the machine's speed. The idle timer
    // count(13) left (a real one) is cleared when the count below starts.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      const long = runOnWorkers({
        method: 'search',
        n: 10,
        units: [unit][Symbol.iterator](),
        count: 1,
        threads: 1,
        module: wasmModule()!,
        onResult: () => undefined,
        helper: async (take) => {
          take();
          await gate;
        },
      });
      vi.advanceTimersByTime(IDLE_MS + 1);
      expect(idleWorkers()).toBe(1); // the other worker, still there
      release();
      await long;
      expect(idleWorkers()).toBe(2);
      vi.advanceTimersByTime(IDLE_MS - 1);
      expect(idleWorkers()).toBe(2);
      vi.advanceTimersByTime(1);
      expect(idleWorkers()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed count terminates its workers instead of keeping them', async () => {
    await count(13, { threads: 2 });
    expect(idleWorkers()).toBe(2);
    const [u] = unitsOf(searchPlan(10, 0));
    const bad = { ...u, constellation: { ...u.constellation, a: 99 } };
    const failing = runOnWorkers({
      method: 'search',
      n: 10,
      units: [bad][Symbol.iterator](),
      count: 1,
      threads: 2,
      module: null,
      onResult: () => undefined,
    });
    await expect(failing).rejects.toThrow(/counting worker failed/);
    // The failed job took one idle worker (one unit) and terminated it; the other stays idle. The terminated one is
    // gone once its exit event comes, which may be after the rejection (CI under load): waited for, not timed.
    expect(idleWorkers()).toBe(1);
    await vi.waitFor(() => expect(workersAlive()).toBe(1), { timeout: 10_000 });
    expect(idleWorkers()).toBe(1);
  });

  it.each([
    [15, 2, 2279184n],
    [16, 1, 14772512n],
  ])('a script that calls count(%i, { threads: %i }) exits without waiting for its workers', (n, threads, total) => {
    const script = `
      import { count } from ${JSON.stringify(index)};
      const r = await count(${n}, { threads: ${threads} });
      // Idle workers (MessagePort while ref'd) and their timer (Timeout) are unref'd: neither keeps the event loop alive.
      const kept = process.getActiveResourcesInfo().filter((x) => x === 'MessagePort' || x === 'Timeout' || x === 'Worker');
      console.log(String(r.total), r.threads, kept.length);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout.trim()).toBe(`${total} ${threads} 0`);
    expect(r.status).toBe(0);
  });
});

describe('worker failures reject the count', () => {
  it('an error inside a worker', async () => {
    const [u] = unitsOf(searchPlan(10, 0));
    const bad = { ...u, constellation: { ...u.constellation, a: 99 } };
    await expect(
      runOnWorkers({
        method: 'search',
        n: 10,
        units: [bad][Symbol.iterator](),
        count: 1,
        threads: 1,
        module: null,
        onResult: () => undefined,
        onPartial: () => undefined,
      }),
    ).rejects.toThrow(/counting worker failed: unit 0: a = 99 is not a column\/row of an n = 10 board/);
  });

  it('a kernel that does not instantiate', async () => {
    await expect(
      runOnWorkers({
        method: 'search',
        n: 10,
        units: unitsOf(searchPlan(10, 0)),
        count: searchPlan(10, 0).units,
        threads: 2,
        module: {} as WebAssembly.Module,
        onResult: () => undefined,
        onPartial: () => undefined,
      }),
    ).rejects.toThrow(/counting worker failed/);
  });

  it('the calling thread stops counting before a failed count rejects', async () => {
    // Workers that cannot instantiate the kernel fail the count while the calling thread is inside a unit that never
    // ends. Before, it went on counting (and would have recorded the unit) after the count had rejected.
    let rejected = false;
    let piecesAfter = 0;
    const endless = function* (): Generator<number, bigint> {
      for (;;) {
        if (rejected) {
          piecesAfter++;
          throw new Error('counted after the count rejected'); // ends the old code's loop: the assertion below fails
        }
        yield 0;
      }
    };
    const plan = { ...methodForCount(12, 'search', 1, 0), module: () => ({}) as WebAssembly.Module, counter: () => endless };
    const running = runMethod(plan, { engine: 'wasm', threads: 2 });
    await expect(running.finally(() => (rejected = true))).rejects.toMatchObject({ code: 'ERR_NQUEENS_WORKER_FAILED' });
    // The calling thread was paused between slices when the count rejected: its turn comes before this one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(piecesAfter).toBe(0);
  });

  it('an onResult that throws', async () => {
    await expect(
      runOnWorkers({
        method: 'search',
        n: 9,
        units: unitsOf(searchPlan(9, 0)),
        count: searchPlan(9, 0).units,
        threads: 1,
        module: wasmModule()!,
        onResult: () => {
          throw new Error('listener broke');
        },
        onPartial: () => undefined,
      }),
    ).rejects.toThrow('listener broke');
  });
});

describe('bad thread options', () => {
  it.each([
    [{ threads: 0 }, RangeError, /options.threads must be an integer from 1 to 256; got 0/],
    [{ threads: 1.5 }, RangeError, /options.threads must be an integer from 1 to 256; got 1.5/],
    [{ threads: 257 }, RangeError, /options.threads must be an integer from 1 to 256; got 257/],
    [{ threads: '2' }, TypeError, /options.threads must be an integer from 1 to 256; got "2"/],
    [{ engine: 'reference', threads: 2 }, RangeError, /options.threads must be 1 with engine 'reference'/],
    [{ onProgress: 5 }, TypeError, /options.onProgress must be a function; got 5/],
    [{ signal: {} }, TypeError, /options.signal must be an AbortSignal; got an object/],
  ])('count(8, %j) rejects', async (options, type, message) => {
    const running = count(8, options as never);
    await expect(running).rejects.toThrow(type);
    await expect(running).rejects.toThrow(message);
  });
});

describe('threadPlan (src/run/thread-plan.ts)', () => {
  // A worker beyond the units would only start and wait: result.threads would count it.
  it.each([1, 2, 3])('%i unit(s), 8 workers asked for on 16 cores: as many workers as units', (units) => {
    const plan = threadPlan(12, 8, 16, { units, helps: false, bytesPerThread: 0 }, true);
    try {
      expect([plan.workers, plan.countingThreads]).toEqual([units, units]);
    } finally {
      releaseThreads(plan);
    }
  });
});
