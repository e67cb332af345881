// Abort handling in the shape the web platform uses: an AbortError DOMException.

export function abortError(signal?: AbortSignal): Error {
  const error = new DOMException('The count was aborted', 'AbortError');
  if (signal?.reason !== undefined) (error as Error & { cause?: unknown }).cause = signal.reason;
  return error;
}

/**
 * A real AbortSignal: `instanceof` where the runtime has AbortSignal (an
 * object that only looks like one could fail later, inside a worker
 * callback), else the shape.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof AbortSignal === 'function') return value instanceof AbortSignal;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
