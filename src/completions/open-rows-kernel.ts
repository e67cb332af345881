// The open-rows kernels: enumeration of solutions (solutions()) and counts
// of completions (countCompletions()), as the wasm module
// assembly/completions/open-rows.ts or its TypeScript twin ./open-rows.ts.
import { countOpenRows, searchSolutions } from './open-rows.js';
import { instantiate, resolveWasm, u64, type WasmOpenRows } from '../engines/wasm-loader.js';

/** The open-rows kernels: enumeration and completions. */
export interface OpenRowsKernel {
  readonly name: 'wasm' | 'js';
  /** Placements in lexicographic order; row r avoids the columns in forbid[r]; only those after `after`, if given. */
  solutions(n: number, forbid: ArrayLike<number>, after?: ArrayLike<number>): Iterator<number[]>;
  /** Completions of the open rows (rows[i] may use the columns in allow[i]). */
  countOpenRows(rows: ArrayLike<number>, allow: ArrayLike<number>): bigint;
}

export const jsOpenRows: OpenRowsKernel = { name: 'js', solutions: searchSolutions, countOpenRows };

function* wasmSolutions(
  module: WebAssembly.Module,
  n: number,
  forbid: ArrayLike<number>,
  after?: ArrayLike<number>,
): Generator<number[], void, undefined> {
  // Each enumeration keeps its state in its own instance, so several can interleave.
  const s = instantiate<WasmOpenRows>(module);
  new Uint32Array(s.memory.buffer, s.forbidPointer(), n).set(Array.from(forbid, (m) => m >>> 0));
  if (after) new Uint8Array(s.memory.buffer, s.afterPointer(), n).set(Array.from(after));
  s.solutionsStart(n, after ? 1 : 0);
  while (s.solutionsNext() === 1) {
    yield Array.from(new Uint8Array(s.memory.buffer, s.placementPointer(), n));
  }
}

/** Wraps the search module: enumerations get an instance each, completions share one. */
export function wasmOpenRowsFrom(module: WebAssembly.Module): OpenRowsKernel {
  const s = instantiate<WasmOpenRows>(module);
  return {
    name: 'wasm',
    solutions: (n, forbid, after) => wasmSolutions(module, n, forbid, after),
    countOpenRows(rows, allow) {
      const open = rows.length;
      new Uint32Array(s.memory.buffer, s.rowsPointer(), open).set(Array.from(rows));
      new Uint32Array(s.memory.buffer, s.allowPointer(), open).set(Array.from(allow, (m) => m >>> 0));
      return u64(s.countCompletions(open));
    },
  };
}

let wasmOpenRows: OpenRowsKernel | undefined;

/** The search kernel for a choice, on this thread: as resolveKernel, for the search module. */
export function resolveOpenRows(engine: 'auto' | 'wasm' | 'js'): OpenRowsKernel {
  const module = resolveOpenRowsModule(engine);
  if (!module) return jsOpenRows;
  wasmOpenRows ??= wasmOpenRowsFrom(module);
  return wasmOpenRows;
}

/** The compiled open-rows module for a choice, or null for the TypeScript search ('wasm' throws where it is unavailable). */
export function resolveOpenRowsModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  return resolveWasm('open-rows', engine);
}
