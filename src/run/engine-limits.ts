// What each engine can run, in one place: the API (src/index.ts) and the
// CLI ask here instead of comparing engine names themselves.
import { ENGINES, type EngineChoice } from '../engines/engine-names.js';

/** The engines of the calling thread and the CPU workers: all but 'webgpu'. */
export type CpuEngineChoice = Exclude<EngineChoice, 'webgpu'>;

/** Whether `engine` runs on the CPU (everything but count() takes only these). */
export function isCpuEngine(engine: EngineChoice): engine is CpuEngineChoice {
  return engine !== 'webgpu';
}

/** ENGINES less 'webgpu', in their order: what a function other than count() lists as its choices. */
export const CPU_ENGINES: readonly CpuEngineChoice[] = Object.freeze(ENGINES.filter(isCpuEngine));

/**
 * Why `engine` counts on one thread only (its count is not split into
 * units the threads share), or undefined where it takes any threads.
 */
export function singleThreadReason(engine: EngineChoice): string | undefined {
  if (engine === 'reference') return 'it has no subproblems to share';
  if (engine === 'webgpu') return 'the GPU runs the whole count';
  return undefined;
}
