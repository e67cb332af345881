// A counting worker: announces itself, receives the board size and the compiled kernel once,
// then counts the batch of subproblems in each 'run' message. Runs as a Node worker thread
// or a module Web Worker.
import { jsKernel, wasmKernelFrom, type Kernel } from '../engines.js';
import { importNodeBuiltin, isNode } from './environment.js';
import type { FromWorker, SubproblemResult, ToWorker } from './messages.js';

type Port = { post(message: FromWorker): void; listen(handler: (message: ToWorker) => void): void };

async function parentPort(): Promise<Port> {
  if (isNode) {
    const { parentPort } = await importNodeBuiltin<typeof import('node:worker_threads')>('worker_threads');
    if (!parentPort) throw new Error('worker.js must run as a worker thread');
    return { post: (m) => parentPort.postMessage(m), listen: (h) => parentPort.on('message', h) };
  }
  const scope = globalThis as unknown as {
    postMessage(m: FromWorker): void;
    addEventListener(type: 'message', h: (e: MessageEvent<ToWorker>) => void): void;
  };
  return { post: (m) => scope.postMessage(m), listen: (h) => scope.addEventListener('message', (e) => h(e.data)) };
}

let kernel: Kernel | undefined;
let n = 0;
let reportEveryMs = 0;

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
      reportEveryMs = message.reportEveryMs ?? REPORT_EVERY_MS;
      kernel = message.module ? wasmKernelFrom(message.module) : jsKernel;
      port.post({ type: 'ready' });
      return;
    }
    if (!kernel) throw new Error("'run' before 'init'");
    let results: SubproblemResult[] = [];
    let lastReport = performance.now();
    for (const s of message.subproblems) {
      for (const key of ['a', 'b', 'c', 'd'] as const) {
        if (!Number.isInteger(s?.[key]) || s[key] < 0 || s[key] >= n) throw new RangeError(`subproblem ${s?.id}: ${key} = ${s?.[key]} is not a column/row of an n = ${n} board`);
      }
      results.push({ id: s.id, ...kernel.countSubproblem(n, s) });
      const now = performance.now();
      if (now - lastReport >= reportEveryMs) {
        port.post({ type: 'results', results, batchDone: false });
        results = [];
        lastReport = now;
      }
    }
    port.post({ type: 'results', results, batchDone: true });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    port.post({ type: 'error', message: e.message, name: e.name, stack: e.stack });
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
