// A counting worker: announces itself, receives the board size, its task and
// the compiled kernel once, then counts the batch of units in each 'run'
// message. Runs as a Node worker thread or a module Web Worker.
import { jsKernel, jsSearch, wasmKernelFrom, wasmSearchFrom } from '../engines/engines.js';
import { codedError, ERROR_CODES, rangeError } from '../shared/errors.js';
import { joinCounterFrom } from '../join/join-counter.js';
import type { JoinUnit } from '../join/join-plan.js';
import { countUnit, onePiece, type Unit } from '../search/search-plan.js';
import { importNodeBuiltin, isNode } from './environment.js';
import type { CompletionUnit, FromWorker, Task, TaskUnit, ToWorker, UnitResult } from './messages.js';

type Port = { post(message: FromWorker): void; listen(handler: (message: ToWorker) => void): void };

async function parentPort(): Promise<Port> {
  if (isNode) {
    const { parentPort } = await importNodeBuiltin<typeof import('node:worker_threads')>('worker_threads');
    if (!parentPort) throw codedError('worker.js must run as a worker thread', ERROR_CODES.INTERNAL);
    return { post: (m) => parentPort.postMessage(m), listen: (h) => parentPort.on('message', h) };
  }
  const scope = globalThis as unknown as {
    postMessage(m: FromWorker): void;
    addEventListener(type: 'message', h: (e: MessageEvent<ToWorker>) => void): void;
  };
  return { post: (m) => scope.postMessage(m), listen: (h) => scope.addEventListener('message', (e) => h(e.data)) };
}

/** Counts one unit in pieces: yields the share done between pieces, returns the count. */
type UnitCounter = (unit: TaskUnit<Task>) => Generator<number, bigint, undefined>;

let counter: UnitCounter | undefined;
let n = 0;
let reportEveryMs = 0;

/**
 * Results go back at most this often within a batch (and at its end):
 * often enough for progress, rarely enough that the threads seldom wake
 * each other, which costs far more than the message on virtual machines.
 */
const REPORT_EVERY_MS = 50;

function checkConstellation(unit: Unit): void {
  const s = unit?.constellation;
  for (const key of ['a', 'b', 'c', 'd'] as const) {
    if (!Number.isInteger(s?.[key]) || s[key] < 0 || s[key] >= n)
      throw rangeError(`unit ${unit?.id}: ${key} = ${s?.[key]} is not a column/row of an n = ${n} board`);
  }
}

function counterFor(task: Task, module: WebAssembly.Module | null): UnitCounter {
  if (task === 'join') {
    const join = joinCounterFrom(module ? 'wasm' : 'js', module);
    return (unit) => onePiece(join.countUnit(n, unit as JoinUnit));
  }
  if (task === 'completions') {
    const search = module ? wasmSearchFrom(module) : jsSearch;
    return (unit) => {
      const u = unit as CompletionUnit;
      return onePiece(search.countOpenRows(u.rows, u.allow));
    };
  }
  const kernel = module ? wasmKernelFrom(module) : jsKernel;
  return (unit) => {
    checkConstellation(unit as Unit);
    return countUnit(kernel, n, unit as Unit);
  };
}

function handle(port: Port, message: ToWorker): void {
  try {
    if (message.type === 'init') {
      n = message.n;
      reportEveryMs = message.reportEveryMs ?? REPORT_EVERY_MS;
      counter = counterFor(message.task, message.module);
      if (message.warm) for (const steps = counter(message.warm); !steps.next().done;);
      port.post({ type: 'ready' });
      return;
    }
    if (!counter) throw codedError("'run' before 'init'", ERROR_CODES.INTERNAL);
    let results: UnitResult[] = [];
    let lastReport = performance.now();
    for (const unit of message.units) {
      // Counted in pieces; between them, results and the share done go back every reportEveryMs.
      const steps = counter(unit);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          results.push({ id: unit.id, count: step.value });
          break;
        }
        const now = performance.now();
        if (now - lastReport >= reportEveryMs) {
          port.post({ type: 'results', results, batchDone: false, partial: { id: unit.id, share: step.value } });
          results = [];
          lastReport = now;
        }
      }
    }
    port.post({ type: 'results', results, batchDone: true });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const code = (e as { code?: unknown }).code;
    port.post({ type: 'error', message: e.message, name: e.name, stack: e.stack, code: typeof code === 'string' ? code : undefined });
  }
}

// No top-level await: bundlers emit workers as classic scripts (Vite's default
// worker format is 'iife'), where it is a build error. A rejection here still
// fails the worker in Node (an unhandled rejection ends the thread).
void parentPort().then((port) => {
  port.listen((message) => handle(port, message));
  // Say so once listening: a message sent before the listener existed could be lost.
  port.post({ type: 'online' });
});
