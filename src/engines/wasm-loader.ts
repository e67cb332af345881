// Loads the AssemblyScript kernel from the bytes inlined at build time. There
// are two builds of one source: with wasm SIMD (a search that prunes far
// more, see assembly/search/symmetry-simd.ts) and without, for engines that lack it.
// The kernel's boundary is numbers only, so @assemblyscript/loader has
// nothing to marshal: it instantiates synchronously and demangles exports.
// The build points this import at its copy in dist/vendor/ (see
// scripts/vendor-loader.mjs), so the package names no bare specifier.
import { instantiateSync } from '@assemblyscript/loader';
import { codedError, ERROR_CODES, hasCode, rangeError } from '../shared/errors.js';
import { ownKeysOnly } from '../shared/own-keys.js';
import { JOIN_WASM_BASE64, JOIN_WASM_SIMD_BASE64, WASM_BASE64, WASM_OPEN_ROWS_BASE64, WASM_SIMD_BASE64 } from './wasm-bytes.generated.js';

/** The shipped kernel's exports (assembly/search/search-entry.ts). i64 results arrive as (signed) bigint. */
export interface WasmKernel {
  /**
   * Solutions containing the border constellation (a, b, c, d); a refined
   * plan unit passes `placed` inner rows already holding queens that take
   * columns `cols`, with diagonals `ld`/`rd` at the next inner row (0s: none).
   */
  countConstellation(n: number, a: number, b: number, c: number, d: number, placed: number, cols: number, ld: number, rd: number): bigint;
  /** Pairs (solution, symmetry g in the mask `symmetries`) where g maps the solution to itself. */
  countConstellationFixes(n: number, a: number, b: number, c: number, d: number, symmetries: number): bigint;
  memory: WebAssembly.Memory;
}

/** The open-rows module's exports (assembly/completions/open-rows.ts): enumeration and completions. */
export interface WasmOpenRows {
  forbidPointer(): number;
  afterPointer(): number;
  placementPointer(): number;
  solutionsStart(n: number, after: number): void;
  solutionsNext(): number;
  statePointer(): number;
  stateBytes(): number;
  solutionsSave(): void;
  solutionsLoad(): void;
  rowsPointer(): number;
  allowPointer(): number;
  countCompletions(open: number): bigint;
  memory: WebAssembly.Memory;
}

/**
 * The bench/test build's exports (assembly/baseline/bench-entry.ts, build/nqueens-bench*.wasm,
 * loaded from the file by bench/wasm-bench.mjs; never part of dist/).
 */
export interface WasmBenchKernel extends WasmKernel {
  /** Plain bitmask DFS: solutions with the row-0 queen in column `col`. */
  countFirstRow(n: number, col: number): bigint;
  /** Test hook of the SIMD build: lane rows (2..16) and the fewest rows left that use SIMD. */
  setSimdTuning(laneRows: number, minRows: number): void;
}

