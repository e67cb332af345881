// One memory for the join's tables in all the workers of a count: the join
// module's shared build (threads feature) imports it, so each quarter table
// is built once per count and held once per process, not once per worker
// (assembly/join/quarter-tables.ts). Where memory cannot be shared with workers
// (browsers without cross-origin isolation, Deno, Bun, no SIMD), each
// worker keeps its own tables, as on one thread.
import { isNode } from '../shared/node-builtins.js';
import type { WorkerShare } from '../contract/method.js';
import { sharedJoinModule, wasmModuleOf } from '../engines/wasm-loader.js';
import { joinMemoryBytes } from './join-plan.js';
import { unrefTimeout } from '../shared/slices.js';

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
 * A memory whose count ended cleanly (no instance on it holds the lock or a
 * pin), kept for the next count of its n: its quarter tables, and the
 * instances of the idle workers that hold slots in it (src/run/pool.ts),
 * serve that count as they are. One at most, and for SPARE_MS: without it
 * every count on workers made a memory that only the calling thread's
 * collector freed (RSS grew 10 MB a count of n = 18 back to back).
 */
let spare: { n: number; share: WorkerShare; timer: ReturnType<typeof setTimeout> } | undefined;

/** How long a spare memory waits for its next count: as long as its idle workers (src/run/pool.ts: IDLE_MS). */
export const SPARE_MS = 5000;

/**
 * The shared build and a memory for `workers` workers of one count of `n`
 * with the join module `module` (the spare one of n, else a fresh one), or
 * undefined (TypeScript, another build asked for, no sharing here, more
 * workers than slots, or than fit together in 32-bit memory: n = 23 from 16
 * workers, n = 24 from 3): then each worker gets `module` and its own tables.
 * The pool calls `release` once the count ends cleanly, no worker still setting up
 * on it; a failed one drops the memory.
 */
export async function shareJoinTables(module: WebAssembly.Module | null, n: number, workers: number): Promise<WorkerShare | undefined> {
  if (!module || module !== wasmModuleOf('join') || workers > JOIN_SHARE_MAX_WORKERS || !canShareJoinTables()) return undefined;
  if (workers * joinMemoryBytes(n) > MAX_PAGES * 65536) return undefined;
  if (spare?.n === n) {
    const { share, timer } = spare;
    clearTimeout(timer);
    spare = undefined;
    return share;
  }
  const shared = await sharedJoinModule();
  if (!shared) return undefined;
  try {
    const memory = new WebAssembly.Memory({ initial: 2, maximum: MAX_PAGES, shared: true });
    const share: WorkerShare = {
      module: shared,
      memory,
      release: () => {
        if (spare) clearTimeout(spare.timer);
        spare = { n, share, timer: unrefTimeout(() => (spare = undefined), SPARE_MS) };
      },
    };
    return share;
  } catch {
    return undefined; // no room to reserve: tables per worker
  }
}
