// What the runtime offers: Node or a browser-like host, and how many cores.
import { importNodeBuiltin, isNode, nodeBuiltinNow } from '../shared/node-builtins.js';

/**
 * Bytes the tables of a count's threads may take together: half the
 * machine's memory in Node (os.totalmem), half of navigator.deviceMemory in
 * browsers that tell it; Infinity where nothing says.
 */
export function tableMemoryBudget(): number {
  if (isNode) {
    const os = nodeBuiltinNow<{ totalmem(): number }>('os');
    return os ? os.totalmem() / 2 : Infinity;
  }
  const gigabytes = (globalThis as { navigator?: { deviceMemory?: number } }).navigator?.deviceMemory;
  return typeof gigabytes === 'number' && gigabytes > 0 ? (gigabytes * 2 ** 30) / 2 : Infinity;
}

/** Most worker threads one count may start. */
export const MAX_THREADS = 256;

let cores: number | undefined;

/** availableCores(), synchronously where the runtime allows it (see nodeBuiltinNow), else undefined. */
export function availableCoresNow(): number | undefined {
  if (cores !== undefined) return cores;
  if (isNode) {
    const os = nodeBuiltinNow<NodeOs>('os');
    if (!os) return undefined;
    cores = coresOf(os);
  } else {
    cores = coresFrom(globalThis.navigator?.hardwareConcurrency);
  }
  return cores;
}

/** What the runtime says, as a count of threads: a whole number from 1 to MAX_THREADS (a page may say 300, 3.5 or 'x'). */
function coresFrom(said: unknown): number {
  const whole = Math.floor(Number(said));
  return whole >= 1 ? Math.min(whole, MAX_THREADS) : 1;
}

type NodeOs = typeof import('node:os');

function coresOf(os: NodeOs): number {
  return coresFrom(typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}

/** Logical cores available to this process (at least 1). */
export async function availableCores(): Promise<number> {
  const now = availableCoresNow();
  if (now !== undefined) return now;
  // Node before 20.16: the built-in can only be imported.
  cores = coresOf(await importNodeBuiltin<NodeOs>('os'));
  return cores;
}

/**
 * From this n on, counts use a worker per core unless told otherwise; below
 * it, starting workers costs more than it saves (docs/threads.md).
 */
export const AUTO_THREADS_MIN_N = 15;
