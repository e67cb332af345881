// Counts on the calling thread take turns, one slice a turn of the event
// loop (src/shared/slices.ts). An abort takes effect at once, wherever the
// count waits: for its turn behind other counts, or while it plans. Turns
// are numbered by a probe that sets itself up again with setImmediate: it
// runs once in each turn, so no assert here reads a clock.
import { afterEach, describe, expect, it } from 'vitest';
import { count, planUnits, type Progress } from '../dist/index.js';
import { yieldToEventLoop } from '../dist/shared/slices.js';
import { constellationPlan, defaultDepthSteps } from '../dist/search/search-plan.js';
import { planSubproblems } from '../dist/search/constellations.js';
import { joinMethod, joinMethodSteps, joinPlan } from '../dist/join/join-method.js';
import { closeIdleWorkers } from '../dist/run/pool.js';
import { workersStarted } from '../dist/run/spawn.js';
import { workersToPrestart } from '../dist/run/thread-plan.js';
import { availableCoresNow } from '../dist/contract/environment.js';

/**
 * Numbers the turns of the event loop from the call on: `turn` is 0 until
 * the first. Started after a turn, so that one the last test left asked for
 * does not come before this one's first.
 */
interface TurnProbe {
  readonly turn: number;
  stop(): void;
}

async function turnProbe(): Promise<TurnProbe> {
  await new Promise((resolve) => setImmediate(resolve));
  let turn = 0;
  let probing = true;
  const probe = (): void => void (probing && (turn++, setImmediate(probe)));
  setImmediate(probe);
  return {
    get turn() {
      return turn;
    },
    stop: () => void (probing = false),
  };
}

let probe: TurnProbe = { turn: 0, stop: () => undefined };
afterEach(() => probe.stop());

const reason = new Error('the user left');
/** The turn in which `promise` rejected (with `reason`), or 'resolved'. */
function rejectionTurn(promise: Promise<unknown>): Promise<number | 'resolved'> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => {
      expect(error).toBe(reason);
      return probe.turn;
    },
  );
}

describe('yieldToEventLoop', () => {
  it('one caller a turn, in the order they asked; an abort rejects its caller in its own turn, and the others keep their order', async () => {
    probe = await turnProbe();
    const controller = new AbortController();
    const went: [number, number][] = [];
    const callers = [0, 1, 2, 3, 4].map((me) =>
      yieldToEventLoop(me === 3 ? controller.signal : undefined).then(() => void went.push([me, probe.turn])),
    );
    let abortedAt = -1;
    setImmediate(() => {
      abortedAt = probe.turn;
      controller.abort(reason);
    });
    const aborted = rejectionTurn(callers[3]);
    await Promise.allSettled(callers);
    expect(await aborted).toBe(abortedAt);
    // Turns 1, 2, 3, 4 for callers 0, 1, 2, 4: caller 3's place holds nobody back.
    const first = went[0][1];
    expect(went).toEqual([0, 1, 2, 4].map((me, i) => [me, first + i]));
  });

  it('rejects at once with the abort of a signal aborted already', async () => {
    probe = await turnProbe();
    const controller = new AbortController();
    controller.abort(reason);
    expect(await rejectionTurn(yieldToEventLoop(controller.signal))).toBe(0);
  });
});

describe('30 counts on the calling thread at once', () => {
  it('one of them aborted while it waits for its turn behind the other 29 rejects in that turn; the others end exact', async () => {
    probe = await turnProbe();
    const controller = new AbortController();
    // n = 12 on the calling thread (below AUTO_THREADS_MIN_N): each waits for its turn before its first slice.
    const counts = Array.from({ length: 30 }, (_, i) => count(12, i === 29 ? { signal: controller.signal } : undefined));
    let abortedAt = -1;
    setImmediate(() => {
      abortedAt = probe.turn;
      controller.abort(reason);
    });
    // Before: it noticed in its own turn, after the first slices of the 29 before it (turn 30).
    expect(await rejectionTurn(counts[29])).toBe(abortedAt);
    const others = await Promise.all(counts.slice(0, 29));
    expect(others.map((r) => r.total)).toEqual(others.map(() => 14200n));
  });

  it('one with a signal aborted already rejects before the first turn, and never reports', async () => {
    probe = await turnProbe();
    const controller = new AbortController();
    controller.abort(reason);
    const reports: Progress[] = [];
    const counts = Array.from({ length: 30 }, () => count(12));
    expect(await rejectionTurn(count(12, { signal: controller.signal, onProgress: (p) => reports.push(p) }))).toBe(0);
    expect(reports).toEqual([]);
    await Promise.all(counts);
  });
});

/**
 * Counts n with `options`, aborted by a timer set before the call: checks
 * that the timer fired while the count planned (before its first report, the
 * plan made) and that its abort rejected the count within a turn.
 */
