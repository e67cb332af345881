// Abort handling as the web platform does it: a count rejects with the
// signal's reason, as fetch does (a DOMException named 'AbortError' when
// abort() was called without one).

import { nodeBuiltinNow } from './node-builtins.js';
import { ownKeysOnly } from './own-keys.js';

/**
 * An AbortSignal's type, written out so that the package's types need no
 * DOM lib: any real `AbortSignal` (browsers, Node, Deno, Bun) fits. Where
 * the runtime has `AbortSignal`, only a real one is taken: another object
 * of this shape is a TypeError at the call (`isAbortSignal`).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Per signal, the package's callbacks waiting for its abort. */
const waiting = new WeakMap<AbortSignalLike, Set<() => void>>();

/**
 * Calls `fn` when `signal` aborts; returns what stops that. One listener
 * a signal, however many counts wait on it: with one each, a signal shared
 * by more than 10 counts at once made Node warn of a leak
 * (MaxListenersExceededWarning).
 */
/**
 * addEventListener's options, without a prototype: Node reads `signal`, `capture` and `passive` from them, and
 * must not find one that other code set on Object.prototype (an inherited `signal` made every count reject).
 */
export const ONCE: { readonly once: true } = Object.freeze(ownKeysOnly({ once: true as const }));

export function onAbort(signal: AbortSignalLike, fn: () => void): () => void {
  let fns = waiting.get(signal);
  if (!fns) {
    const all = (fns = new Set());
    waiting.set(signal, all);
    // EventTarget's own method where the runtime has AbortSignal (its subclass): one set on the signal is not called.
    const listen = typeof AbortSignal === 'function' ? EventTarget.prototype.addEventListener : signal.addEventListener;
    Reflect.apply(listen, signal, [
      'abort',
      () => {
        waiting.delete(signal);
        for (const f of all) f();
      },
      ONCE,
    ]);
  }
  fns.add(fn);
  return () => fns.delete(fn);
}

/** How many of the package's callbacks wait on `signal` (tests: a finished count leaves none behind on a signal kept for more). */
export function waitingOn(signal: AbortSignalLike): number {
  return waiting.get(signal)?.size ?? 0;
}

/** `step`'s outcome, unless the signal fires first: then its abort error, at once (`step` goes on; what it does after is ignored). */
export function untilAborted<T>(step: Promise<T>, signal: AbortSignalLike | undefined): Promise<T> {
  if (!signal) return step;
  step.catch(() => undefined); // an abort answers first; a rejection after it must not go unhandled
  return new Promise((resolve, reject) => {
    const aborted = (): void => reject(abortError(signal));
    if (signal.aborted) return aborted();
    const stop = onAbort(signal, aborted);
    step.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/**
 * The signal's `aborted` or `reason` as the platform holds it, through AbortSignal's own getters where the runtime
 * has them: a property set on the signal object itself (a `reason` getter that throws, an `aborted` that says false)
 * is not read, so it can neither throw from inside an abort listener nor hide an abort.
 */
function stateOf(signal: AbortSignalLike, key: 'aborted' | 'reason'): unknown {
  return typeof AbortSignal === 'function' ? Reflect.get(AbortSignal.prototype, key, signal) : signal[key];
}

/** Whether `signal` has aborted, as the platform says (stateOf). */
export const isAborted = (signal: AbortSignalLike | undefined): boolean => !!signal && stateOf(signal, 'aborted') === true;

/** What an aborted count rejects with: the signal's reason itself, else an AbortError. */
export function abortError(signal?: AbortSignalLike): unknown {
  const reason = signal && stateOf(signal, 'reason');
  return reason !== undefined ? reason : new DOMException('The count was aborted', 'AbortError');
}

/**
 * A real AbortSignal, of this realm or another (an iframe's), where the
 * runtime has AbortSignal: an object that only looks like one, or inherits
 * from its prototype without being one, could fail later, inside a worker
 * callback. Else the shape.
 */
export function isAbortSignal(value: unknown): value is AbortSignalLike {
  if (typeof AbortSignal === 'function') return !isOrInheritsProxy(value) && isBrandedAbortSignal(value);
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignalLike).aborted === 'boolean' &&
    typeof (value as AbortSignalLike).addEventListener === 'function'
  );
}

/**
 * Whether it is a Proxy or inherits from one, where the runtime tells (Node's util.types.isProxy, Node 20.16+):
 * Node's AbortSignal getters read symbol keys, which a Proxy (or an object made from one) hands to its traps, which
 * could then hide its abort or throw from its listener; a browser's getters refuse both. No trap runs here.
 */
function isOrInheritsProxy(value: unknown): boolean {
  const isProxy = nodeBuiltinNow<typeof import('node:util')>('util')?.types.isProxy;
  for (let link = value; isProxy && typeof link === 'object' && link !== null; link = Object.getPrototypeOf(link))
    if (isProxy(link)) return true;
  return false;
}

/** Whether `aborted`'s getter takes it: the getter checks that its receiver is an AbortSignal of any realm, and throws for anything else. */
export function isBrandedAbortSignal(value: unknown): boolean {
  try {
    return typeof Reflect.get(AbortSignal.prototype, 'aborted', value) === 'boolean';
  } catch {
    return false;
  }
}
