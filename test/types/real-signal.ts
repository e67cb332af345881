// Compiled with the DOM lib, with Node's types, and with both: a real
// AbortSignal, from either, is an AbortSignalLike.
import { count } from 'nqueens-wasm';

const controller = new AbortController();
export const pending = count(8, { signal: controller.signal });
export const timed = count(8, { signal: AbortSignal.timeout(1000) });
