// The engines behind count() and solutions(): the wasm kernel, the same
// algorithm in TypeScript, and the array-backtracking reference.
import { planSubproblems, type Subproblem, type SubproblemCount } from './constellations.js';
import * as symmetry from './kernels/symmetry.js';
import { bitmaskSolutions } from './kernels/solutions.js';
import { instantiateKernel, u64, wasmFailure, wasmModule, type WasmKernel } from './kernels/wasm.js';

export const ENGINES = ['auto', 'wasm', 'js', 'reference'] as const;
export type EngineChoice = (typeof ENGINES)[number];
export type EngineName = Exclude<EngineChoice, 'auto'>;

/**
 * A kernel that runs the symmetry search's subproblems and enumerates
 * solutions. (The plain bitmask DFS the benchmark compares against is a
 * bench concern: src/kernels/bitmask.ts and the wasm bench build.)
 */
export interface Kernel {
  readonly name: 'wasm' | 'js';
  countSubproblem(n: number, s: Subproblem): SubproblemCount;
  solutions(n: number): Iterator<number[]>;
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

function countSubproblemJs(n: number, s: Subproblem): SubproblemCount {
  if (!jsWarmedUp && n >= JS_WARM_UP_FROM) {
    jsWarmedUp = true;
    for (const small of planSubproblems(13)) symmetry.countSubproblem(13, small);
  }
  return symmetry.countSubproblem(n, s);
}

export const jsKernel: Kernel = {
  name: 'js',
  countSubproblem: countSubproblemJs,
  solutions: bitmaskSolutions,
};

function* wasmSolutions(module: WebAssembly.Module, n: number): Generator<number[], void, undefined> {
  // Each enumeration keeps its state in its own instance, so several can interleave.
  const kernel = instantiateKernel(module);
  kernel.solutionsStart(n);
  while (kernel.solutionsNext() === 1) {
    yield Array.from(new Uint8Array(kernel.memory.buffer, kernel.placementPointer(), n));
  }
}

/**
 * Wraps an instance. Call once per module; warms the hot functions. `setUp`
 * sees the raw instance first (the tests tune the bench build through it).
 */
export function wasmKernelFrom<K extends WasmKernel = WasmKernel>(module: WebAssembly.Module, setUp?: (instance: K) => void): Kernel {
  const k = instantiateKernel<K>(module);
  setUp?.(k);
  const kernel: Kernel = {
    name: 'wasm',
    countSubproblem(n, s) {
      const solutions = u64(k.countConstellation(n, s.a, s.b, s.c, s.d));
      return { solutions, fixes: s.symmetries === 0 ? 0n : u64(k.countConstellationFixes(n, s.a, s.b, s.c, s.d, s.symmetries)) };
    },
    solutions: (n) => wasmSolutions(module, n),
  };
  // V8 runs new wasm in its baseline tier and cannot swap in optimised code
  // while a call is running, so run the hot loops a little before real work:
  // the plain subproblem search, and (n = 14 with 11 rows left) the SIMD one.
  for (let i = 0; i < 20; i++) {
    k.countConstellation(10, 1, 6, 4, 3);
    if (i % 4 === 0) k.countConstellation(14, 12, 13, 11, 13);
  }
  return kernel;
}

let wasmKernel: Kernel | undefined;

/** The shared wasm kernel, or undefined where WebAssembly is unavailable. */
export function getWasmKernel(): Kernel | undefined {
  if (wasmKernel) return wasmKernel;
  const module = wasmModule();
  if (module) wasmKernel = wasmKernelFrom(module);
  return wasmKernel;
}

/**
 * The compiled wasm kernel for a choice, or null for the TypeScript one:
 * 'auto' falls back to TypeScript when wasm is unavailable, 'wasm' throws.
 */
export function resolveModule(engine: 'auto' | 'wasm' | 'js'): WebAssembly.Module | null {
  if (engine === 'js') return null;
  const module = wasmModule();
  if (module || engine === 'auto') return module ?? null;
  const reason = wasmFailure();
  throw new Error(
    `engine 'wasm' is unavailable here (${reason instanceof Error ? reason.message : String(reason)}); ` +
      `use engine 'auto' to fall back to 'js'`,
  );
}

/** The kernel for a choice, on this thread (see resolveModule). */
export function resolveKernel(engine: 'auto' | 'wasm' | 'js'): Kernel {
  return resolveModule(engine) ? getWasmKernel()! : jsKernel;
}
