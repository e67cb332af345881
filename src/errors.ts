// Every error the package throws carries a stable `code` (listed in README,
// "Errors") beside its class, so callers can branch on it without parsing
// messages. Messages may improve between versions; codes do not change.

export const ERROR_CODES = {
  /** TypeError: an argument or option of the wrong type. */
  INVALID_TYPE: 'ERR_NQUEENS_INVALID_TYPE',
  /** TypeError: an option the function does not take. */
  UNKNOWN_OPTION: 'ERR_NQUEENS_UNKNOWN_OPTION',
  /** RangeError: a number or choice outside what is allowed. */
  OUT_OF_RANGE: 'ERR_NQUEENS_OUT_OF_RANGE',
  /** RangeError: two placed queens share a square, row, column or diagonal (the message names both). */
  ATTACKING_QUEENS: 'ERR_NQUEENS_ATTACKING_QUEENS',
  /** TypeError: options that cannot be combined (solutions() with both `unique` and `placed`). */
  INCOMPATIBLE_OPTIONS: 'ERR_NQUEENS_INCOMPATIBLE_OPTIONS',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error with its stable code. */
export type CodedError<E extends Error = Error> = E & { readonly code: ErrorCode };

/** Attaches `code` to an error (any class, DOMException included) and returns it. */
export function withCode<E extends Error>(error: E, code: ErrorCode): CodedError<E> {
  Object.defineProperty(error, 'code', { value: code, enumerable: true, configurable: true, writable: false });
  return error as CodedError<E>;
}

export function typeError(message: string, code: ErrorCode = ERROR_CODES.INVALID_TYPE): CodedError<TypeError> {
  return withCode(new TypeError(message), code);
}

export function rangeError(message: string, code: ErrorCode = ERROR_CODES.OUT_OF_RANGE): CodedError<RangeError> {
  return withCode(new RangeError(message), code);
}
