// The demo page: count N-Queens solutions with the package's public API.
import * as nqueens from '../dist/index.js';
import type { AlgorithmChoice, AlgorithmName, CountOptions, EngineChoice, Progress } from '../dist/index.js';
import { formatMs, formatRate } from '../dist/shared/rate.js';
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
const algorithmSelect = $<HTMLSelectElement>('algorithm');
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
  algorithm: $('ran-algorithm'),
  threads: $('ran-threads'),
  time: $('time'),
  rate: $('rate'),
};

// More threads than cores only take turns on them: offer up to the cores there are.
const cores = navigator.hardwareConcurrency || 1;
threadsSelect.add(new Option(`auto (${cores} from N = ${nqueens.AUTO_THREADS_MIN_N})`, ''));
for (let t = 1; t <= cores; t++) threadsSelect.add(new Option(String(t), String(t)));

const integer = new Intl.NumberFormat('en-US');

/** The join's unique count follows from its whole total: until its last unit, say so instead of showing 0. */
const AFTER_LAST_UNIT = 'after the last unit';

function showCounts(total: bigint, unique: bigint | undefined): void {
  fields.total.textContent = integer.format(total);
  fields.unique.textContent = unique === undefined ? AFTER_LAST_UNIT : integer.format(unique);
}

/**
 * The plan a count will run: what count() resolves 'auto' to (the GPU and
 * the reference run the search), and whether its unique count comes only
 * with the last unit.
 */
function planFor(n: number, engine: EngineChoice, choice: AlgorithmChoice): { algorithm: AlgorithmName; uniqueWithLastUnit: boolean } {
  if (engine === 'webgpu' || engine === 'reference') return { algorithm: 'search', uniqueWithLastUnit: false };
  const plan = nqueens.planUnits(n, { algorithm: choice });
  return { algorithm: plan.algorithm, uniqueWithLastUnit: plan.uniqueWithLastUnit };
}

const { MIN_N, MAX_N } = nqueens;

/** An N the API takes, else undefined with the reason on the status line and the old results cleared. */
function validN(): number | undefined {
  const n = nInput.valueAsNumber;
  if (Number.isInteger(n) && n >= MIN_N && n <= MAX_N) return n;
  for (const field of Object.values(fields)) field.textContent = '–';
  boards.replaceChildren();
  progressBar.value = 0;
  status.textContent = `N must be a whole number from ${MIN_N} to ${MAX_N}.`;
  return undefined;
}

nInput.addEventListener('input', () => {
  if (validN() !== undefined && !controller) status.textContent = 'Pick N and press Count.';
});

function showTime(ms: number, total: bigint): void {
  fields.time.textContent = formatMs(ms);
  fields.rate.textContent = formatRate(total, ms);
}

/**
 * A count that did not finish: what its progress added up is not a result,
 * so it is marked as partial; the join's unique count never came; and no
 * algorithm, engine or threads are shown, as nothing finished running.
 */
function showUnfinished(): void {
  for (const field of [fields.total, fields.unique]) {
    const shown = field.textContent ?? '';
    field.textContent = /^[\d,]+$/.test(shown) ? `${shown} (partial)` : '–';
  }
  for (const field of [fields.engine, fields.algorithm, fields.threads, fields.time, fields.rate]) field.textContent = '–';
}

function drawBoards(n: number, engine: Exclude<EngineChoice, 'webgpu'>): void {
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
  const n = validN();
  if (n === undefined) {
    controller = undefined;
    return;
  }
  const engine = engineSelect.value as EngineChoice;
  const choice = algorithmSelect.value as AlgorithmChoice;
  let algorithm: AlgorithmName;
  let uniqueWithLastUnit: boolean;
  try {
    ({ algorithm, uniqueWithLastUnit } = planFor(n, engine, choice));
  } catch (error) {
    // Refused before counting (the join past its n): nothing of an earlier count stays up, and no count runs.
    controller = undefined;
    for (const field of Object.values(fields)) field.textContent = '–';
    boards.replaceChildren();
    progressBar.value = 0;
    status.textContent = `${(error as Error).name}: ${(error as Error).message}`;
    return;
  }
  const options: CountOptions = {
    engine,
    algorithm: choice,
    signal: run.signal,
    onProgress: (p: Progress) => {
      progressBar.value = p.fraction;
      const done = p.finished === p.units;
      showCounts(p.total, uniqueWithLastUnit && !done ? undefined : p.unique);
      status.textContent = `Counting N = ${n} (${algorithm}): ${p.finished} of ${p.units} units…`;
    },
  };
  // The GPU runs the whole count, and the reference on this thread alone: threads are for the wasm and js engines.
  if (threadsSelect.value && engine !== 'webgpu' && engine !== 'reference') options.threads = Number(threadsSelect.value);

  countButton.disabled = true;
  cancelButton.disabled = false;
  progressBar.value = 0;
  for (const field of Object.values(fields)) field.textContent = '–';
  if (uniqueWithLastUnit) fields.unique.textContent = AFTER_LAST_UNIT;
  status.textContent = `Counting N = ${n} (${algorithm})…`;
  try {
    drawBoards(n, engine === 'webgpu' ? 'auto' : engine); // the GPU only counts
    const r = await count(n, options);
    showCounts(r.total, r.unique);
    fields.engine.textContent = r.engine;
    fields.algorithm.textContent = r.algorithm;
    fields.threads.textContent = String(r.threads);
    showTime(r.elapsedMs, r.total);
    progressBar.value = 1;
    status.textContent = `Done: N = ${n}, by the ${r.algorithm}.`;
  } catch (error) {
    const e = error as Error;
    if (controller === run) {
      status.textContent = e.name === 'AbortError' ? 'Cancelled.' : `${e.name}: ${e.message}`;
      showUnfinished();
    }
  } finally {
    if (controller === run) {
      controller = undefined;
      countButton.disabled = false;
      cancelButton.disabled = true;
    }
  }
});

cancelButton.addEventListener('click', () => controller?.abort());
