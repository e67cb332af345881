// The shipped wasm kernel's exports: only what the package calls. The
// boundary is numbers only (i32 in, u64 out), so the host needs no runtime
// glue beyond reading a BigInt. The benchmark's plain DFS and the tests'
// tuning hook are in a separate build (assembly/bench-index.ts).
export { countConstellation, countConstellationFixes } from "./symmetry";
export { solutionsStart, solutionsNext, placementPointer } from "./solutions";
