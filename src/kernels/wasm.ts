// Loads the AssemblyScript kernel from the bytes inlined at build time. There
// are two builds of one source: with wasm SIMD (a search that prunes far
// more, see assembly/symmetry-simd.ts) and without, for engines that lack it.
// The kernel's boundary is numbers only, so @assemblyscript/loader has
// nothing to marshal: it instantiates synchronously and demangles exports.
import { instantiateSync } from '@assemblyscript/loader';
import { WASM_BASE64, WASM_SIMD_BASE64 } from './wasm-bytes.generated.js';

/** The shipped kernel's exports (assembly/index.ts). i64 results arrive as (signed) bigint. */
export interface WasmKernel {
  /** Solutions containing the border constellation (a, b, c, d). */
  countConstellation(n: number, a: number, b: number, c: number, d: number): bigint;
  /** Pairs (solution, symmetry g in the mask `symmetries`) where g maps the solution to itself. */
  countConstellationFixes(n: number, a: number, b: number, c: number, d: number, symmetries: number): bigint;
  solutionsStart(n: number): void;
  solutionsNext(): number;
  placementPointer(): number;
  memory: WebAssembly.Memory;
}

/**
 * The bench/test build's exports (assembly/bench-index.ts, build/nqueens-bench*.wasm,
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

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Compiles one of the two builds; throws where WebAssembly cannot. */
export function compileKernel(build: 'simd' | 'baseline'): WebAssembly.Module {
  return new WebAssembly.Module(decodeBase64(build === 'simd' ? WASM_SIMD_BASE64 : WASM_BASE64));
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
    if (typeof WebAssembly !== 'object' || WebAssembly === null) throw new Error('WebAssembly is not available');
    compiledSimd = typeof WebAssembly.validate === 'function' && WebAssembly.validate(decodeBase64(WASM_SIMD_BASE64));
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
