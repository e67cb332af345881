// The calling thread's counter, kept between count() calls as an idle
// worker keeps its own: a join counter's wasm instance builds its quarter
// tables as units need them, and a second count of n = 16 on the same
// instance takes about 15% less than on a fresh one. One counter is kept,
// the last count's (its method and module); it is dropped IDLE_MS after the
// last count that used it ended, by an unref'd timer that never keeps Node
// alive, and at once when a count fails (its instance may hold half-built
// tables). Two counts running at once may share it: the join's counter lays
// out its unit again when another count used it meanwhile.
import type { Method, UnitCounter } from '../contract/method.js';
import { IDLE_MS } from './pool.js';

interface Kept {
  readonly method: object;
  readonly module: WebAssembly.Module | null;
  readonly counter: UnitCounter<never>;
}

let kept: Kept | undefined;
let users = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** `method`'s counter on `module` for this thread: the kept one if it is theirs, else a new one, kept from now. */
export function keptCounter<U extends { readonly id: number }>(method: Method<U>, module: WebAssembly.Module | null): UnitCounter<U> {
  if (kept?.method !== method || kept.module !== module) kept = { method, module, counter: method.counter(module) };
  return kept.counter as UnitCounter<U>;
}

/** Runs `count` as a user of the kept counter: it is not dropped while any runs, and IDLE_MS after the last ends. */
export async function usingKeptCounter<T>(count: () => Promise<T>): Promise<T> {
  users++;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  try {
    return await count();
  } catch (error) {
    kept = undefined;
    throw error;
  } finally {
    if (--users === 0) {
      timer = setTimeout(dropKeptCounter, IDLE_MS);
      (timer as { unref?: () => void }).unref?.();
    }
  }
}

/** Drops the kept counter now (tests, and the idle timeout). */
export function dropKeptCounter(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  kept = undefined;
}

/** Whether a counter is kept (tests). */
export function counterKept(): boolean {
  return kept !== undefined;
}
