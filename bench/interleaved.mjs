// Engines compared subproblem by subproblem: each subproblem of the plan is
// counted by every engine in turn (rotating who goes first), so drift on a
// shared host hits all of them alike. Resolves differences of a few percent
// that whole-count runs, one engine after another, cannot on a noisy machine.
//
//   node bench/interleaved.mjs [n=16] [rounds=1]     (after npm run build)
import { planSubproblems } from '../dist/search/constellations.js';
import { getWasmKernel, jsKernel, wasmKernelFrom } from '../dist/search/search-kernel.js';
import { compileKernel } from '../dist/engines/wasm-loader.js';

const n = Number(process.argv[2] ?? 16);
const rounds = Number(process.argv[3] ?? 1);
const engines = [
  { label: 'symmetry search, wasm (SIMD)', kernel: getWasmKernel() },
  { label: 'symmetry search, wasm without SIMD', kernel: wasmKernelFrom(compileKernel('baseline')) },
  { label: 'symmetry search, TS', kernel: jsKernel },
];
// Warm every engine the way a first count would (the js engine warms itself from n = 16).
const warm = Math.min(n, 13);
for (const { kernel } of engines) for (const s of planSubproblems(warm)) kernel.countSubproblem(warm, s);

const plan = planSubproblems(n);
const ms = engines.map(() => 0);
let turn = 0;
for (let round = 0; round < rounds; round++) {
  for (const s of plan) {
    let expected;
    for (let j = 0; j < engines.length; j++) {
      const e = (j + turn) % engines.length;
      const start = performance.now();
      const { solutions, fixes } = engines[e].kernel.countSubproblem(n, s);
      ms[e] += performance.now() - start;
      const key = `${solutions}/${fixes}`;
      if (expected === undefined) expected = key;
      else if (key !== expected) throw new Error(`subproblem ${s.id}: ${engines[e].label} counted ${key}, not ${expected}`);
    }
    turn++;
  }
}
console.log(`n = ${n}, ${plan.length} subproblems, ${rounds} round(s); time per count and relative to the first engine`);
for (let e = 0; e < engines.length; e++) {
  console.log(`${engines[e].label.padEnd(36)} ${(ms[e] / rounds / 1000).toFixed(3)} s  ${(ms[e] / ms[0]).toFixed(3)}x`);
}
