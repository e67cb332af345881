// Loads the bench/test build of the wasm kernel (assembly/baseline/bench-entry.ts):
// the shipped exports plus the plain bitmask DFS (countFirstRow) and the SIMD
// tuning hook (setSimdTuning). `npm run build` writes it to build/; it is
// read from there, never embedded in dist/, so the package ships without it.
import { readFileSync } from 'node:fs';
import { wasmKernelFrom } from '../dist/search/search-kernel.js';
import { instantiateKernel, u64 } from '../dist/engines/wasm-loader.js';

/** @typedef {import('../dist/engines/wasm-loader.js').WasmBenchKernel} WasmBenchKernel */
/** @typedef {import('../dist/search/search-kernel.js').Kernel} Kernel */

const files = { simd: 'nqueens-bench-simd.wasm', baseline: 'nqueens-bench.wasm' };

/**
 * The compiled bench build.
 * @param {'simd' | 'baseline'} build
 * @returns {WebAssembly.Module}
 */
export function compileBenchKernel(build) {
  return new WebAssembly.Module(readFileSync(new URL(`../build/${files[build]}`, import.meta.url)));
}

/**
 * A fresh instance of the bench build, with its raw exports (i64 results as signed bigints).
 * @param {'simd' | 'baseline'} build
 * @returns {WasmBenchKernel}
 */
export function benchInstance(build) {
  return instantiateKernel(compileBenchKernel(build));
}

/**
 * The plain bitmask DFS of the bench build: solutions with the row-0 queen in column `col`.
 * @param {'simd' | 'baseline'} build
 * @returns {(n: number, col: number) => bigint}
 */
export function wasmCountFirstRow(build) {
  const k = benchInstance(build);
  return (n, col) => u64(k.countFirstRow(n, col));
}

/**
 * An engine Kernel over the bench build (the same code as the shipped one, plus the hooks).
 * @param {'simd' | 'baseline'} build
 * @param {{ laneRows: number, minRows: number }} [simdTuning] passed to setSimdTuning before the warm-up
 * @returns {Kernel}
 */
export function benchKernel(build, simdTuning) {
  /** @type {(k: WasmBenchKernel) => void} */
  const setUp = (k) => {
    if (simdTuning) k.setSimdTuning(simdTuning.laneRows, simdTuning.minRows);
  };
  return wasmKernelFrom(compileBenchKernel(build), setUp);
}
