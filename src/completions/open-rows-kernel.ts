// The open-rows kernels: enumeration of solutions (solutions()) and counts
// of completions (countCompletions()), as the wasm module
// assembly/completions/open-rows.ts or its TypeScript twin ./open-rows.ts.
import { countOpenRows, searchSolutions } from './open-rows.js';
import { instantiate, resolveWasm, u64, type WasmOpenRows } from '../engines/wasm-loader.js';
import { ERROR_CODES, hasCode } from '../shared/errors.js';
import { oncePer } from '../shared/once-per.js';

/** The open-rows kernels: enumeration and completions. */
export interface OpenRowsKernel {
  readonly name: 'wasm' | 'js';
  /** Placements in lexicographic order; row r avoids the columns in forbid[r]; only those after `after`, if given. */
  solutions(n: number, forbid: ArrayLike<number>, after?: ArrayLike<number>): Iterator<number[]>;
  /** Completions of the open rows (rows[i] may use the columns in allow[i]). */
  countOpenRows(rows: ArrayLike<number>, allow: ArrayLike<number>): bigint;
}

export const jsOpenRows: OpenRowsKernel = { name: 'js', solutions: searchSolutions, countOpenRows };

/** An enumeration on a shared instance: its state while another one holds the instance. */
interface Enumeration {
  readonly saved: Uint8Array;
}

/**
 * Placements from the instance `s`, which every enumeration on this thread
 * shares (one wasm memory each would reserve 10 GB of address space:
 * thousands of live iterators ran out of it). Enumerations take turns: the
 * one that resumes saves the holder's state (`held.by`) and loads its own.
 */
function* wasmSolutions(
  s: WasmOpenRows,
  held: { by: Enumeration | undefined },
  n: number,
  forbid: ArrayLike<number>,
  after?: ArrayLike<number>,
): Generator<number[], void, undefined> {
  const me: Enumeration = { saved: new Uint8Array(s.stateBytes()) };
  const take = (): void => {
    if (held.by === me) return;
    const state = new Uint8Array(s.memory.buffer, s.statePointer(), me.saved.length);
    if (held.by) {
      s.solutionsSave();
      held.by.saved.set(state);
    }
    state.set(me.saved);
    s.solutionsLoad();
    held.by = me;
  };
  try {
    take();
    new Uint32Array(s.memory.buffer, s.forbidPointer(), n).set(Array.from(forbid, (m) => m >>> 0));
    if (after) new Uint8Array(s.memory.buffer, s.afterPointer(), n).set(Array.from(after));
    s.solutionsStart(n, after ? 1 : 0);
    for (;;) {
      take();
      if (s.solutionsNext() !== 1) return;
      yield Array.from(new Uint8Array(s.memory.buffer, s.placementPointer(), n));
    }
  } finally {
    if (held.by === me) held.by = undefined;
  }
}

/** Wraps the open-rows module: one instance for enumerations and completions alike. */
function wasmOpenRowsFrom(module: WebAssembly.Module): OpenRowsKernel {
  const s = instantiate<WasmOpenRows>(module);
  const held: { by: Enumeration | undefined } = { by: undefined }; // own: not read from Object.prototype
  return {
    name: 'wasm',
    solutions: (n, forbid, after) => wasmSolutions(s, held, n, forbid, after),
    countOpenRows(rows, allow) {
      const open = rows.length;
      new Uint32Array(s.memory.buffer, s.rowsPointer(), open).set(Array.from(rows));
      new Uint32Array(s.memory.buffer, s.allowPointer(), open).set(Array.from(allow, (m) => m >>> 0));
      return u64(s.countCompletions(open));
    },
  };
}

/**
 * The thread's one kernel of `module`, made on first use: every enumeration
 * and completion count on the thread shares its instance (a count of
 * completions made one a count, each with its wasm memory: 15,000 at once took 1 GB).
 */
export const openRowsKernelOf: (module: WebAssembly.Module) => OpenRowsKernel = oncePer(wasmOpenRowsFrom);

/** The open-rows kernel for a choice, on this thread (the shared one of its module), or TypeScript's. */
export function resolveOpenRows(engine: 'auto' | 'wasm' | 'js'): OpenRowsKernel {
  const module = resolveOpenRowsModule(engine);
  if (!module) return jsOpenRows;
  try {
    return openRowsKernelOf(module);
  } catch (error) {
    // No room for its memory (`ulimit -v`): 'auto' enumerates in TypeScript, as a count falls back in the runner.
    if (engine !== 'auto' || !hasCode(error, ERROR_CODES.OUT_OF_MEMORY)) throw error;
    return jsOpenRows;
  }
}

/** The compiled open-rows module for a choice, or null for the TypeScript search ('wasm' throws where it is unavailable). */
export function resolveOpenRowsModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  return resolveWasm('open-rows', engine);
}
