// A counting worker: announces itself, receives the board size, its method and
// the compiled kernel once, then counts the batch of units in each 'run'
// message. Runs as a Node worker thread or a module Web Worker.
import { codedError, ERROR_CODES } from '../shared/errors.js';
import { codecFor, counterFor, setWorkerHooks } from './counters.js';
import { importNodeBuiltin, isNode } from '../shared/node-builtins.js';
import { transferOf, type AnyUnit, type FromWorker, type ToWorker } from './messages.js';
import { addResult, noResults } from './unit-results.js';
import { countUnits, countWhole, taker, type UnitCodec, type UnitCounter } from '../contract/method.js';

type Port = { post(message: FromWorker): void; listen(handler: (message: ToWorker) => void): void };

async function parentPort(): Promise<Port> {
  if (isNode) {
    const { parentPort } = await importNodeBuiltin<typeof import('node:worker_threads')>('worker_threads');
    if (!parentPort) throw codedError('worker.js must run as a worker thread', ERROR_CODES.INTERNAL);
    return { post: (m) => parentPort.postMessage(m, transferOf(m)), listen: (h) => parentPort.on('message', h) };
  }
  const scope = globalThis as unknown as {
    postMessage(m: FromWorker, transfer: Transferable[]): void;
    addEventListener(type: 'message', h: (e: MessageEvent<ToWorker>) => void): void;
  };
  return { post: (m) => scope.postMessage(m, transferOf(m)), listen: (h) => scope.addEventListener('message', (e) => h(e.data)) };
}

let counter: UnitCounter<AnyUnit> | undefined;
let n = 0;
/** How this count's units travel packed, if they do. */
let codec: UnitCodec<AnyUnit> | undefined;
let reportEveryMs = 0;

/**
 * Results go back at most this often within a batch (and at its end):
 * often enough for progress, rarely enough that the threads seldom wake
 * each other, which costs far more than the message on virtual machines.
 */
const REPORT_EVERY_MS = 50;

/** The first `count` units of a packed batch, read one at a time. */
function* unpack(codec: UnitCodec<AnyUnit> | undefined, packed: Float64Array, count: number): Generator<AnyUnit, void, undefined> {
  if (!codec) throw codedError('a packed batch for a method whose units travel as objects', ERROR_CODES.INTERNAL);
  for (let i = 0; i < count; i++) yield codec.read(packed, i * codec.stride);
}

function handle(port: Port, message: ToWorker): void {
  try {
    if (message.type === 'init') {
      counter = undefined; // until this init succeeds: a failed one leaves no earlier counter for a 'run' to use
      n = message.n;
      codec = codecFor(message.method);
      reportEveryMs = message.reportEveryMs ?? REPORT_EVERY_MS;
      setWorkerHooks(message.workerHooks);
      counter = counterFor(message.method, n, message.module, message.share);
      if (message.warm) countWhole(counter, message.warm);
      port.post({ type: 'ready' });
      return;
    }
    const ready = counter;
    if (!ready) throw codedError("'run' before 'init'", ERROR_CODES.INTERNAL);
    const packed = 'packed' in message ? message : undefined;
    const units = packed ? unpack(codec, packed.packed, packed.count) : (message as { units: AnyUnit[] }).units;
    let results = noResults();
    let lastReport = performance.now();
    const record = (unit: AnyUnit, count: bigint): void => addResult(results, unit.id, count);
    // Counted in pieces; between them, results and the share done go back every reportEveryMs.
    for (const { unit, share } of countUnits(() => ready, taker(units), record)) {
      const now = performance.now();
      if (now - lastReport >= reportEveryMs) {
        port.post({ type: 'results', results, batchDone: false, partial: { id: unit.id, share } });
        results = noResults();
        lastReport = now;
      }
    }
    port.post({ type: 'results', results, batchDone: true, packed: packed?.packed });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    // Every failure goes back coded: a memory V8 could not allocate as such, any other uncoded error as internal.
    const code = (e as { code?: unknown }).code;
    const coded =
      typeof code === 'string'
        ? code
        : e instanceof RangeError && /out of memory|allocation failed/i.test(e.message)
          ? ERROR_CODES.OUT_OF_MEMORY
          : ERROR_CODES.INTERNAL;
    port.post({ type: 'error', message: e.message, name: e.name, stack: e.stack, code: coded });
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
