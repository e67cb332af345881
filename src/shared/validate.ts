// Argument checks for the public API. Every message names the argument and
// what is allowed, so a bad call fails loudly before any kernel runs.
import { isBrandedAbortSignal } from './abort.js';
import { ERROR_CODES, rangeError, typeError } from './errors.js';

export const MIN_N = 1;
/** Masks are 32-bit (wasm i32, JS int32 bit ops): one bit per column. */
export const MAX_N = 32;

/** A revoked Proxy: it throws at every touch (Array.isArray too, the one check that touches nothing else), so it is refused as what it is. */
export function isRevokedProxy(value: unknown): boolean {
  try {
    // Its result used: bundlers drop a call of a known-pure global whose result is not (rolldown and terser did).
    return Array.isArray(value) && false;
  } catch {
    return true;
  }
}

/** %TypedArray%.prototype's name getter: a typed array's own name, undefined for anything else (a Proxy, a look-alike). */
const typedArrayProto = Object.getPrototypeOf(Int8Array.prototype) as object;
const typedArrayName = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag)!.get as (this: unknown) => string | undefined;
/** A typed array's real length: an own `length` property someone defined on it is not its length. */
const typedArrayLength = Object.getOwnPropertyDescriptor(typedArrayProto, 'length')!.get as (this: unknown) => number;

/** The typed arrays of numbers: taken wherever an array of integers is (BigInt64Array and BigUint64Array are not). */
export type NumberArray =
  Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** What a hole of a sparse array reads as: refused as a hole, not as undefined or what Array.prototype holds at its index. */
const HOLE = Symbol('hole');

/**
 * The length, read once, of a list of numbers as the API takes one (a placement, `after`, a [row, col] pair): an
 * Array (a subclass, a Proxy of one) or a typed array of numbers (any but BigInt64Array and BigUint64Array). Undefined
 * for anything else: array-likes (`{ length }`, `arguments`, a String object), a DataView, a revoked Proxy.
 */
export function listLength(value: unknown): number | undefined {
  if (isRevokedProxy(value)) return undefined;
  if (Array.isArray(value)) return value.length;
  return typedArrayName.call(value)?.startsWith('Big') === false ? typedArrayLength.call(value) : undefined;
}

/** Entry i of a list, read once; a hole as HOLE, whatever Array.prototype[i] holds. */
export function entry(list: object, i: number): unknown {
  return Object.hasOwn(list, i) ? (list as Record<number, unknown>)[i] : HOLE;
}

