// The shipped wasm kernel's exports: only what the package calls. The
// boundary is numbers only (i32 in, u64 out), so the host needs no runtime
// glue beyond reading a BigInt. The benchmark's plain DFS and the tests'
// tuning hook are in a separate build (assembly/baseline/bench-entry.ts); enumeration
// and completions are a module of their own (assembly/completions/open-rows.ts).
export { countConstellation, countConstellationFixes } from "./symmetry";
