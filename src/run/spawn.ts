// Starts a counting worker: a worker thread in Node, a module Web Worker in
// browsers. Both are created from `new URL('./worker.js', import.meta.url)`,
// the form bundlers recognise, so no Blob or eval is ever needed.
import { codedError, ERROR_CODES } from '../shared/errors.js';
import { importNodeBuiltin, isNode, nodeBuiltinNow } from '../shared/node-builtins.js';
import { transferOf, type FromWorker, type ToWorker } from './messages.js';
import { ownKeysOnly } from '../shared/own-keys.js';

export interface WorkerHandle {
  post(message: ToWorker): void;
  /**
   * Exactly one of these fires per event; `onFailure` also on an unexpected
   * exit. A later call replaces both (a worker passes from count to count).
   */
  listen(onMessage: (message: FromWorker) => void, onFailure: (error: Error) => void): void;
  /** Node: whether the worker keeps the process alive (an idle one does not). No-ops elsewhere. */
  ref(): void;
  unref(): void;
  terminate(): Promise<void>;
}

/**
 * Node hands a worker its parent's flags when `execArgv` is left out, and a
 * worker accepts them that way whatever they are (--max-old-space-size,
 * --expose-gc, --stack-size, --title...). But `--input-type` and the eval
 * flags (as in `node --input-type=module -e ...`) make a worker file fail to
 * load, so where the parent has them the worker gets an explicit list
 * without them, and a list passed explicitly may hold only flags a worker
 * takes itself: the module-loading ones kept here (others are per-process
 * or V8's, which the worker shares with the parent anyway). Undefined: the
 * parent's, as they are.
 */
function workerExecArgv(parent: readonly string[]): string[] | undefined {
  const evaluates = parent.some((flag) => EVAL_FLAGS.includes(flag) || flag.startsWith('--input-type='));
  if (!evaluates) return undefined;
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const flag = parent[i];
    if (EVAL_FLAGS.includes(flag)) {
      i++; // and its value
      continue;
    }
    const name = flag.split('=', 1)[0];
    if (!LOADER_FLAGS.includes(name) && !name.startsWith('--experimental-')) continue;
    out.push(flag);
    if (!flag.includes('=') && VALUE_FLAGS.includes(name) && i + 1 < parent.length) out.push(parent[++i]);
  }
  return out;
}

const EVAL_FLAGS = ['--input-type', '-e', '--eval', '-p', '--print'];
/** Module-loading flags (LOADER_FLAGS) whose value may come as the next argument. */
const VALUE_FLAGS = ['--conditions', '-C', '--import', '--require', '-r', '--loader', '--experimental-loader'];
/** Flags a worker accepts in an explicit execArgv that change how its code loads (each listed once: they ship). */
const LOADER_FLAGS = [...VALUE_FLAGS, '--no-warnings', '--enable-source-maps'];

let alive = 0;
let started = 0;

/** Workers started so far from this thread (the tests check that counts reuse idle ones). */
export function workersStarted(): number {
  return started;
}

/** Workers being started or running (not yet exited or terminated), from this thread; the tests check that a settled count leaves none. */
export function workersAlive(): number {
  return alive;
}

const UNREADABLE = 'counting worker sent a message that could not be read';

type NodeWorkerThreads = typeof import('node:worker_threads');

export async function spawnWorker(): Promise<WorkerHandle> {
  const now = spawnWorkerNow();
  if (now) return now;
  const threads = await importNodeBuiltin<NodeWorkerThreads>('worker_threads');
  return counted(() => nodeWorker(threads));
}

/**
 * Starts a worker synchronously, in browsers and where Node's built-ins can
 * be had synchronously (nodeBuiltinNow); else undefined (use spawnWorker).
 * Throws if the worker cannot be created.
 */
export function spawnWorkerNow(): WorkerHandle | undefined {
  const threads = isNode && !asPage ? nodeBuiltinNow<NodeWorkerThreads>('worker_threads') : undefined;
  if (isNode && !asPage && !threads) return undefined;
  return counted(() => (threads ? nodeWorker(threads) : webWorker()));
}

/** Set once the environment refused a Web Worker: counts then stay on the calling thread, for this module's life (its worker URL). */
let refused = false;
let asPage = false;

/** Test hook: start workers as a page does, from globalThis.Worker (a stand-in, in Node), and forget any refusal. */
export function startWorkersAsPage(on: boolean): void {
  asPage = on;
  refused = false;
}

/** Whether a worker was refused here (a CSP, Trusted Types, no Worker, a worker.js that did not load): threadPlan then plans none. */
export function workersRefused(): boolean {
  return refused;
}

/** Failures of workers the environment would not run at all: the pool counts on without them (isRefusal). */
const refusals = new WeakSet<object>();