/** "an Int8Array", but "a Uint8Array": a U said as "you" takes "a". */
const named = (kind: string): string => `${/^(?!U)[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;

export function describe(value: unknown): string {
  if (value === HOLE) return 'a hole (an empty slot of a sparse array)';
  if (typeof value === 'string') return JSON.stringify(value) + ' (a string)';
  if (typeof value === 'bigint') return `${value}n (a bigint)`;
  if (value === null) return 'null';
  if (isRevokedProxy(value)) return 'a revoked Proxy';
  if (Array.isArray(value)) return 'an array';
  const typedArray = typedArrayName.call(value);
  if (typedArray) return named(typedArray);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return Object.is(value, -0) ? '-0' : String(value); // String(-0) is "0", which is allowed where -0 is not
}

/**
 * An integer in [min, max], as a number; where max is Infinity, Infinity
 * too (a limit's "no limit"). TypeError for other types, RangeError for
 * other numbers (NaN, -Infinity, fractions).
 */
export function checkInteger(value: unknown, name: string, min: number, max: number): number {
  const allowed = max === Infinity ? `an integer >= ${min} or Infinity` : `an integer from ${min} to ${max}`;
  if (typeof value !== 'number') throw typeError(`${name} must be ${allowed}; got ${describe(value)}`);
  if (!(Number.isInteger(value) || value === max) || value < min || value > max) {
    throw rangeError(`${name} must be ${allowed}; got ${describe(value)}`);
  }
  return value === 0 ? 0 : value; // -0 taken as 0: a plan is kept by n and depth, and its depth is read back
}

export function checkN(n: unknown): number {
  return checkInteger(n, 'n', MIN_N, MAX_N);
}

type Builtin = abstract new (...args: never[]) => object;

/**
 * Built-ins of the web platform (Node has them too), where this runtime has them. Not fetch's Headers or FormData:
 * reading those globals makes Node load its HTTP client, which compiles WebAssembly (and fails where there is none).
 */
const WEB_BUILTINS = ['URL', 'URLSearchParams', 'Blob', 'EventTarget', 'WeakRef', 'SharedArrayBuffer']
  .map((name) => (globalThis as Record<string, unknown>)[name])
  .filter((type): type is Builtin => typeof type === 'function');

/** Built-ins whose contents are not own keys (as options, what they hold would be dropped unseen), with no brand check (below). */
const BUILTINS_WITHOUT_KEYS: readonly Builtin[] = [Promise, Error, ...WEB_BUILTINS];

/**
 * The others, of any realm (`instanceof` misses a vm context's or an iframe's), by a getter or method that
 * takes only its own kind and throws for anything else (a Proxy too), running none of the value's code.
 */
const BRANDS: readonly (readonly [Builtin, PropertyKey])[] = [
  [Map, 'size'],
  [Set, 'size'],
  [WeakMap, 'has'],
  [WeakSet, 'has'],
  [Date, 'getTime'],
  [RegExp, 'source'],
  [ArrayBuffer, 'byteLength'],
];

function hasBrand(value: object, [type, key]: readonly [Builtin, PropertyKey]): boolean {
  const own = Reflect.getOwnPropertyDescriptor(type.prototype, key)!;
  try {
    Reflect.apply((own.get ?? own.value) as () => unknown, value, []);
    return value !== type.prototype; // RegExp.prototype's getters take RegExp.prototype itself
  } catch {
    return false;
  }
}

/** The name of the built-in `value` is (a Map, a typed array's own name...), if it is one of those. */
function builtinKind(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return value.constructor.name;
  // A plain object of this realm is none: only others pay for the brand checks' throws.
  if (Reflect.getPrototypeOf(value) === Object.prototype) return undefined;
  if (typeof AbortSignal === 'function' && isBrandedAbortSignal(value)) return 'AbortSignal';
  return (BRANDS.find((brand) => hasBrand(value, brand))?.[0] ?? BUILTINS_WITHOUT_KEYS.find((type) => value instanceof type))?.name;
}

/**
 * Options must be undefined or a plain object with only the listed keys.
 * Returns a copy with each listed key read once: a getter or proxy cannot
 * answer the checks with one value and the count with another. Only the
 * object's own keys are read: a key set on Object.prototype (or any
 * prototype) by other code never reaches a count.
 */
export function checkOptions<T extends object>(options: unknown, fn: string, allowed: readonly string[]): Partial<T> {
  const copy = Object.create(null) as Record<string, unknown>; // no prototype: a key set on Object.prototype is not read through it
  if (options === undefined) return copy as Partial<T>;
  if (options === null || typeof options !== 'object' || isRevokedProxy(options) || Array.isArray(options)) {
    throw typeError(`${fn}: options must be an object or undefined; got ${describe(options)}`);
  }
  const kind = builtinKind(options);
  if (kind) throw typeError(`${fn}: options must be a plain object or undefined; got ${named(kind)}`);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw typeError(
        `${fn}: unknown option ${JSON.stringify(key)}; allowed options are ${allowed.join(', ')}`,
        ERROR_CODES.UNKNOWN_OPTION,
      );
    }
  }
  for (const key of allowed) {
    if (!Object.hasOwn(options, key)) continue;
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy as Partial<T>;
}

export function checkChoice<T extends string>(value: unknown, name: string, choices: readonly T[]): T {
  const list = choices.map((c) => `'${c}'`).join(', ');
  if (typeof value !== 'string') throw typeError(`${name} must be one of ${list}; got ${describe(value)}`);
  if (!(choices as readonly string[]).includes(value)) {
    throw rangeError(`${name} must be one of ${list}; got ${describe(value)}`);
  }
  return value as T;
}
