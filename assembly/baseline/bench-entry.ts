// The bench/test build: the shipped exports (assembly/search/search-entry.ts) plus the
// plain bitmask DFS the benchmark compares against and the SIMD tuning hook
// the tests use. Written to build/nqueens-bench*.wasm and loaded from there
// by bench/ and test/ (bench/wasm-bench.mjs); never embedded in dist/.
export * from "../search/search-entry";
export { countFirstRow } from "./bitmask";
export { setSimdTuning } from "../search/symmetry-simd";
