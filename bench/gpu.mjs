// The WebGPU engine on a real GPU, in Node: for each n, the wall time of
// count(n, { engine: 'webgpu' }) from the call to the result (the device,
// the pipeline and the units included), whether it is exact against OEIS
// A000170, and the CPU join on every core for the same n. Each count is
// printed and appended as one JSON line to bench/results/gpu.jsonl:
//   { date, gpu, driver, cpu, n, ms, exact, cpuMs }
// Where the `webgpu` package (Dawn) is missing, or gives no adapter, it says
// which and exits 1; it also exits 1 when a count fails or is not exact.
//
//   npm run bench:gpu [-- --from 18 --to 21 --no-cpu --results FILE]
// On a lent GPU machine without Node (the kit in ../shared/gpu):
//   bash .device-kit/on-device.sh node bench/gpu.mjs --results "$OUT/gpu.jsonl"
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { count } from 'nqueens-wasm';
import { TOTAL } from './oeis-totals.mjs';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: '18' },
    to: { type: 'string', default: '21' },
    results: { type: 'string', default: fileURLToPath(new URL('results/gpu.jsonl', import.meta.url)) },
    'no-cpu': { type: 'boolean', default: false },
  },
});
const from = Number(values.from);
const to = Number(values.to);
if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from || to >= TOTAL.length) {
  console.error(`bench:gpu: --from and --to must be integers with 1 <= from <= to <= ${TOTAL.length - 1}`);
  process.exit(2);
}

/** The optional peer dependency, named in a variable: it has no types here unless installed. */
const DAWN_PACKAGE = /** @type {string} */ ('webgpu');

/** Fails the bench with a line that says what is missing. */
function missing(what) {
  console.error(`bench:gpu: ${what}`);
  process.exit(1);
}

/** The GPU's name and driver, from Dawn's adapter (and nvidia-smi where there is one); exits 1 where there is none. */
async function describeGpu() {
  let dawn;
  try {
    dawn = await import(DAWN_PACKAGE);
  } catch (error) {
    const code = /** @type {{ code?: string }} */ (error).code;
    if (code === 'ERR_MODULE_NOT_FOUND') missing("no 'webgpu' package: install it (npm install webgpu) to run the WebGPU engine in Node");
    missing(`the 'webgpu' package is installed but does not load here: ${String(/** @type {Error} */ (error).message ?? error)}`);
  }
  // This instance only answers for the adapter; the counts make their own. Dropped before they start.
  const adapter = await dawn.create([]).requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) missing("no adapter: the 'webgpu' package found no GPU it can use (no GPU, or no driver Dawn accepts: Vulkan on Linux)");
  const info = adapter.info ?? {};
  const gpu = [info.vendor, info.device || info.architecture].filter(Boolean).join(' ') || 'unknown GPU';
  return { gpu, driver: nvidiaDriver() ?? (info.description || 'unknown') };
}

function nvidiaDriver() {
  try {
    const out = execFileSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { encoding: 'utf8' });
    const [name, version] = out
      .split('\n')[0]
      .split(',')
      .map((s) => s.trim());
    return version ? `NVIDIA ${version} (${name})` : undefined;
  } catch {
    return undefined;
  }
}

async function timed(n, options) {
  const start = performance.now();
  const r = await count(n, options);
  return { ms: Math.round((performance.now() - start) * 10) / 10, exact: r.total === TOTAL[n] };
}

const { gpu, driver } = await describeGpu();
const cores = availableParallelism();
const cpu = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cores} threads`;
console.log(`GPU: ${gpu}; driver: ${driver}; CPU: ${cpu}`);
mkdirSync(dirname(values.results), { recursive: true });
// The first count of a process opens the GPU (Dawn's instance, adapter and device); a count that follows at
// once reuses the device (webgpu-device.ts). That opening is timed apart, by a count of n = 8, so that each n
// below is timed alike, from the call to the result with its pipeline's compile included. The GPU counts come
// first, one after another, then the CPU's.
const opening = await timed(8, { engine: 'webgpu' }).catch((error) => ({ ms: null, exact: false, error }));
console.log(`opening the GPU (a count of n = 8, first in this process): ${opening.ms ?? '-'} ms${opening.exact ? '' : ', NOT exact'}`);
let failed = !opening.exact;
const lines = [];
for (let n = from; n <= to; n++) {
  const line = { date: new Date().toISOString(), gpu, driver, cpu, n, ms: null, exact: false, cpuMs: null };
  try {
    Object.assign(line, await timed(n, { engine: 'webgpu' }));
  } catch (error) {
    line.error = String(/** @type {Error} */ (error)?.message ?? error);
  }
  failed ||= !line.exact;
  lines.push(line);
  console.log(`n = ${n}: webgpu ${line.ms ?? '-'} ms, ${line.exact ? 'exact' : `NOT exact${line.error ? `: ${line.error}` : ''}`}`);
}
for (const line of lines) {
  if (!values['no-cpu']) {
    try {
      const onCpu = await timed(line.n, { engine: 'wasm', algorithm: 'join', threads: cores });
      if (!onCpu.exact) throw new Error(`the CPU count of n = ${line.n} is not exact`);
      line.cpuMs = onCpu.ms;
      console.log(`n = ${line.n}: CPU join on ${cores} threads ${line.cpuMs} ms`);
    } catch (error) {
      failed = true;
      console.log(`n = ${line.n}: the CPU join failed: ${String(/** @type {Error} */ (error)?.message ?? error)}`);
    }
  }
  const { error, ...recorded } = line;
  appendFileSync(values.results, `${JSON.stringify(error ? line : recorded)}\n`);
}
process.exitCode = failed ? 1 : 0;
// Node should now exit by itself (the package lets Dawn's instance go a moment after the last count). Where it does not, say
// so and exit anyway, so a visit to a GPU machine is not spent waiting.
const stuck = setTimeout(() => {
  console.log('note: Node did not exit by itself within 10 s of the last count (something still holds Dawn); exiting');
  process.exit();
}, 10_000);
stuck.unref();
