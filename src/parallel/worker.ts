// A counting worker: announces itself, receives the board size and the compiled kernel once,
// then counts the batch of subproblems in each 'run' message. Runs as a Node worker thread
// or a module Web Worker.
import type { Subproblem, SubproblemCount } from '../constellations.js';
import { jsKernel, jsSearch, wasmKernelFrom, wasmSearchFrom } from '../engines.js';
import { joinCounter } from '../join.js';
import type { JoinUnit } from '../kernels/join-plan.js';
import { codedError, ERROR_CODES, rangeError } from '../errors.js';
import { importNodeBuiltin, isNode } from './environment.js';
import type { CompletionUnit, FromWorker, SubproblemResult, Task, ToWorker } from './messages.js';

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

/** Counts one unit of the task this worker was started for. */
type Unit = Subproblem | JoinUnit | CompletionUnit;
let countUnit: ((unit: Unit) => SubproblemCount) | undefined;
let n = 0;

function checkSubproblem(s: Subproblem): void {
  for (const key of ['a', 'b', 'c', 'd'] as const) {
    if (!Number.isInteger(s?.[key]) || s[key] < 0 || s[key] >= n) throw rangeError(`subproblem ${s?.id}: ${key} = ${s?.[key]} is not a column/row of an n = ${n} board`);
  }
}

function unitCounter(task: Task, module: WebAssembly.Module | null): (unit: Unit) => SubproblemCount {
  if (task === 'join') {
    const counter = joinCounter(module ? 'wasm' : 'js', module ?? undefined);
    return (unit) => ({ solutions: counter.countUnit(n, unit as JoinUnit), fixes: 0n });
  }
  if (task === 'completions') {
    const search = module ? wasmSearchFrom(module) : jsSearch;
    return (unit) => {
      const u = unit as CompletionUnit;
      return { solutions: search.countOpenRows(u.rows, u.allow), fixes: 0n };
    };
  }
  const kernel = module ? wasmKernelFrom(module) : jsKernel;
  return (unit) => {
    checkSubproblem(unit as Subproblem);
    return kernel.countSubproblem(n, unit as Subproblem);
  };
}

/**
 * Results go back at most this often within a batch (and at its end):
 * often enough for progress, rarely enough that the threads seldom wake
 * each other, which costs far more than the message on virtual machines.
 */
const REPORT_EVERY_MS = 50;

function handle(port: Port, message: ToWorker): void {
  try {
    if (message.type === 'init') {
      n = message.n;
      countUnit = unitCounter(message.task, message.module);
      port.post({ type: 'ready' });
      return;
    }
    if (!countUnit) throw codedError("'run' before 'init'", ERROR_CODES.INTERNAL);
    let results: SubproblemResult[] = [];
    let lastReport = performance.now();
    for (const unit of message.subproblems) {
      results.push({ id: unit.id, ...countUnit(unit) });
      const now = performance.now();
      if (now - lastReport >= REPORT_EVERY_MS) {
        port.post({ type: 'results', results, batchDone: false });
        results = [];
        lastReport = now;
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
