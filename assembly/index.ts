// The wasm kernel's exports. The boundary is numbers only (i32 in, u64 out),
// so the host needs no runtime glue beyond reading a BigInt.
export { countFirstRow } from "./bitmask";
export { countConstellation, lastFixes } from "./symmetry";
export { setSimdTuning } from "./symmetry-simd";
