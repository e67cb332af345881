// Counting on the calling thread in slices: how long one runs before the
// event loop gets a turn, the yield itself, the clock that times them, and
// the timers that let kept things go.
import { abortError, onAbort, type AbortSignalLike } from './abort.js';

/** A slice of counting on the calling thread, in milliseconds. */
export const SLICE_MS = 20;

/** Milliseconds on a monotonic clock, for slices, progress and elapsed times. */
export function now(): number {
  return performance.now();
}

/** The callers waiting for a turn, in the order they asked; one is let go a turn. */
const waiting = new Set<() => void>();
/** Whether a turn is asked of the event loop (an immediate or a message on its way). */
let turnAsked = false;

/**
 * Lets the event loop run (messages, timers, an abort) before the caller's
 * next slice, without a timer's delay (setTimeout waits 1 ms in Node and 4
 * ms in nested browser timers): setImmediate where there is one, else a
 * message to itself. Callers take turns, one a turn of the event loop, in
 * the order they asked: 30 counts at once on this thread each counted a
 * slice in every turn, so timers and abort waited 30 slices (0.6 s) a turn.
 * A caller whose `signal` aborts while it waits rejects at once with the
 * abort's error and leaves the line (it used to notice only in its turn,
 * after the slices of every caller before it).
 */
export function yieldToEventLoop(signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    let stop: (() => void) | undefined;
    const go = (): void => {
      stop?.();
      resolve();
    };
    if (signal) {
      stop = onAbort(signal, () => {
        waiting.delete(go);
        reject(abortError(signal));
      });
    }
    waiting.add(go);
    askTurn();
  });
}

/** Asks the event loop for a turn, unless one is asked already: the first caller waiting goes in it. */
function askTurn(): void {
  if (turnAsked) return;
  turnAsked = true;
  // A function, not just there: a page's global lookups fall through to Object.prototype, where other code may set it.
  const immediate = (globalThis as { setImmediate?: unknown }).setImmediate;
  if (typeof immediate === 'function') return void (immediate as (callback: () => void) => unknown)(giveTurn);
  // A runtime with neither (a page that deleted MessageChannel) still gets its turns, a timer's delay later.
  if (typeof MessageChannel !== 'function') return void setTimeout(giveTurn, 0);
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    giveTurn();
  };
  channel.port2.postMessage(null);
}

/** A turn: the first caller waiting goes; the next one's turn is asked now, so it comes in the next turn of the loop. */
function giveTurn(): void {
  turnAsked = false;
  const [first] = waiting;
  if (!first) return;
  waiting.delete(first);
  if (waiting.size > 0) askTurn();
  first();
}

/**
 * Makes what `steps` makes on this thread, in slices of SLICE_MS, each after
 * a turn of the event loop (yieldToEventLoop), the first too (after one
 * step); rejects with the abort's error once `signal` aborts, and closes
 * the steps then (their `return()`), so that what they hold is let go.
 * Nothing to make (it was made before): no turn waited for.
 */
export async function inSlices<T>(steps: Iterator<void, T>, signal?: AbortSignalLike): Promise<T> {
  let step = steps.next();
  try {
    let sliceStart = -Infinity;
    while (!step.done) {
      if (now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop(signal);
        sliceStart = now();
      }
      step = steps.next();
    }
    return step.value;
  } finally {
    if (!step.done) steps.return?.();
  }
}

/** What `steps` makes, made at once. */
export function finish<T>(steps: Iterator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Calls `fn` after `ms` on a timer that never keeps Node alive (what is kept between counts is let go so). */
export function unrefTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fn, ms);
  // Node's timers only: a browser's is a number, whose `unref` would be one other code set on Object.prototype.
  if (typeof timer === 'object') (timer as { unref?: () => void }).unref?.();
  return timer;
}