/** Reads a u64 result: wasm hands i64 to JS as a signed bigint. */
export function u64(value: bigint): bigint {
  return BigInt.asUintN(64, value);
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The package's wasm modules, by the method that uses them. */
type ModuleKind = 'search' | 'join' | 'open-rows';
type Build = 'simd' | 'baseline';

/**
 * Each build's bytes are named once, here: minifiers copy a string constant
 * into each place that uses it (Vite's did, shipping the SIMD build twice).
 * The open-rows module has one build.
 */
const BUILDS: Readonly<Record<ModuleKind, Readonly<Partial<Record<Build, string>>>>> = {
  search: { simd: WASM_SIMD_BASE64, baseline: WASM_BASE64 },
  join: { simd: JOIN_WASM_SIMD_BASE64, baseline: JOIN_WASM_BASE64 },
  'open-rows': { baseline: WASM_OPEN_ROWS_BASE64 },
};

/** Compiles one build of a module; throws where WebAssembly cannot. */
export function compileBuild(kind: ModuleKind, build: Build): WebAssembly.Module {
  const builds = BUILDS[kind];
  // Its own keys: the open-rows module's missing SIMD build was read from Object.prototype where other code set `simd`.
  const text = (Object.hasOwn(builds, build) ? builds[build] : undefined) ?? builds.baseline!;
  return new WebAssembly.Module(decodeBase64(text));
}

/** Compiles one of the search kernel's two builds (tests and the benchmark compare them). */
export function compileKernel(build: Build): WebAssembly.Module {
  return compileBuild('search', build);
}

let simd: boolean | undefined;
let failure: unknown;
const compiled = new Map<ModuleKind, WebAssembly.Module>();

/** Whether this runtime validates the SIMD builds (asked once). */
function simdHere(): boolean {
  simd ??= typeof WebAssembly.validate === 'function' && WebAssembly.validate(decodeBase64(BUILDS.search.simd!));
  return simd;
}

/**
 * A module compiled once for this runtime (the SIMD build where it
 * validates), or undefined where WebAssembly is missing or refuses to
 * compile (a CSP without 'wasm-unsafe-eval', some runtimes). Whether wasm
 * works at all is decided by the search kernel, the first module compiled:
 * where it fails, every kind is unavailable and wasmFailure() says why.
 */
export function wasmModuleOf(kind: ModuleKind): WebAssembly.Module | undefined {
  const known = compiled.get(kind);
  if (known || failure) return known;
  try {
    if (typeof WebAssembly !== 'object' || WebAssembly === null)
      throw codedError('WebAssembly is not available', ERROR_CODES.WASM_UNAVAILABLE);
    if (kind !== 'search' && !wasmModuleOf('search')) return undefined;
    const module = compileHere(kind);
    compiled.set(kind, module);
    return module;
  } catch (error) {
    failure = error;
    return undefined;
  }
}

/**
 * The SIMD build where it validates, else the one without. The join's SIMD
 * build is over 4 KB, which Chrome before 114 refuses to compile
 * synchronously on a page's main thread (a RangeError): there the build
 * without SIMD, within 4 KB, counts instead.
 */
function compileHere(kind: ModuleKind): WebAssembly.Module {
  if (!simdHere()) return compileBuild(kind, 'baseline');
  try {
    return compileBuild(kind, 'simd');
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return compileBuild(kind, 'baseline');
  }
}

/** The search's counting kernel, compiled once (see wasmModuleOf). */
export function wasmModule(): WebAssembly.Module | undefined {
  return wasmModuleOf('search');
}

/** True when the search kernel is its SIMD build (the join may fall back: compileHere). */
export function wasmUsesSimd(): boolean {
  return wasmModule() !== undefined && simdHere();
}

/** Why wasm is unavailable, if it is. */
function wasmFailure(): unknown {
  wasmModule();
  return failure;
}

/**
 * The compiled module of `kind` for an engine choice, or null for the
 * TypeScript twin: 'auto' falls back to TypeScript when wasm is
 * unavailable, 'wasm' throws a coded error saying why.
 */
export function resolveWasm(kind: ModuleKind, engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  if (engine === 'js') return null;
  const module = wasmModuleOf(kind);
  if (engine === 'auto') return module && wasmMemoryHere() ? module : null;
  if (module) return module;
  const reason = wasmFailure();
  throw codedError(
    `engine 'wasm' is unavailable here (${reason instanceof Error ? reason.message : reason === undefined ? `the ${kind} module did not compile` : String(reason)}); ` +
      `use engine 'auto' to fall back to 'js'`,
    ERROR_CODES.WASM_UNAVAILABLE,
    reason,
  );
}

/**
 * A fresh instance of any module, with its own memory or, for a module that
 * imports one (the join's shared build), `memory`: the one instantiate path.
 * V8 reserves address space for each wasm memory (about 10 GB on 64-bit):
 * where it cannot (`ulimit -v`), the failure is ERR_NQUEENS_OUT_OF_MEMORY,
 * which engine 'auto' answers by counting in TypeScript.
 */
export function instantiate<E extends object>(module: WebAssembly.Module, memory?: WebAssembly.Memory): E {
  try {
    // Imports without a prototype: the loader fills `env` (abort, trace, seed) where it finds none of its own.
    const imports = ownKeysOnly({ env: ownKeysOnly(memory ? { memory } : {}) });
    return instantiateSync<Record<string, unknown>>(module, imports).exports as unknown as E;
  } catch (error) {
    if (!(error instanceof RangeError) || !/out of memory|cannot allocate/i.test(error.message)) throw error;
    throw rangeError(`cannot reserve a WebAssembly memory (ulimit -v?): ${error.message}`, ERROR_CODES.OUT_OF_MEMORY, error);
  }
}

let memoryHere: boolean | undefined;

/**
 * Whether this thread can reserve a wasm memory at all, tried once with an
 * instance of the search kernel: where it cannot, 'auto' picks TypeScript
 * from the start (a count whose later instances fail falls back in the runner).
 */
function wasmMemoryHere(): boolean {
  if (memoryHere === undefined) {
    try {
      instantiate(wasmModuleOf('search')!);
      memoryHere = true;
    } catch (error) {
      if (!hasCode(error, ERROR_CODES.OUT_OF_MEMORY)) throw error;
      memoryHere = false;
    }
  }
  return memoryHere;
}

let sharedJoin: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * The join's shared build (SIMD and threads: one memory for every worker of
 * a count), compiled asynchronously once: its bytes are imported only here,
 * so bundlers give them a chunk of their own. Undefined where it does not
 * compile or SIMD is missing.
 */
export function sharedJoinModule(): Promise<WebAssembly.Module | undefined> {
  sharedJoin ??= (async () => {
    if (!wasmModuleOf('search') || !simdHere()) return undefined;
    const { JOIN_WASM_SHARED_BASE64 } = await import('./wasm-shared-bytes.generated.js');
    return WebAssembly.compile(decodeBase64(JOIN_WASM_SHARED_BASE64));
  })().catch(() => undefined);
  return sharedJoin;
}

/** A fresh instance of the search kernel. */
export function instantiateKernel<K extends WasmKernel = WasmKernel>(module: WebAssembly.Module): K {
  return instantiate<K>(module);
}
