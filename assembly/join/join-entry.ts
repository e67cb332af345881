// The join module's exports: a separate wasm module from the search kernel,
// numbers only at the boundary (i32 in, u64 out).
export { configure } from "./join-memory";
export { beginPass, beginUnit } from "./join-kernel";
export { countProbes } from "./join-probes";
