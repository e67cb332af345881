// Finding a WebGPU device: the browser's (or Deno's) navigator.gpu, else in
// Node the optional `webgpu` package (Dawn). Where there is none, the count
// fails with an Error that says so: the engine never falls back to the CPU.
//
// Dawn's instance (what the package's `create` returns) must outlive every
// device made from it: once it is collected, the instance dies under a live
// device and Node crashes (SIGSEGV, or glibc's futex abort; issue 43). Nor
// should it outlive them: it holds the GPU's memory and Dawn's threads. So
// one instance is shared by the counts running at a time, held in this
// module while any of them holds a lease, and dropped when the last lease
// ends, after its device is gone.
import { codedError, ERROR_CODES } from '../../shared/errors.js';
import { isNode } from '../../shared/node-builtins.js';
import { ownKeysOnly } from '../../shared/own-keys.js';
import { unrefTimeout } from '../../shared/slices.js';
import type { GpuAdapterLike, GpuDeviceLike, GpuLike } from './webgpu-types.js';

/** The `webgpu` package's entry point, as far as it is used here. */
interface DawnNode {
  create(flags: string[]): GpuLike;
}

/** The shared Dawn instance and the leases on it; undefined when no count holds one. */
let shared: { gpu: Promise<NodeGpu>; leases: number } | undefined;

/**
 * The `webgpu` package's instance, or why there is none: not installed, or installed but failing to load here.
 * Without a prototype: `'broken' in` would find a `broken` other code set on Object.prototype.
 */
type NodeGpu = { gpu: GpuLike } | { missing: true } | { broken: unknown };

async function createNodeGpu(): Promise<NodeGpu> {
  const name = 'webgpu';
  let dawn: DawnNode;
  try {
    // Hidden from bundlers, like the node:* imports: browser builds never run it.
    dawn = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as DawnNode;
  } catch (error) {
    // Not installed; anything else (a native binary that does not load here, a wrong platform) is said as it is.
    // The package's own require() of a binary it has none of for this platform is MODULE_NOT_FOUND too, naming that
    // file: only a failure to find the package itself means it is not installed.
    return notFound(error, name) ? ownKeysOnly({ missing: true as const }) : ownKeysOnly({ broken: error });
  }
  try {
    // No bounds clamps on the shader's array indexes: on an H100 the search then takes 0.78x the time
    // (bench/gpu-probe.mjs, 2026-11-27). The shader's indexes stay within its buffers by construction, and the
    // CPU twin and the Dawn tests check them; browsers keep their clamps (their instance is not ours).
    return ownKeysOnly({ gpu: dawn.create(['enable-dawn-features=disable_robustness']) });
  } catch (error) {
    return ownKeysOnly({ broken: error });
  }
}

/** Whether `error` says that the package `name` itself cannot be found (not a file it loads in turn). */
function notFound(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && (message.includes(`package '${name}'`) || message.includes(`module '${name}'`));
}

/** A hold on the shared Node instance: `end` once, after the device made from it is destroyed. */
function leaseNodeGpu(): { gpu: Promise<NodeGpu>; end(): void } {
  shared ??= { gpu: createNodeGpu(), leases: 0 };
  const held = shared;
  held.leases++;
  let ended = false;
  return {
    gpu: held.gpu,
    end() {
      if (ended) return;
      ended = true;
      if (--held.leases === 0 && shared === held) shared = undefined;
    },
  };
}

/** Whether this module holds a Dawn instance now (for tests and diagnostics). */
export function holdsNodeGpu(): boolean {
  return shared !== undefined;
}

function unavailable(why: string, cause?: unknown): Error {
  return codedError(
    `engine 'webgpu' is unavailable here: ${why}. Use engine 'wasm' or 'js' to count on the CPU.`,
    ERROR_CODES.WEBGPU_UNAVAILABLE,
    cause,
  );
}

/** What requestAdapter() or requestDevice() gives, or their rejection as unavailable (the platform's error as its cause). */
async function granted<T>(request: () => Promise<T>, what: string): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw unavailable(`${what} was refused (${error instanceof Error ? error.message : String(error)})`, error);
  }
}

/** How long a device may take to report itself lost after destroy() before its instance is let go anyway. */
const LOST_WAIT_MS = 1000;

/**
 * How long a device whose count succeeded waits for the next count before
 * it is destroyed. Opening one takes Dawn about 0.17 s on an H100 (the
 * instance, the adapter, the device: 2026-11-27), more than a count of
 * n = 18 then takes; a program that counts again at once reuses it. Short:
 * a waiting device holds the GPU's memory (over lavapipe a script holding
 * Dawn's instance and device still exits by itself; not tried on a GPU).
 */
const IDLE_MS = 250;

let idleMs = IDLE_MS;

/** Test hook: how long a device waits for the next count (undefined: IDLE_MS), so that a test of reuse holds on a slow machine. */
export function setDeviceIdleMs(ms: number | undefined): void {
  idleMs = ms ?? IDLE_MS;
}

export interface GpuSession {
  readonly adapter: GpuAdapterLike;
  readonly device: GpuDeviceLike;
  /** Whether the device waited after an earlier count (it may have been lost since, before it could say so). */
  readonly reused: boolean;
  /** Whether the device has reported itself lost. */
  isLost(): boolean;
  /**
   * Ends the count's use of the device. After a count that succeeded
   * (`reusable`), the device waits IDLE_MS for the next count, if no other
   * waits already. Else, or then, it is destroyed on the next turn of the
   * event loop, after the count's result or rejection has reached its
   * caller, and in Node once its queued dispatches have ended (closeDevice):
   * Dawn's destroy() waits for them on the calling thread, and an abort
   * must not freeze it. The instance it came from is held until the device
   * reports itself lost (or LOST_WAIT_MS has passed), then released.
   */
  close(reusable?: boolean): void;
}

