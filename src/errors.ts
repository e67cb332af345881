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
  /** Error: a shard result that merge refuses (mismatched plan, missing or doubled units, edited or impossible counts). */
  BAD_SHARD: 'ERR_NQUEENS_BAD_SHARD',
  /** Error: a checkpoint that resume refuses (another count, a damaged line, contradicting counts). */
  BAD_CHECKPOINT: 'ERR_NQUEENS_BAD_CHECKPOINT',
  /** Error: output could not be written (a full disk, an I/O error, a missing directory). */
  WRITE_FAILED: 'ERR_NQUEENS_WRITE_FAILED',
  /** Error: merge --verify recounted a unit and got another count than its shard. */
  VERIFY_FAILED: 'ERR_NQUEENS_VERIFY_FAILED',
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

/** An Error (not a Type/RangeError: those mean a usage error) with its code. */
export function failure(message: string, code: ErrorCode): CodedError<Error> {
  return withCode(new Error(message), code);
}

export function rangeError(message: string, code: ErrorCode = ERROR_CODES.OUT_OF_RANGE): CodedError<RangeError> {
  return withCode(new RangeError(message), code);
}
