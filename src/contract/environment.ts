// What the runtime offers: Node or a browser-like host, and how many cores.

export const isNode: boolean = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

/**
 * Imports a Node built-in without letting bundlers see it, so browser
 * builds neither bundle nor warn about node:* modules they never run.
 */
export function importNodeBuiltin<T>(name: string): Promise<T> {
  const specifier = `node:${name}`;
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

/**
 * A Node built-in, synchronously, where the runtime offers
 * process.getBuiltinModule (Node 20.16+, 22.3+; Deno and Bun); else undefined.
 */
export function nodeBuiltinNow<T>(name: string): T | undefined {
  if (!isNode) return undefined;
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return typeof get === 'function' ? (get.call(process, `node:${name}`) as T | undefined) : undefined;
}

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

let cores: number | undefined;

/** availableCores(), synchronously where the runtime allows it (see nodeBuiltinNow), else undefined. */
export function availableCoresNow(): number | undefined {
  if (cores !== undefined) return cores;
  if (isNode) {
    const os = nodeBuiltinNow<NodeOs>('os');
    if (!os) return undefined;
    cores = coresOf(os);
  } else {
    cores = Math.max(1, globalThis.navigator?.hardwareConcurrency || 1);
  }
  return cores;
}

type NodeOs = typeof import('node:os');

function coresOf(os: NodeOs): number {
  return Math.max(1, (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length) || 1);
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