async function abortWhilePlanning(n: number, options: { threads?: number } = {}): Promise<void> {
  probe = await turnProbe();
  const controller = new AbortController();
  const reports: Progress[] = [];
  let reportsWhenFired = -1;
  let abortedAt = -1;
  setTimeout(() => {
    reportsWhenFired = reports.length;
    abortedAt = probe.turn;
    controller.abort(reason);
  }, 0);
  const running = count(n, { ...options, signal: controller.signal, onProgress: (p) => reports.push(p) });
  const rejectedAt = await rejectionTurn(running);
  expect(reportsWhenFired).toBe(0); // still planning: a count reports as soon as its plan is made
  expect(reports).toEqual([]);
  expect(rejectedAt).toBeLessThanOrEqual(abortedAt + 1);
}

describe('a count whose plan is large', () => {
  it('count(32, { threads: 256 }) plans in slices: a timer set before the call fires while it plans, and its abort rejects it', async () => {
    // Its plan (83,190 constellations) took 0.3 s, built before the first await: the timer and the abort waited for it.
    await abortWhilePlanning(32, { threads: 256 });
    // The plan left half built by the abort is finished by the next that asks for it: the same plan.
    expect(planUnits(32)).toMatchObject({ n: 32, depth: 0, units: 83_415, digest: 'd817d3d087e8f41b' });
  });
});

describe("a count whose join's plan is large", () => {
  it('count(23) plans in slices: a timer set before the call fires while it plans, and its abort rejects it', async () => {
    // Its plan (4,056,746 units) took 0.35-0.5 s, made before the first await: the timer and the abort waited for it.
    await abortWhilePlanning(23);
    // The plan left part made by the abort is finished by the next that asks for it: the same plan as main made.
    expect(planUnits(23)).toMatchObject({ method: 'join', n: 23, units: 4_056_746, digest: '16d4790e58c27518' });
  });

  it('count(24) starts its workers while it plans, after its first turn: none before', async () => {
    // They all started before its plan's first step, 8 ms each (up to 40 ms the first in a process): the event loop waited.
    await closeIdleWorkers(); // idle ones left by the tests before would serve it: it would start none
    probe = await turnProbe();
    const controller = new AbortController();
    const early = workersToPrestart(24, undefined, availableCoresNow());
    const before = workersStarted();
    const started: number[] = [];
    const look = (): void => {
      started.push(workersStarted() - before);
      if (started.length < 2) setImmediate(look);
      else controller.abort(reason);
    };
    setImmediate(look); // in the turn the count waits for after its plan's first step, before it
    const running = count(24, { signal: controller.signal });
    expect(await rejectionTurn(running)).not.toBe('resolved');
    // None before the first turn; in the next, the first of them (where there are any: not on one core).
    expect([started[0], started[1] > 0]).toEqual([0, early > 0]);
    await closeIdleWorkers();
  });
});

describe('a plan made in steps', () => {
  it("the join's is one plan for the callers making it at once", () => {
    const first = joinMethodSteps(20);
    for (let step = 0; step < 5; step++) expect(first.next().done).toBe(false); // its splits part made
    const plan = joinPlan(20); // made at once, meanwhile: carries the first's make on to its end
    let next = first.next();
    while (!next.done) next = first.next();
    expect(next.value).toBe(joinMethod(20));
    expect(joinPlan(20)).toBe(plan);
    expect(plan).toMatchObject({ n: 20, units: 46_508, digest: '4a489ea4ab64c4f0' }); // as made at once before
  });

  it('is one plan for the callers making it at once, and holds the subproblems planSubproblems made meanwhile', () => {
    const first = defaultDepthSteps(28, 1);
    for (let step = 0; step < 5; step++) expect(first.next().done).toBe(false); // its subproblems half made
    const list = planSubproblems(28); // made at once, meanwhile
    const second = defaultDepthSteps(28, 1);
    let steps = 0;
    while (!second.next().done) steps++;
    expect(steps).toBeGreaterThan(0); // the second carried the first's make on to the end
    let next = first.next();
    while (!next.done) next = first.next();
    expect(next.value).toBe(0);
    const plan = constellationPlan(28, 0);
    expect(plan.constellations).toBe(list);
    expect(plan).toMatchObject({ n: 28, depth: 0, units: 45_747, digest: 'ef835e9cfbdaa094' }); // as made at once before
  });
});

describe('turns where the runtime has neither setImmediate nor MessageChannel (a page that deleted it)', () => {
  it('are still given, one after another, on a timer', async () => {
    const saved = { setImmediate: globalThis.setImmediate, MessageChannel: globalThis.MessageChannel };
    const scope = globalThis as Record<string, unknown>;
    scope.setImmediate = undefined;
    scope.MessageChannel = undefined;
    try {
      // The old code marked a turn as asked, then threw making the channel: every later caller waited for ever.
      const order: number[] = [];
      const turns = [1, 2, 3].map((k) => yieldToEventLoop().then(() => order.push(k)));
      await Promise.all(turns);
      expect(order).toEqual([1, 2, 3]);
      await expect(yieldToEventLoop()).resolves.toBeUndefined();
    } finally {
      Object.assign(globalThis, saved);
    }
  });
});
