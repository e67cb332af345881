// The one table of the package's wasm modules: the AssemblyScript entry,
// the asconfig.json target it is built with (which says SIMD or not), the
// file in build/, the constant it is inlined as (shipped modules only) and
// its size budget. scripts/build-wasm.mjs builds from it, scripts/embed-wasm.mjs
// inlines from it, and test/wasm-modules.test.ts checks the built sizes.

/** Bytes a shipped module may take: small enough to compile synchronously everywhere. */
export const MODULE_BUDGET = 4096;

/**
 * Bytes of the join's SIMD build. Chrome before 114 (2023) refuses synchronous
 * compiles of more than 4 KB on a page's main thread (Chromium 150 allows 8 MiB;
 * Firefox and Safari never limited them): there the loader falls back to the
 * build without SIMD, which keeps MODULE_BUDGET (src/engines/wasm-loader.ts).
 */
export const JOIN_SIMD_BUDGET = 5120;

/**
 * @typedef {object} WasmModule
 * @property {string} entry       AssemblyScript entry file
 * @property {string} target      asconfig.json target (its `enable` says SIMD)
 * @property {boolean} simd
 * @property {string} file        output in build/
 * @property {string | null} constant  exported base64 constant in src/engines/wasm-bytes.generated.ts
 *                                   (src/engines/wasm-shared-bytes.generated.ts if `lazy`); null: not shipped
 * @property {boolean} [lazy]         in its own file, imported only when used (bundlers give it its own chunk)
 * @property {number} budget      most bytes
 */

/** @type {readonly WasmModule[]} */
export const WASM_MODULES = [
  // The symmetry search's counting kernel (src/search/).
  {
    entry: 'assembly/search/search-entry.ts',
    target: 'speed',
    simd: false,
    file: 'nqueens.wasm',
    constant: 'WASM_BASE64',
    budget: MODULE_BUDGET,
  },
  {
    entry: 'assembly/search/search-entry.ts',
    target: 'small-simd',
    simd: true,
    file: 'nqueens-simd.wasm',
    constant: 'WASM_SIMD_BASE64',
    budget: MODULE_BUDGET,
  },
  // The half-board join (src/join/).
  {
    entry: 'assembly/join/join-entry.ts',
    target: 'speed',
    simd: false,
    file: 'nqueens-join.wasm',
    constant: 'JOIN_WASM_BASE64',
    budget: MODULE_BUDGET,
  },
  {
    entry: 'assembly/join/join-entry.ts',
    target: 'speed-simd',
    simd: true,
    file: 'nqueens-join-simd.wasm',
    constant: 'JOIN_WASM_SIMD_BASE64',
    budget: JOIN_SIMD_BUDGET,
  },
  // The join's shared build: one memory for every worker of a count (threads feature), compiled
  // asynchronously for workers only, so it is not held to the synchronous-compile budget.
  {
    entry: 'assembly/join/join-entry.ts',
    target: 'speed-simd-shared',
    simd: true,
    file: 'nqueens-join-shared.wasm',
    constant: 'JOIN_WASM_SHARED_BASE64',
    budget: 6144,
    lazy: true,
  },
  // Enumeration and completions (src/completions/).
  {
    entry: 'assembly/completions/open-rows.ts',
    target: 'speed',
    simd: false,
    file: 'open-rows.wasm',
    constant: 'WASM_OPEN_ROWS_BASE64',
    budget: MODULE_BUDGET,
  },
  // The benchmark's build: the search kernel plus the plain bitmask DFS (never shipped).
  { entry: 'assembly/baseline/bench-entry.ts', target: 'speed', simd: false, file: 'nqueens-bench.wasm', constant: null, budget: 8192 },
  {
    entry: 'assembly/baseline/bench-entry.ts',
    target: 'small-simd',
    simd: true,
    file: 'nqueens-bench-simd.wasm',
    constant: null,
    budget: 8192,
  },
];
