// Loads the AssemblyScript kernel from the bytes inlined at build time. There
// are two builds of one source: with wasm SIMD (a search that prunes far
// more, see assembly/completions/open-rows/symmetry-simd.ts) and without, for engines that lack it.
// The kernel's boundary is numbers only, so @assemblyscript/loader has
// nothing to marshal: it instantiates synchronously and demangles exports.
// The build points this import at its copy in dist/vendor/ (see
// scripts/vendor-loader.mjs), so the package names no bare specifier.
import { instantiateSync } from '@assemblyscript/loader';
import { codedError, ERROR_CODES } from '../shared/errors.js';
import { WASM_BASE64, WASM_SEARCH_BASE64, WASM_SIMD_BASE64 } from './wasm-bytes.generated.js';

/** The shipped kernel's exports (assembly/completions/open-rows/search-entry.ts). i64 results arrive as (signed) bigint. */
export interface WasmKernel {
  /**
   * Solutions containing the border constellation (a, b, c, d); a refined
   * plan unit passes `placed` inner rows already holding queens that take
   * columns `cols`, with diagonals `ld`/`rd` at the next inner row (0s: none).
   */
  countConstellation(n: number, a: number, b: number, c: number, d: number, placed: number, cols: number, ld: number, rd: number): bigint;
  /** Pairs (solution, symmetry g in the mask `symmetries`) where g maps the solution to itself. */
  countConstellationFixes(n: number, a: number, b: number, c: number, d: number, symmetries: number): bigint;
  memory: WebAssembly.Memory;
}

/** The search module's exports (assembly/completions/open-rows.ts): enumeration and completions. */
export interface WasmSearch {
  forbidPointer(): number;
  afterPointer(): number;
  placementPointer(): number;
  solutionsStart(n: number, after: number): void;
  solutionsNext(): number;
  rowsPointer(): number;
  allowPointer(): number;
  countCompletions(open: number): bigint;
  memory: WebAssembly.Memory;
}

/**
 * The bench/test build's exports (assembly/baseline/bench-entry.ts, build/nqueens-bench*.wasm,
 * loaded from the file by bench/wasm-bench.mjs; never part of dist/).
 */
export interface WasmBenchKernel extends WasmKernel {
  /** Plain bitmask DFS: solutions with the row-0 queen in column `col`. */
  countFirstRow(n: number, col: number): bigint;
  /** Test hook of the SIMD build: lane rows (2..16) and the fewest rows left that use SIMD. */
  setSimdTuning(laneRows: number, minRows: number): void;
}

/** Reads a u64 result: wasm hands i64 to JS as a signed bigint. */
export function u64(value: bigint): bigint {
  return BigInt.asUintN(64, value);
}

export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Each build's bytes are named once, here: minifiers copy a string constant
 * into each place that uses it (Vite's did, shipping the SIMD build twice).
 */
const BUILDS: Readonly<Record<'simd' | 'baseline', string>> = { simd: WASM_SIMD_BASE64, baseline: WASM_BASE64 };

/** Compiles one of the two builds; throws where WebAssembly cannot. */
export function compileKernel(build: 'simd' | 'baseline'): WebAssembly.Module {
  return new WebAssembly.Module(decodeBase64(BUILDS[build]));
}

let search: WebAssembly.Module | undefined;

/**
 * The search module (enumeration, completions), compiled once; undefined
 * where WebAssembly is unavailable (as for the counting kernel).
 */
export function searchModule(): WebAssembly.Module | undefined {
  if (search || !wasmModule()) return search;
  try {
    search = new WebAssembly.Module(decodeBase64(WASM_SEARCH_BASE64));
  } catch {
    // Compiles wherever the counting kernel did; if not, the TypeScript search runs.
  }
  return search;
}

/** A fresh instance of the search module, with its own memory. */
export function instantiateSearch(module: WebAssembly.Module): WasmSearch {
  return instantiateSync<Record<string, unknown>>(module, {}).exports as unknown as WasmSearch;
}

let compiled: WebAssembly.Module | undefined;
let compiledSimd = false;
let failure: unknown;

/**
 * The compiled kernel, or undefined where WebAssembly is missing or refuses
 * to compile (a CSP without 'wasm-unsafe-eval', some runtimes). Compiled once.
 */
export function wasmModule(): WebAssembly.Module | undefined {
  if (compiled || failure) return compiled;
  try {
    if (typeof WebAssembly !== 'object' || WebAssembly === null)
      throw codedError('WebAssembly is not available', ERROR_CODES.WASM_UNAVAILABLE);
    compiledSimd = typeof WebAssembly.validate === 'function' && WebAssembly.validate(decodeBase64(BUILDS.simd));
    compiled = compileKernel(compiledSimd ? 'simd' : 'baseline');
  } catch (error) {
    failure = error;
  }
  return compiled;
}

/** True when the compiled kernel is the SIMD build. */
export function wasmUsesSimd(): boolean {
  return wasmModule() !== undefined && compiledSimd;
}

/** Why wasm is unavailable, if it is. */
export function wasmFailure(): unknown {
  wasmModule();
  return failure;
}

/** A fresh instance with its own memory (enumerations keep state in it). */
export function instantiateKernel<K extends WasmKernel = WasmKernel>(module: WebAssembly.Module): K {
  return instantiateSync<Record<string, unknown>>(module, {}).exports as unknown as K;
}
