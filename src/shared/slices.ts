// Counting on the calling thread in slices: how long one runs before the
// event loop gets a turn, the yield itself, the clock that times them, and
// the timers that let kept things go.

/** A slice of counting on the calling thread, in milliseconds. */
export const SLICE_MS = 20;

/** Milliseconds on a monotonic clock, for slices, progress and elapsed times. */
export function now(): number {
  return performance.now();
}

/** The last turn given out: the next caller's comes after it. */
let lastTurn: Promise<void> = Promise.resolve();

/**
 * Lets the event loop run (messages, timers, an abort) before the caller's
 * next slice, without a timer's delay (setTimeout waits 1 ms in Node and 4
 * ms in nested browser timers): setImmediate where there is one, else a
 * message to itself. Callers take turns, one a turn of the event loop, in
 * the order they asked: 30 counts at once on this thread each counted a
 * slice in every turn, so timers and abort waited 30 slices (0.6 s) a turn.
 */
export function yieldToEventLoop(): Promise<void> {
  return (lastTurn = lastTurn.then(
    () =>
      new Promise((resolve) => {
        const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
        if (immediate) return void immediate(resolve);
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      }),
  ));
}

/** Calls `fn` after `ms` on a timer that never keeps Node alive (what is kept between counts is let go so). */
export function unrefTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fn, ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
