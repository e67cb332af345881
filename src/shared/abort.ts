// Abort handling in the shape the web platform uses: an AbortError DOMException.

/**
 * What the package needs of an AbortSignal, written out so that its types
 * need no DOM lib: any real `AbortSignal` (browsers, Node, Deno, Bun) fits.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export function abortError(signal?: AbortSignalLike): Error {
  const error = new DOMException('The count was aborted', 'AbortError');
  if (signal?.reason !== undefined) (error as Error & { cause?: unknown }).cause = signal.reason;
  return error;
}

/**
 * A real AbortSignal: `instanceof` where the runtime has AbortSignal (an
 * object that only looks like one could fail later, inside a worker
 * callback), else the shape.
 */
export function isAbortSignal(value: unknown): value is AbortSignalLike {
  if (typeof AbortSignal === 'function') return value instanceof AbortSignal;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignalLike).aborted === 'boolean' &&
    typeof (value as AbortSignalLike).addEventListener === 'function'
  );
}