/** Whether a worker's failure (spawnWorker's, or WorkerHandle.listen's) is such a refusal. */
export function isRefusal(error: unknown): boolean {
  return refusals.has(error as object);
}

/** Marks `error` as a refusal, and workers as refused here from now on. */
function refusal<E>(error: E): E {
  refused = true;
  refusals.add(Object(error)); // a primitive thrown is no refusal (isRefusal): it fails the count
  return error;
}

/** Creates a worker, counted in workersStarted() and, until it exits, workersAlive(). */
function counted(create: () => WorkerHandle): WorkerHandle {
  alive++;
  started++;
  try {
    return create();
  } catch (error) {
    alive--;
    throw error;
  }
}

/**
 * A worker's young generation, in MB. V8 grows it to 16 MB semi-spaces
 * (about 40 MB a worker) over a long count of small units, whose garbage
 * is short-lived: capped, a worker of a deep plan (n = 16 at depth 4)
 * stays near 20 MB. Workers keep little alive between units (batches
 * arrive packed, off the heap), so the cap costs a few more scavenges only.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/**
 * A worker's code range, in MB (V8's default is 128). Under an address-space
 * limit (`ulimit -v`), V8 ends the whole process with a fatal OOM (SIGTRAP)
 * where a new worker cannot reserve its code range, as it failed to do at
 * the process's base + 0.5 GiB after a wasm memory that did not fit, and at
 * base + 11 GiB after one that did (with 64 MB, only at the first). A
 * worker's own JIT code is a few MB; its wasm code has a reservation of its own.
 */
const WORKER_CODE_RANGE_MB = 32;

function nodeWorker({ Worker: NodeWorker }: NodeWorkerThreads): WorkerHandle {
  // Kept apart from the browser form below so bundlers only bundle that one.
  const file = './worker.js';
  // Options without a prototype: Node reads `name`, `env`, `argv` or `resourceLimits.maxOldGenerationSizeMb` left
  // out here through Object.prototype, where other code may have set them (a heap limit of 1 MB, a name of 1).
  const limits = ownKeysOnly({ maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, codeRangeSizeMb: WORKER_CODE_RANGE_MB });
  const worker = new NodeWorker(
    new URL(/* webpackIgnore: true */ file, import.meta.url),
    ownKeysOnly({ execArgv: workerExecArgv(process.execArgv), resourceLimits: limits }),
  );
  // Registered first, so it has run by the time terminate() resolves.
  worker.once('exit', () => alive--);
  let terminating = false;
  let onMessage: (message: FromWorker) => void = () => undefined;
  let onFailure: (error: Error) => void = () => undefined;
  // Handled one a turn of the event loop, not as they arrive: Node delivers a worker's messages in one go while more
  // keep coming (up to 1,000), so a worker that finishes a batch while this thread records the last (a checkpoint's
  // lines) held this thread for seconds, and with it the stop signals' handlers, timers and the claims' renewal.
  const inbox: FromWorker[] = [];
  const deliver = (): void => {
    // Emptied by terminate() while this turn was already asked for: nothing is left to hand over, nor is what comes
    // after (before, the turn handed the listener `undefined`).
    if (terminating || inbox.length === 0) return;
    if (inbox.length > 1) setImmediate(deliver);
    onMessage(inbox.shift()!);
  };
  worker.on('message', (message: FromWorker) => terminating || inbox.push(message) > 1 || setImmediate(deliver));
  worker.on('messageerror', () => onFailure(codedError(UNREADABLE, ERROR_CODES.WORKER_FAILED)));
  worker.on('error', (error) => onFailure(codedError(`counting worker failed: ${error.message}`, ERROR_CODES.WORKER_FAILED, error)));
  worker.on('exit', (code) => {
    if (!terminating) onFailure(codedError(`counting worker exited unexpectedly with code ${code}`, ERROR_CODES.WORKER_FAILED));
  });
  return {
    post: (message) => worker.postMessage(message, transferOf(message)),
    listen(message, failure) {
      onMessage = message;
      onFailure = failure;
    },
    ref: () => worker.ref?.(),
    unref: () => worker.unref?.(),
    async terminate() {
      terminating = true;
      inbox.length = 0; // what it sent and this thread has not handled yet belongs to a count that has ended
      await worker.terminate();
    },
  };
}

