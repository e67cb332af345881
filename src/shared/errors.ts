// Every error the package throws carries a stable `code` (listed in README,
// "Errors") beside its class, so callers can branch on it without parsing
// messages. Messages may improve between versions; codes do not change.
// Aborts are the exception: they reject with the platform's DOMException
// named 'AbortError' (as fetch does), whose own numeric `code` (20) is left
// alone; test `error.name === 'AbortError'`.

// Each code is its name after the prefix ERR_NQUEENS_, so the table is built
// from the names: the bundles then carry each name once. The names are keys
// (their value unused), so that each code keeps its doc comment in editors.
const CODE_DOCS = {
  /** TypeError: an argument or option of the wrong type. */
  INVALID_TYPE: 1,
  /** TypeError: an option the function does not take. */
  UNKNOWN_OPTION: 1,
  /** RangeError: a number or choice outside what is allowed. */
  OUT_OF_RANGE: 1,
  /** Error: engine 'wasm' was asked for where WebAssembly is missing or refused (its `cause` says why). */
  WASM_UNAVAILABLE: 1,
  /** Error: engine 'webgpu' was asked for where WebGPU, or a GPU adapter, is missing. */
  WEBGPU_UNAVAILABLE: 1,
  /**
   * Error: the GPU failed during a WebGPU count (the device was lost, as a driver reset or a watchdog does; a buffer
   * could not be allocated; the driver refused a dispatch or the shader). Its `cause` is the GPU's error, where one came.
   * No total is returned from such a count.
   */
  WEBGPU_FAILED: 1,
  /**
   * Error: a counting worker could not start, failed or exited (its `cause`, where there is one, is the worker's
   * error). Where a page refuses workers (its CSP, Trusted Types) there is no such error: the count goes on on its thread.
   */
  WORKER_FAILED: 1,
  /** CLI: a command line it cannot run (the command exits with status 2). */
  USAGE: 1,
  /** CLI: the count was interrupted: SIGINT (Ctrl-C), SIGTERM or SIGHUP (exit status 130, 143, 129). */
  INTERRUPTED: 1,
  /** Error: an internal file used the wrong way (e.g. dist/run/worker.js run as a script), or a bug. */
  INTERNAL: 1,
  /** RangeError: the join's tables for this n would not fit (thrown before allocating). */
  TABLES_TOO_LARGE: 1,
  /**
   * RangeError: a wasm memory could not be had: no address space to reserve one (`ulimit -v`), or the
   * join's could not grow to what its tables and half-boards need. Engine 'auto' then counts in TypeScript.
   */
  OUT_OF_MEMORY: 1,
  /** RangeError: two placed queens share a square, row, column or diagonal (the message names both). */
  ATTACKING_QUEENS: 1,
  /** TypeError: options that cannot be combined (solutions() with both `unique` and `placed`). */
  INCOMPATIBLE_OPTIONS: 1,
  /** Error: a shard result that merge refuses (mismatched plan, missing or doubled units, edited or impossible counts). */
  BAD_SHARD: 1,
  /** Error: a checkpoint that resume refuses (another count, a damaged line, contradicting counts). */
  BAD_CHECKPOINT: 1,
  /** Error: output could not be written (a full disk, an I/O error, a missing directory). */
  WRITE_FAILED: 1,
  /** Error: merge --verify recounted a unit and got another count than its shard. */
  VERIFY_FAILED: 1,
} as const;

export const ERROR_CODES = Object.freeze(Object.fromEntries(Object.keys(CODE_DOCS).map((name) => [name, `ERR_NQUEENS_${name}`]))) as {
  readonly [N in keyof typeof CODE_DOCS]: `ERR_NQUEENS_${N}`;
};

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error with its stable code. */
export type CodedError<E extends Error = Error> = E & { readonly code: ErrorCode };

/**
 * Attaches `code` to an error (any class, DOMException included) and returns it.
 * The descriptor has no prototype: a literal's would read `get` and `set` that
 * other code set on Object.prototype, and defineProperty would throw instead.
 */
export function withCode<E extends Error>(error: E, code: ErrorCode): CodedError<E> {
  Object.defineProperty(error, 'code', {
    __proto__: null,
    value: code,
    enumerable: true,
    configurable: true,
    writable: false,
  } as PropertyDescriptor);
  return error as CodedError<E>;
}

/** An Error with a code; `cause` as in `new Error(message, { cause })`. */
export function codedError(message: string, code: ErrorCode, cause?: unknown): CodedError<Error> {
  return withCode(new Error(message, cause === undefined ? undefined : { cause }), code);
}

export function typeError(message: string, code: ErrorCode = ERROR_CODES.INVALID_TYPE): CodedError<TypeError> {
  return withCode(new TypeError(message), code);
}

/** An Error (not a Type/RangeError: those mean a usage error) with its code. */
export function failure(message: string, code: ErrorCode): CodedError<Error> {
  return withCode(new Error(message), code);
}

export function rangeError(message: string, code: ErrorCode = ERROR_CODES.OUT_OF_RANGE, cause?: unknown): CodedError<RangeError> {
  return withCode(new RangeError(message, cause === undefined ? undefined : { cause }), code);
}

/** Whether an error, or one it was caused by (a worker's error is the cause of WORKER_FAILED), has `code`. */
export function hasCode(error: unknown, code: ErrorCode): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
