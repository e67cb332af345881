// The benchmark section of the demo page: every engine in this browser over
// a range of n, as a chart (time against n, log scale), a table and JSON.
// The calling-thread engines are the package's internal kernels (the wasm
// build without SIMD cannot be chosen through the public API).
import { count, countSync, JOIN_MAX_N } from '../dist/index.js';
import { getWasmKernel, jsKernel, wasmKernelFrom, type Kernel } from '../dist/search/search-kernel.js';
import { compileKernel, wasmUsesSimd } from '../dist/engines/wasm-loader.js';
import { countReference } from '../dist/engines/reference.js';
import { countAll } from '../dist/search/tally.js';
import { formatDuration, timeChartSvg } from '../bench/chart.mjs';

interface Engine {
  id: string;
  label: string;
  /** Largest n it runs in the page's range (the reference is slow). */
  maxN: number;
  run(n: number): Promise<{ total: bigint; unique: bigint }>;
  /** Ticked when the page opens (default true). */
  checked?: boolean;
}

export interface BenchRow {
  n: number;
  engine: string;
  label: string;
  /** Median of the rounds, in ms. */
  medianMs: number;
  timesMs: number[];
  total: string;
  unique: string;
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const cores = navigator.hardwareConcurrency || 1;

function kernelEngine(id: string, label: string, kernel: () => Kernel): Engine {
  return { id, label, maxN: 32, run: async (n) => countAll(n, kernel()) };
}

function joinEngine(id: string, label: string, engine: 'wasm' | 'js'): Engine {
  return { id, label, maxN: JOIN_MAX_N, run: async (n) => countSync(n, { engine, algorithm: 'join' }) };
}

let baseline: Kernel | undefined;

/** The engines on offer here: the kernels on this thread, the reference, and 1 to hardwareConcurrency workers. */
export function benchEngines(): Engine[] {
  const engines: Engine[] = [];
  const wasm = getWasmKernel();
  if (wasm && wasmUsesSimd()) engines.push(kernelEngine('wasm-simd', 'wasm (SIMD), this thread', () => wasm));
  if (wasm)
    engines.push(
      kernelEngine('wasm-baseline', 'wasm without SIMD, this thread', () => (baseline ??= wasmKernelFrom(compileKernel('baseline')))),
    );
  engines.push(kernelEngine('js', 'TypeScript, this thread', () => jsKernel));
  engines.push({ id: 'reference', label: 'reference (array backtracking)', maxN: 13, run: async (n) => countReference(n) });
  // The half-board join, on this thread (its tables fit up to JOIN_MAX_N).
  if (wasm) engines.push(joinEngine('join-wasm', 'join, wasm, this thread', 'wasm'));
  engines.push(joinEngine('join-js', 'join, TypeScript, this thread', 'js'));
  // WebGPU only where the browser has it; unticked, since an adapter may still be missing.
  if ('gpu' in navigator) {
    engines.push({ id: 'webgpu', label: 'WebGPU', maxN: 32, checked: false, run: (n) => count(n, { engine: 'webgpu' }) });
  }
  for (let k = 1; k <= cores; k++) {
    engines.push({
      id: `workers-${k}`,
      label: `${k} worker${k > 1 ? 's' : ''} (${wasm ? 'wasm' : 'js'})`,
      maxN: 32,
      run: (n) => count(n, { threads: k }),
    });
  }
  return engines;
}

/** Browser and machine details, as far as the browser tells. */
export function environment(): Record<string, string | number | boolean> {
  const nav = navigator as Navigator & {
    deviceMemory?: number;
    userAgentData?: { brands?: { brand: string; version: string }[]; platform?: string; mobile?: boolean };
  };
  const env: Record<string, string | number | boolean> = {
    userAgent: nav.userAgent,
    platform: nav.userAgentData?.platform || nav.platform || 'unknown',
    hardwareConcurrency: cores,
    wasmSimd: wasmUsesSimd(),
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
  };
  if (nav.userAgentData?.brands) env.brands = nav.userAgentData.brands.map((b) => `${b.brand} ${b.version}`).join(', ');
  if (nav.deviceMemory !== undefined) env.deviceMemoryGiB = nav.deviceMemory;
  return env;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Browsers round performance.now() (to 0.1 ms or coarser): short counts repeat until this much time has passed. */
const MIN_SAMPLE_MS = 20;

/** The time of one run, averaged over as many runs as fill MIN_SAMPLE_MS. */
async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  let result = await run();
  let runs = 1;
  while (performance.now() - start < MIN_SAMPLE_MS) {
    result = await run();
    runs++;
  }
  return { ms: (performance.now() - start) / runs, result };
}

const nextFrame = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Wires up the benchmark section (called by main.ts: a module with only side effects would be tree-shaken, the package has sideEffects: false). */
export function setupBenchmark(): void {
  const form = $<HTMLFormElement>('bench-controls');
  const fromInput = $<HTMLInputElement>('bench-from');
  const toInput = $<HTMLInputElement>('bench-to');
  const roundsInput = $<HTMLInputElement>('bench-rounds');
  const engineBoxes = $('bench-engines');
  const runButton = $<HTMLButtonElement>('bench-run');
  const stopButton = $<HTMLButtonElement>('bench-stop');
  const status = $('bench-status');
  const chart = $('bench-chart');
  const table = $<HTMLTableElement>('bench-table');
  const download = $<HTMLAnchorElement>('bench-download');
  const envList = $('bench-env');

  const engines = benchEngines();
  for (const e of engines) {
    const label = document.createElement('label');
    label.className = 'check';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = e.id;
    box.checked = e.checked ?? true;
    label.append(box, ` ${e.label}`);
    engineBoxes.append(label);
  }
  const env = environment();
  for (const [key, value] of Object.entries(env)) {
    const dt = document.createElement('dt');
    dt.textContent = key;
    const dd = document.createElement('dd');
    dd.textContent = String(value);
    envList.append(dt, dd);
  }

  let stopped = false;

  function render(rows: BenchRow[], sizes: number[], chosen: Engine[]): void {
    const series = chosen.map((e) => ({
      label: e.label,
      points: rows.filter((r) => r.engine === e.id).map((r) => ({ n: r.n, ms: r.medianMs })),
    }));
    chart.innerHTML = rows.length
      ? timeChartSvg({ title: 'Time per count in this browser', subtitle: `${cores} logical cores`, series })
      : '';
    const head = `<tr><th>engine</th>${sizes.map((n) => `<th>n = ${n}</th>`).join('')}</tr>`;
    const totals = `<tr class="totals"><th>total (unique)</th>${sizes
      .map((n) => {
        const r = rows.find((x) => x.n === n);
        const agree = rows.filter((x) => x.n === n).every((x) => x.total === r?.total && x.unique === r?.unique);
        return `<td data-n="${n}">${r ? `${r.total} (${r.unique})${agree ? '' : ' ≠'}` : '–'}</td>`;
      })
      .join('')}</tr>`;
    const body = chosen
      .map((e) => {
        const cells = sizes.map((n) => {
          const r = rows.find((x) => x.n === n && x.engine === e.id);
          return `<td data-engine="${e.id}" data-n="${n}"${r ? ` data-total="${r.total}"` : ''}>${r ? formatDuration(r.medianMs) : '–'}</td>`;
        });
        return `<tr><th>${e.label}</th>${cells.join('')}</tr>`;
      })
      .join('');
    table.innerHTML = `<thead>${head}</thead><tbody>${totals}${body}</tbody>`;
    const json = JSON.stringify({ date: new Date().toISOString(), environment: env, sizes, rows }, null, 2);
    download.href = `data:application/json;charset=utf-8,${encodeURIComponent(json)}`;
    download.hidden = rows.length === 0;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const from = fromInput.valueAsNumber;
    const to = toInput.valueAsNumber;
    const rounds = Math.max(1, roundsInput.valueAsNumber || 1);
    if (!(from >= 1 && to <= 32 && from <= to)) {
      status.textContent = 'Pick n from 1 to 32, from <= to.';
      return;
    }
    const ids = new Set([...engineBoxes.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value));
    const chosen = engines.filter((e) => ids.has(e.id));
    const sizes = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const rows: BenchRow[] = [];
    stopped = false;
    runButton.disabled = true;
    stopButton.disabled = false;
    try {
      for (const n of sizes) {
        // Engines take turns within each round, so a slow moment lands on all of them.
        const times = new Map<string, number[]>();
        const results = new Map<string, { total: bigint; unique: bigint }>();
        for (let round = 0; round < rounds; round++) {
          for (const e of chosen) {
            if (n > e.maxN) continue;
            if (stopped) throw new Error('stopped');
            status.textContent = `n = ${n}: ${e.label}, round ${round + 1} of ${rounds}…`;
            await nextFrame();
            const { ms, result: r } = await timed(() => e.run(n));
            times.set(e.id, [...(times.get(e.id) ?? []), ms]);
            results.set(e.id, r);
          }
        }
        for (const e of chosen) {
          const t = times.get(e.id);
          const r = results.get(e.id);
          if (!t || !r) continue;
          rows.push({ n, engine: e.id, label: e.label, medianMs: median(t), timesMs: t, total: String(r.total), unique: String(r.unique) });
        }
        render(rows, sizes, chosen);
      }
      status.textContent = `Done: ${rows.length} measurements.`;
    } catch (error) {
      status.textContent = (error as Error).message === 'stopped' ? 'Stopped.' : `${(error as Error).name}: ${(error as Error).message}`;
    } finally {
      runButton.disabled = false;
      stopButton.disabled = true;
    }
  });

  stopButton.addEventListener('click', () => {
    stopped = true;
  });
}
