// Counts on the calling thread take turns, one slice a turn of the event
// loop (src/shared/slices.ts). An abort takes effect at once, wherever the
// count waits: for its turn behind other counts, or while it plans. Turns
// are numbered by a probe that sets itself up again with setImmediate: it
// runs once in each turn, so no assert here reads a clock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { count, planUnits, type Progress } from '../dist/index.js';
import { yieldToEventLoop } from '../dist/shared/slices.js';
import { planSubproblems } from '../dist/search/constellations.js';
import { constellationPlan, joinPlan } from './plans.js';
import { compactPlanSteps, PLAN_STEP } from '../dist/join/join-plan.js';
import { methodForCount, methodForCountSteps } from '../dist/run/methods.js';
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
  // On a clock a second further on at each look, each step of the plan ends a slice (a slice is ~20 ms): the timer
  // fires while the count plans however fast this machine plans (on the real clock, one 50x faster planned in a slice).
  let t = performance.now();
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
  let rejectedAt: number | 'resolved';
  try {
    const running = count(n, { ...options, signal: controller.signal, onProgress: (p) => reports.push(p) });
    rejectedAt = await rejectionTurn(running);
  } finally {
    clock.mockRestore();
  }
  expect(reportsWhenFired).toBe(0); // still planning: a count reports as soon as its plan is made
  expect(reports).toEqual([]);
  expect(rejectedAt).toBeLessThanOrEqual(abortedAt + 1);
}

describe('a count whose plan is large', () => {
  it('count(32, { threads: 256 }) plans in slices: a timer set before the call fires while it plans, and its abort rejects it', async () => {
    // Its plan (83,190 constellations) took 0.3 s, built before the first await: the timer and the abort waited for it.
    await abortWhilePlanning(32, { threads: 256 });
    // The plan the abort left half built is dropped: the next makes it anew, the same plan.
    expect(planUnits(32)).toMatchObject({ n: 32, depth: 0, units: 83_415, digest: 'd817d3d087e8f41b' });
  });
});

describe("a count whose join's plan is large", () => {
  it('count(23) plans in slices: a timer set before the call fires while it plans, and its abort rejects it', async () => {
    // Its plan (4,056,746 units) took 0.35-0.5 s, made before the first await: the timer and the abort waited for it.
    await abortWhilePlanning(23);
    // The plan the abort left part made is dropped (it stayed for the next count): that one makes it anew, the same plan.
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

/** The steps an iterator takes before it ends (its next() calls that are not done). */
function stepsOf(steps: Iterator<unknown>, most = Infinity): number {
  let taken = 0;
  while (taken < most && !steps.next().done) taken++;
  return taken;
}

/** Closes a count's steps before they end, as inSlices does on an abort. */
const abandon = (steps: Iterator<unknown>): void => void steps.return?.();

/** The steps of making the join's plan of n from nothing, as count() makes it. */
const joinPlanStepsFromNothing = (n: number): number => stepsOf(compactPlanSteps(n, PLAN_STEP));

describe('a plan made in steps', () => {
  it("the join's is one make for the counts making it at once: together they take a make's steps", () => {
    const whole = joinPlanStepsFromNothing(20);
    const [first, second] = [methodForCountSteps(20, 'join', 1), methodForCountSteps(20, 'join', 8)];
    expect(stepsOf(first, 5)).toBe(5); // its splits part made
    const rest = stepsOf(second); // carries the first's make on to its end
    expect([rest, stepsOf(first)]).toEqual([whole - 5, 0]); // the first finds the plan made
    expect(methodForCountSteps(20, 'join', 1).next()).toEqual({ done: true, value: methodForCount(20, 'join', 1) });
    expect(joinPlan(20).identity).toMatchObject({ n: 20, units: 46_508, digest: '4a489ea4ab64c4f0' }); // as made at once before
  });

  it("one made at once meanwhile is the plan: a count's make in steps ends with it", () => {
    const first = methodForCountSteps(19, 'join', 1);
    expect(stepsOf(first, 5)).toBe(5);
    const plan = joinPlan(19); // made at once, by countSync or planUnits
    let step = first.next();
    while (!step.done) step = first.next();
    expect(step.value).toBe(plan);
    expect(joinPlan(19)).toBe(plan);
  });

  it("the search's: one make for counts cut alike, which holds the subproblems planSubproblems made meanwhile", () => {
    const first = methodForCountSteps(28, 'search', 1);
    expect(stepsOf(first, 5)).toBe(5); // its subproblems part made
    const list = planSubproblems(28); // made at once, meanwhile
    expect(stepsOf(methodForCountSteps(28, 'search', 1))).toBeGreaterThan(0); // carries the first's make on to the end
    expect(stepsOf(first)).toBe(0);
    const plan = constellationPlan(28, 0);
    expect(plan.constellations).toBe(list);
    expect(plan).toMatchObject({ n: 28, depth: 0, units: 45_747, digest: 'ef835e9cfbdaa094' }); // as made at once before
    expect(methodForCountSteps(28, 'search', 1).next().value).toBe(methodForCount(28, 'search', 1, 0));
  });
});

describe('a plan half made, that no count holds any longer', () => {
  it('is left as it is while a count holds it: one closing its steps (an abort) takes nothing from the others', () => {
    const whole = joinPlanStepsFromNothing(17);
    const [first, second] = [methodForCountSteps(17, 'join', 1), methodForCountSteps(17, 'join', 1)];
    expect([stepsOf(first, 3), stepsOf(second, 3)]).toEqual([3, 3]);
    abandon(first);
    expect(6 + stepsOf(second)).toBe(whole);
  });

  it('is dropped once the last count holding it closes its steps: the next makes it from nothing', () => {
    const whole = joinPlanStepsFromNothing(18);
    const [first, second] = [methodForCountSteps(18, 'join', 1), methodForCountSteps(18, 'join', 1)];
    expect([stepsOf(first, 3), stepsOf(second, 3), whole > 6]).toEqual([3, 3, true]);
    abandon(first);
    abandon(second); // it stayed until the next count of n finished it (2 MB at n = 32)
    expect(stepsOf(methodForCountSteps(18, 'join', 1))).toBe(whole);
  });

  it("count(22) aborted in its plan's second turn leaves none: the next count makes the plan from nothing", async () => {
    probe = await turnProbe();
    const controller = new AbortController();
    // Two turns on: the count has made its plan's first slices (20 ms each; the whole takes 0.1-0.2 s).
    setImmediate(() => setImmediate(() => controller.abort(reason)));
    expect(await rejectionTurn(count(22, { signal: controller.signal }))).not.toBe('resolved');
    expect(stepsOf(methodForCountSteps(22, 'join', 1))).toBe(joinPlanStepsFromNothing(22));
    await closeIdleWorkers();
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
