// The symmetry search's kernels on one thread: the wasm kernel
// (assembly/search/) and its TypeScript twin (src/search/symmetry.ts), behind
// one interface.
import type { Subproblem, SubproblemCount } from './constellations.js';
import { planSubproblems } from './constellations.js';
import * as symmetry from './symmetry.js';
import type { PlacedRows } from './symmetry.js';
import { instantiateKernel, resolveWasm, u64, wasmModule, type WasmKernel } from '../engines/wasm-loader.js';
import { oncePer } from '../shared/once-per.js';

/**
 * A kernel that runs the symmetry search's subproblems and enumerates
 * solutions. (The plain bitmask DFS the benchmark compares against is in
 * src/baseline/.)
 */
export interface Kernel {
  readonly name: 'wasm' | 'js';
  countSubproblem(n: number, s: Subproblem): SubproblemCount;
  /** The solutions containing the constellation and the queens placed in its first inner rows (a plan unit). */
  countPlaced(n: number, s: Subproblem, placed: PlacedRows): bigint;
  /** A symmetric constellation's fixes alone (Burnside's lemma; the same TypeScript search in every engine). */
  countFixes(n: number, s: Subproblem): bigint;
}

/**
 * Counts from this n first run the TS kernel over every subproblem of n = 13
 * (about 0.1 s, once per thread). V8 optimises the kernel's functions while
 * the first count runs, and the code it settles on depends on that count:
 * starting cold on n = 17, the kernel took 1.12x the time of the wasm build
 * without SIMD in two benchmark runs; warmed on n = 13 first, 1.00x.
 */
const JS_WARM_UP_FROM = 16;
let jsWarmedUp = false;

function warmUpJs(n: number): void {
  if (!jsWarmedUp && n >= JS_WARM_UP_FROM) {
    jsWarmedUp = true;
    for (const small of planSubproblems(13)) symmetry.countSubproblem(13, small);
  }
}

function countSubproblemJs(n: number, s: Subproblem): SubproblemCount {
  warmUpJs(n);
  return symmetry.countSubproblem(n, s);
}

export const jsKernel: Kernel = {
  name: 'js',
  countSubproblem: countSubproblemJs,
  countPlaced(n, s, placed) {
    warmUpJs(n);
    return symmetry.countPlaced(n, s, placed);
  },
  countFixes: symmetry.countFixesOnly,
};

/**
 * Wraps an instance. Call once per module; warms the hot functions. `setUp`
 * sees the raw instance first (the tests tune the bench build through it).
 */
export function wasmKernelFrom<K extends WasmKernel = WasmKernel>(module: WebAssembly.Module, setUp?: (instance: K) => void): Kernel {
  const k = instantiateKernel<K>(module);
  setUp?.(k);
  const countFixes = (n: number, s: Subproblem): bigint =>
    s.symmetries === 0 ? 0n : u64(k.countConstellationFixes(n, s.a, s.b, s.c, s.d, s.symmetries));
  const kernel: Kernel = {
    name: 'wasm',
    countSubproblem(n, s) {
      const solutions = u64(k.countConstellation(n, s.a, s.b, s.c, s.d, 0, 0, 0, 0));
      return { solutions, fixes: countFixes(n, s) };
    },
    countPlaced: (n, s, p) => u64(k.countConstellation(n, s.a, s.b, s.c, s.d, p.rows, p.cols, p.ld, p.rd)),
    countFixes,
  };
  // V8 runs new wasm in its baseline tier and cannot swap in optimised code
  // while a call is running, so run the hot loops a little before real work:
  // the plain subproblem search, and (n = 14 with 11 rows left) the SIMD one.
  for (let i = 0; i < 20; i++) {
    k.countConstellation(10, 1, 6, 4, 3, 0, 0, 0, 0);
    if (i % 4 === 0) k.countConstellation(14, 12, 13, 11, 13, 0, 0, 0, 0);
  }
  return kernel;
}

let wasmKernel: Kernel | undefined;

/** The shared wasm kernel, or undefined where WebAssembly is unavailable. */
export function getWasmKernel(): Kernel | undefined {
  if (wasmKernel) return wasmKernel;
  const module = wasmModule();
  if (module) wasmKernel = kernelOf(module);
  return wasmKernel;
}

/**
 * The kernel of `module` on this thread, instantiated and warmed on first use
 * (countSync makes a counter per call): one per module, as its calls keep no
 * state between them, and instantiating and warming up cost 0.3 ms.
 */
export const kernelOf: (module: WebAssembly.Module) => Kernel = oncePer((module: WebAssembly.Module) => wasmKernelFrom(module));

/** The search's compiled kernel for a choice, or null for TypeScript ('wasm' throws where it is unavailable). */
export function resolveModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  return resolveWasm('search', engine);
}