function webWorker(): WorkerHandle {
  let shim: string | undefined;
  let worker: Worker;
  try {
    // Not tried again once refused (a count's second worker too): each try costs the page a console error.
    if (refused) throw codedError('counting workers are refused here', ERROR_CODES.WORKER_FAILED);
    // A loader that cannot be made is a refusal too: a service worker has no URL.createObjectURL (nor Worker).
    shim = crossOriginShim();
    // The shim is a classic worker: a module worker from a blob: URL does not load in an opaque origin (a sandboxed iframe).
    // Options without a prototype, still a literal (bundlers read its type): the browser reads `credentials` and `name`
    // left out through Object.prototype, where a `credentials` other code set there (a number, an object) throws.
    worker = withPolicy(() =>
      shim ? new Worker(shim) : new Worker(new URL('./worker.js', import.meta.url), { __proto__: null, type: 'module' } as WorkerOptions),
    );
  } catch (error) {
    if (shim) URL.revokeObjectURL(shim);
    refusal(error);
    throw error;
  }
  let terminated = false;
  // Until its first message the worker has run none of the package's code: a failure then is the page's refusal.
  let online = false;
  return {
    post: (message) => worker.postMessage(message, transferOf(message)),
    listen(onMessage, onFailure) {
      const failed = (message: string): void => {
        const error = codedError(`counting worker failed: ${message}`, ERROR_CODES.WORKER_FAILED);
        onFailure(online ? error : refusal(error));
      };
      worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
        // Before 'online' only the shim speaks: worker.js did not load.
        if (!online && data.type === 'error') return failed(data.message);
        online = true;
        onMessage(data);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        // An event with no message: the script did not load (missing, or refused by the page's CSP, which says so in the console).
        failed(event.message || 'could not load worker.js');
      };
      worker.onmessageerror = () => onFailure(codedError(UNREADABLE, ERROR_CODES.WORKER_FAILED));
    },
    ref: () => undefined,
    unref: () => undefined,
    async terminate() {
      worker.terminate(); // synchronous in browsers: the worker is gone when it returns
      if (shim) URL.revokeObjectURL(shim);
      if (!terminated) alive--;
      terminated = true;
    },
  };
}

type ScriptUrlPolicy = { createScriptURL(url: string): unknown };

/** The package's Trusted Types policy (once made; null where the page has none to give). */
let policy: ScriptUrlPolicy | null | undefined;

/**
 * Runs `create`, a `new Worker(…)`, with its URL made a TrustedScriptURL by
 * the package's own policy, 'nqueens-wasm', where the page has Trusted Types:
 * a page that requires them (require-trusted-types-for 'script') and allows
 * that name (trusted-types nqueens-wasm) needs no default policy. The call
 * keeps the form bundlers find the worker by, so the global Worker is
 * swapped for one that takes the URL through the policy while it runs.
 */
function withPolicy(create: () => Worker): Worker {
  const scope = globalThis as unknown as { Worker: new (url: unknown, options?: WorkerOptions) => Worker; trustedTypes?: unknown };
  const types = scope.trustedTypes as
    { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy } | undefined;
  // Made once: a page whose CSP does not allow the name refuses it (and says so in the console), once.
  if (policy === undefined) {
    try {
      policy = types ? types.createPolicy('nqueens-wasm', { createScriptURL: (url) => url }) : null;
    } catch {
      policy = null;
    }
  }
  const trusted = policy;
  const PageWorker = scope.Worker;
  if (!trusted || !PageWorker) return create();
  try {
    scope.Worker = function (url: unknown, options?: WorkerOptions) {
      return new PageWorker(trusted.createScriptURL(String(url)), options);
    } as unknown as typeof PageWorker;
  } catch {
    return create(); // a page that froze its Worker: the URL goes as it is (a default policy may still take it)
  }
  try {
    return create();
  } finally {
    scope.Worker = PageWorker;
  }
}

/**
 * Browsers start workers only from the page's origin. When the package itself
 * was loaded from another one (a CDN), or the page's origin is opaque (a
 * sandboxed iframe without allow-same-origin), the worker starts from a
 * blob: URL of the page's origin whose one line imports worker.js from
 * there: that needs CORS, which CDNs send, and a CSP that allows blob:
 * workers. The import is
 * dynamic: a static one is checked against worker-src, which would then
 * have to name the CDN too, where import() needs only the script-src that
 * let the page load the package; a failure is posted as the worker's error.
 * Undefined when worker.js is same-origin (every bundled and self-hosted case).
 */
function crossOriginShim(): string | undefined {
  // Not the form above, so bundlers leave this one alone (webpack resolves
  // even new URL(variable, import.meta.url), to a stub that throws).
  const here: string = import.meta.url;
  const url = new URL('./worker.js', here);
  // The page's origin: "null" in a sandboxed iframe, whose location.origin is still its URL's.
  const scope = globalThis as { origin?: string; location?: { origin?: string } };
  const origin = scope.origin ?? scope.location?.origin;
  if (!origin || url.origin === origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const href = JSON.stringify(url.href);
  const load = `import(${href}).catch((e)=>postMessage({type:'error',message:'could not load '+${href}+': '+e}))`;
  // Its own keys alone: an `endings` set on Object.prototype (a number, an object) made the Blob throw, and every count fail.
  return URL.createObjectURL(new Blob([load], ownKeysOnly({ type: 'text/javascript' })));
}
