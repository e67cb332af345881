// The join module's exports: a separate wasm module from the search kernel,
// numbers only at the boundary (i32 in, u64 out).
export { beginPass, beginUnit, configure, countJoinSplit, countProbes } from "./join-kernel";
