// One memory for the join's tables in all the workers of a count: the join
// module's shared build (threads feature) imports it, so each quarter table
// is built once per count and held once per process, not once per worker
// (assembly/join/quarter-tables.ts). Where memory cannot be shared with workers
// (browsers without cross-origin isolation, Deno, Bun, no SIMD), each
// worker keeps its own tables, as on one thread.
import { isNode } from '../contract/environment.js';
import type { WorkerShare } from '../contract/method.js';
import { sharedJoinModule, wasmModuleOf } from '../engines/wasm-loader.js';

/** Pages a shared memory may grow to: all of 32-bit memory (reserved, not taken: pages count once touched). */
const MAX_PAGES = 65536;

/** Workers one shared memory serves: the module has a pin per slot for this many (MAX_SLOTS). */
export const JOIN_SHARE_MAX_WORKERS = 1024;

let enabled = true;

/** Test hook: whether join counts on workers share their tables (default true where they can). */
export function setJoinSharing(on: boolean): void {
  enabled = on;
}

/** Whether this runtime can hand one wasm memory to several workers. */
export function canShareJoinTables(): boolean {
  if (!enabled || typeof SharedArrayBuffer !== 'function') return false;
  if (isNode) {
    const versions = process.versions as { bun?: string; deno?: string };
    return versions.bun === undefined && versions.deno === undefined;
  }
  return (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
}

/**
 * The shared build and a fresh memory for `workers` workers of one count
 * with the join module `module`, each taking up to `bytesPerWorker`, or
 * undefined (TypeScript, another build asked for, no sharing here, more
 * workers than slots, or than fit together in 32-bit memory: n = 23 from 16
 * workers, n = 24 from 3): then each worker gets `module` and its own tables.
 */
export async function shareJoinTables(
  module: WebAssembly.Module | null,
  workers = 1,
  bytesPerWorker = 0,
): Promise<WorkerShare | undefined> {
  if (!module || module !== wasmModuleOf('join') || workers > JOIN_SHARE_MAX_WORKERS || !canShareJoinTables()) return undefined;
  if (workers * bytesPerWorker > MAX_PAGES * 65536) return undefined;
  const shared = await sharedJoinModule();
  if (!shared) return undefined;
  try {
    return { module: shared, memory: new WebAssembly.Memory({ initial: 2, maximum: MAX_PAGES, shared: true }) };
  } catch {
    return undefined; // no room to reserve: tables per worker
  }
}