/** An open device: its adapter, the lease on its instance, and whether it reported itself lost (watched once). */
interface OpenDevice {
  /** The instance the device came from, held while the device lives (a Dawn instance collected under its device crashes Node). */
  readonly gpu: GpuLike;
  readonly adapter: GpuAdapterLike;
  readonly device: GpuDeviceLike;
  readonly endLease: (() => void) | undefined;
  readonly isLost: () => boolean;
}

function opened(gpu: GpuLike, adapter: GpuAdapterLike, device: GpuDeviceLike, endLease: (() => void) | undefined): OpenDevice {
  let lost = false;
  const mark = () => (lost = true);
  device.lost.then(mark, mark);
  return { gpu, adapter, device, endLease, isLost: () => lost };
}

/** A device between counts; at most one. */
let idle: { open: OpenDevice; timer: unknown } | undefined;

/** Whether a device waits for the next count now (for tests). */
export function holdsIdleDevice(): boolean {
  return idle !== undefined;
}

function sessionOf(open: OpenDevice, reused: boolean): GpuSession {
  let closed = false;
  return {
    adapter: open.adapter,
    device: open.device,
    reused,
    isLost: open.isLost,
    close(reusable = false) {
      if (closed) return;
      closed = true;
      if (reusable && !open.isLost() && !idle) {
        const timer = unrefTimeout(() => {
          if (idle?.open !== open) return;
          idle = undefined;
          closeDevice(open);
        }, idleMs);
        idle = { open, timer };
        return;
      }
      setTimeout(() => closeDevice(open), 0);
    },
  };
}

export async function requestGpuDevice(): Promise<GpuSession> {
  if (idle) {
    const { open, timer } = idle;
    idle = undefined;
    clearTimeout(timer as ReturnType<typeof setTimeout>);
    // A device lost while it waited (a driver reset, a GPU taken away) is let go, and another opened.
    if (!open.isLost()) return sessionOf(open, true);
    closeDevice(open);
  }
  const navigatorGpu = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
  const lease = navigatorGpu || !isNode ? undefined : leaseNodeGpu();
  try {
    const node = lease ? await lease.gpu : undefined;
    if (node && 'broken' in node) {
      const why = (node.broken instanceof Error ? node.broken.message : String(node.broken)).split('\n')[0]; // CommonJS adds its require stack
      throw unavailable(`the optional 'webgpu' package (Dawn) is installed but does not load here (${why})`, node.broken);
    }
    const gpu = navigatorGpu ?? (node && 'gpu' in node ? node.gpu : undefined);
    if (!gpu) {
      throw unavailable(
        isNode
          ? "Node has no navigator.gpu, and the optional 'webgpu' package (Dawn) is not installed"
          : 'navigator.gpu is missing (WebGPU needs a browser that supports it, and a secure context: https or localhost)',
      );
    }
    const adapter = await granted(() => gpu.requestAdapter(ownKeysOnly({ powerPreference: 'high-performance' as const })), 'an adapter');
    if (!adapter) throw unavailable('WebGPU is present but gives no adapter (no usable GPU or driver, or WebGPU is blocked)');
    const device = await granted(() => adapter.requestDevice(), 'a device');
    return sessionOf(opened(gpu, adapter, device, lease?.end), false);
  } catch (error) {
    lease?.end();
    throw error;
  }
}

/** Devices waiting for their queued work to end before they are destroyed (closeDevice). */
const draining = new Set<OpenDevice>();

/**
 * Destroys the device; in Node (Dawn, whose destroy() would block this
 * thread on it, whether the instance is this module's or the program's own
 * navigator.gpu) once its queued work has ended, however long that takes.
 * Dawn's destroy() waits on the calling thread for the work still queued:
 * after an abort that froze the event loop for up to three dispatches
 * (an estimated 0.6 s on an H100 at n = 20; 21 s at n = 18 on lavapipe). A cap on
 * this wait only moved the freeze (3 s then 14 s at n = 18 on lavapipe
 * under load): destroy() waited for what was left. A GPU that hangs is
 * reset by its watchdog, and a device lost ends the wait.
 */
function closeDevice(open: OpenDevice): void {
  // In Node whoever made the instance: a program that set navigator.gpu to the package's own (as its README shows)
  // gets the same Dawn, whose destroy() blocks just the same.
  if ((!open.endLease && !isNode) || open.isLost()) return destroyDevice(open);
  draining.add(open); // held here until destroyed: nothing else need reference a device whose count has ended
  const drained = Promise.resolve()
    .then(() => open.device.queue.onSubmittedWorkDone())
    .catch(() => undefined); // a device lost meanwhile: nothing left to wait for
  const lost = open.device.lost.then(
    () => undefined,
    () => undefined,
  ); // a lost device may leave its queue's promises unsettled
  void Promise.race([drained, lost]).then(() => {
    draining.delete(open);
    destroyDevice(open);
  });
}

function destroyDevice({ device, endLease }: OpenDevice): void {
  device.destroy();
  if (!endLease) return;
  // The timer is unref'd where it can be: it must not keep Node running by itself.
  const timer = unrefTimeout(endLease, LOST_WAIT_MS);
  device.lost.then(
    () => {
      clearTimeout(timer);
      endLease();
    },
    () => endLease(),
  );
}
