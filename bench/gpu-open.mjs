// Where the first WebGPU count of a Node process spends its time before it
// counts: loading the `webgpu` package (Dawn), creating its instance, finding
// the adapter, opening the device; then a count of N on a device of its own
// and a second count that reuses the device the first left waiting. One JSON
// line: { importMs, instanceMs, adapterMs, deviceMs, firstCountMs, secondCountMs, n }.
//   node bench/gpu-open.mjs [N]   (after npm run build; Node with `webgpu`)
import { count } from 'nqueens-wasm';

const n = Number(process.argv[2] ?? 18);
const DAWN_PACKAGE = /** @type {string} */ ('webgpu');
const since = (start) => Math.round((performance.now() - start) * 10) / 10;
let t = performance.now();
const dawn = await import(DAWN_PACKAGE);
const importMs = since(t);
t = performance.now();
const gpu = dawn.create(['enable-dawn-features=disable_robustness']);
const instanceMs = since(t);
t = performance.now();
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const adapterMs = since(t);
t = performance.now();
const device = await adapter.requestDevice();
const deviceMs = since(t);
device.destroy();
t = performance.now();
await count(n, { engine: 'webgpu' });
const firstCountMs = since(t);
t = performance.now();
await count(n, { engine: 'webgpu' });
const secondCountMs = since(t);
console.log(JSON.stringify({ importMs, instanceMs, adapterMs, deviceMs, firstCountMs, secondCountMs, n }));
gpu.toString(); // the instance is held until its device is gone
