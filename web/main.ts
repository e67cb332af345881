// The demo page: count N-Queens solutions with the package's public API.
import * as nqueens from '../dist/index.js';
import type { CountOptions, EngineChoice, Progress } from '../dist/index.js';
import { boardElement } from './board';
import { setupBenchmark } from './bench';
import { setupViewer } from './viewer';

const { count, solutions } = nqueens;

// For the console (and the browser tests): `await nqueens.count(14)`.
(globalThis as { nqueens?: typeof nqueens }).nqueens = nqueens;

setupViewer();
setupBenchmark();

const BOARDS = 3;
/** Beyond this the first solutions take seconds to find, on the page's own thread. */
const MAX_BOARD_N = 28;

function $<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

const form = $<HTMLFormElement>('controls');
const nInput = $<HTMLInputElement>('n');
const engineSelect = $<HTMLSelectElement>('engine');
const threadsSelect = $<HTMLSelectElement>('threads');
const countButton = $<HTMLButtonElement>('count');
const cancelButton = $<HTMLButtonElement>('cancel');
const progressBar = $<HTMLProgressElement>('progress');
const status = $('status');
const boards = $('boards');
const fields = {
  total: $('total'),
  unique: $('unique'),
  engine: $('ran-engine'),
  threads: $('ran-threads'),
  time: $('time'),
  rate: $('rate'),
};

const cores = navigator.hardwareConcurrency || 1;
threadsSelect.add(new Option(`auto (${cores} from N = ${nqueens.AUTO_THREADS_MIN_N})`, ''));
for (let t = 1; t <= Math.min(16, Math.max(4, cores)); t++) threadsSelect.add(new Option(String(t), String(t)));

const integer = new Intl.NumberFormat('en-US');

function showCounts(total: bigint, unique: bigint): void {
  fields.total.textContent = integer.format(total);
  fields.unique.textContent = integer.format(unique);
}

function showTime(ms: number, total: bigint): void {
  fields.time.textContent = ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
  const perSecond = ms > 0 ? Number(total) / (ms / 1000) : 0;
  fields.rate.textContent = `${(perSecond / 1e6).toFixed(2)} M solutions/s`;
}

function drawBoards(n: number, engine: EngineChoice): void {
  boards.replaceChildren();
  if (n > MAX_BOARD_N) {
    boards.textContent = `Boards are drawn up to N = ${MAX_BOARD_N}.`;
    return;
  }
  for (const placement of solutions(n, { limit: BOARDS, engine })) boards.append(boardElement(n, placement));
  if (!boards.childElementCount) boards.textContent = `N = ${n} has no solutions.`;
}

let controller: AbortController | undefined;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  controller?.abort();
  const run = new AbortController();
  controller = run;
  const n = nInput.valueAsNumber;
  const engine = engineSelect.value as EngineChoice;
  const options: CountOptions = {
    engine,
    signal: run.signal,
    onProgress: (p: Progress) => {
      progressBar.value = p.fraction;
      showCounts(p.total, p.unique);
      status.textContent = `Counting N = ${n}: ${p.finished} of ${p.subproblems} subproblems…`;
    },
  };
  // The GPU runs the whole count; threads are for the CPU engines.
  if (threadsSelect.value && engine !== 'webgpu') options.threads = Number(threadsSelect.value);

  countButton.disabled = true;
  cancelButton.disabled = false;
  progressBar.value = 0;
  for (const field of Object.values(fields)) field.textContent = '–';
  status.textContent = `Counting N = ${n}…`;
  try {
    drawBoards(n, engine === 'webgpu' ? 'auto' : engine); // the GPU only counts
    const r = await count(n, options);
    showCounts(r.total, r.unique);
    fields.engine.textContent = r.engine;
    fields.threads.textContent = String(r.threads);
    showTime(r.elapsedMs, r.total);
    progressBar.value = 1;
    status.textContent = `Done: N = ${n}.`;
  } catch (error) {
    const e = error as Error;
    status.textContent = e.name === 'AbortError' ? 'Cancelled.' : `${e.name}: ${e.message}`;
  } finally {
    if (controller === run) {
      controller = undefined;
      countButton.disabled = false;
      cancelButton.disabled = true;
    }
  }
});

cancelButton.addEventListener('click', () => controller?.abort());
