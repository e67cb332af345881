// Counting on the calling thread in slices: how long one runs before the
// event loop gets a turn, and the yield itself.

/** A slice of counting on the calling thread, in milliseconds. */
export const SLICE_MS = 20;

/** Lets the event loop run (timers, messages, an abort) before the next slice. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
