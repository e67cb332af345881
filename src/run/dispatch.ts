// The run layer's seam for the public API (src/index.ts): it chooses the
// engine and runs it, so the API file checks arguments and shapes results
// and names no engine. The CPU engines run through the runner; 'reference'
// and 'webgpu' run their own loops, reporting the same Progress.
import { abortError, type AbortSignalLike } from '../shared/abort.js';
import { ERROR_CODES, hasCode } from '../shared/errors.js';
import { inSlices, now } from '../shared/slices.js';
import type { Progress } from '../shared/progress.js';
import type { Rows } from '../shared/placements.js';
import { availableCoresNow } from '../contract/environment.js';
import { countOnThread } from '../contract/method.js';
import type { EngineChoice, EngineName } from '../engines/engine-names.js';
import { countReference, REFERENCE_PROGRESS_MS, referenceSolutions, runReference } from '../engines/reference.js';
import { resolveOpenRows } from '../completions/open-rows-kernel.js';
import {
  fundamentalSolutions,
  openRows,
  placedForbid,
  ReferenceCompletions,
  referenceCompletions,
  referenceFiltered,
} from '../completions/completions.js';
import type { CompletionsProgress } from '../completions/completion-types.js';
import { planSubproblems, type Subproblem } from '../search/constellations.js';
import { resolveAlgorithm, type AlgorithmChoice, type AlgorithmName } from './algorithm.js';
import { completionsProgress, runCompletions } from './completions-run.js';
import { methodForCount, methodForCountSteps } from './methods.js';
import { prestartWorkers } from './pool.js';
import { runMethod } from './runner.js';
import { planParts, workersToPrestart } from './thread-plan.js';
import type { CpuEngineChoice } from './engine-limits.js';

/** What a count found, and what ran it. */
export interface Counted {
  readonly total: bigint;
  readonly unique: bigint;
  readonly engine: EngineName;
  readonly threads: number;
}

interface CountRun {
  engine: EngineChoice;
  algorithm: AlgorithmChoice;
  threads?: number | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  signal?: AbortSignalLike | undefined;
}

/** countSync's count: on the calling thread, blocking it, with the algorithm `choice` resolves to. */
export function countOnCallingThread(n: number, engine: CpuEngineChoice, choice: AlgorithmChoice): Counted & { algorithm: AlgorithmName } {
  const algorithm = resolveAlgorithm(n, engine, choice);
  if (engine === 'reference') return { ...countReference(n), engine, algorithm, threads: 1 };
  const method = methodForCount(n, algorithm, 1);
  let module = method.module(engine);
  let counted;
  try {
    counted = countOnThread(method, module);
  } catch (error) {
    // An instance that cannot reserve its memory (`ulimit -v`): 'auto' counts in TypeScript, as the runner does.
    if (engine !== 'auto' || !module || !hasCode(error, ERROR_CODES.OUT_OF_MEMORY)) throw error;
    module = null;
    counted = countOnThread(method, null);
  }
  return { total: counted.total, unique: counted.unique, engine: module ? 'wasm' : 'js', algorithm, threads: 1 };
}

/**
 * count()'s count, on the engine asked for, with the algorithm `run.algorithm`
 * resolves to (a RangeError first where it cannot run this n, even when the
 * signal is already aborted).
 */
export async function countByEngine(n: number, run: CountRun): Promise<Counted & { algorithm: AlgorithmName }> {
  const { engine, threads, onProgress, signal } = run;
  const algorithm = resolveAlgorithm(n, engine, run.algorithm);
  if (signal?.aborted) throw abortError(signal);
  if (engine === 'reference') return { ...(await runReference(n, { signal, onProgress })), engine, algorithm, threads: 1 };
  if (engine === 'webgpu') {
    // Loaded only here: an app that never asks for the GPU never downloads its host (a chunk of its own in a bundle).
    const { countWebGpu } = await import('../search/webgpu/webgpu.js');
    return { ...(await countWebGpu(n, { signal, onProgress })), engine, algorithm, threads: 1 };
  }
  // Workers take tens of milliseconds to start: from here, they start while this thread plans.
  const cores = availableCoresNow();
  const early = workersToPrestart(n, threads, cores);
  // The plan is cut for the threads that will count, and made in slices: n = 32's held the event loop 0.3 s, n = 23's 0.5 s.
  const planSteps = startingWorkers(methodForCountSteps(n, algorithm, planParts(threads, cores)), early);
  const method = await inSlices(planSteps, signal);
  const r = await runMethod(method, { engine, threads, onProgress, signal });
  return { total: r.total, unique: r.unique, engine: r.engine, algorithm, threads: r.threads };
}

/**
 * `plan`'s steps, with one of `workers` workers started (prestartWorkers)
 * after each step, and those left at once if it ends first (a plan made
 * before): started all before its first step, they held the event loop
 * 8 ms each, 40 ms the first in a process (Node loads its worker modules).
 * Closed early (an abort), it closes `plan`.
 */
function* startingWorkers<T>(plan: Iterator<void, T>, workers: number): Generator<void, T, undefined> {
  try {
    for (let started = 1; ; started++) {
      const step = plan.next();
      if (step.done) {
        if (workers > 0) prestartWorkers(workers);
        return step.value;
      }
      yield;
      if (started <= workers) {
        prestartWorkers(started);
        yield;
      }
    }
  } finally {
    plan.return?.();
  }
}

/** The solutions of n as placements, in lexicographic order, narrowed as asked. */
export function solutionSource(
  n: number,
  engine: CpuEngineChoice,
  only: { rows: Rows | undefined; unique: boolean; after: number[] | undefined },
): Iterator<number[]> {
  const { rows, unique, after } = only;
  if (engine === 'reference') return unique || rows || after ? referenceFiltered(n, rows, unique, after) : referenceSolutions(n);
  const kernel = resolveOpenRows(engine);
  return unique ? fundamentalSolutions(kernel, n, after) : kernel.solutions(n, rows ? placedForbid(n, rows) : new Int32Array(n), after);
}

/** countCompletionsSync's count of the boards holding queens `rows` (at least one), on the calling thread. */
export function completionsOnCallingThread(n: number, rows: Rows, engine: CpuEngineChoice): { total: bigint; engine: EngineName } {
  if (engine === 'reference') return { total: referenceCompletions(n, rows), engine };
  const kernel = resolveOpenRows(engine);
  const open = openRows(n, rows);
  return { total: kernel.countOpenRows(open.rows, open.allow), engine: kernel.name };
}

interface CompletionsByEngine {
  engine: CpuEngineChoice;
  threads?: number | undefined;
  onProgress?: ((progress: CompletionsProgress) => void) | undefined;
  signal?: AbortSignalLike | undefined;
}

/** countCompletions' count of the boards holding queens `rows` (at least one). */
export async function completionsByEngine(n: number, rows: Rows, run: CompletionsByEngine): Promise<Omit<Counted, 'unique'>> {
  const { engine, onProgress } = run;
  if (engine === 'reference') return { total: await referenceCompletionsInSlices(n, rows, run), engine, threads: 1 };
  return runCompletions({ n, rows, engine, threads: run.threads, signal: run.signal, onProgress });
}

/** Steps of the reference's completion walk a step (between looks at the clock). */
const REFERENCE_STEPS = 4096;

/**
 * The reference's completion count on the calling thread, in slices that let
 * the event loop run (an abort, other work: inSlices), reporting progress as
 * the other engines do: at the start, at most every 100 ms, and at the end.
 */
function referenceCompletionsInSlices(n: number, rows: Rows, run: CompletionsByEngine): Promise<bigint> {
  const steps = referenceCompletionSteps(n, rows, run.onProgress);
  return inSlices(steps, run.signal);
}

/** The reference's completion count in steps: its start reported, then a step where its first slice waits its turn. */
function* referenceCompletionSteps(n: number, rows: Rows, onProgress: CompletionsByEngine['onProgress']): Generator<void, bigint> {
  const start = now();
  const walk = new ReferenceCompletions(n, rows);
  let fraction = 0;
  let lastReport = start;
  const report = (done: boolean): void => {
    if (!onProgress) return;
    fraction = done ? 1 : Math.max(fraction, Math.min(walk.fraction(), 1 - Number.EPSILON)); // below 1 until the end
    const total = BigInt(walk.found);
    onProgress(completionsProgress({ n, finished: done ? 1 : 0, units: 1, fraction, total, elapsedMs: now() - start }));
    lastReport = now();
  };
  report(false); // its start, as every count reports it
  yield; // the first slice waits its turn too, as the other engines' do
  while (!walk.tally(REFERENCE_STEPS)) {
    if (now() - lastReport >= REFERENCE_PROGRESS_MS) report(false);
    yield;
  }
  report(true);
  return BigInt(walk.found);
}

/** The search's subproblems for n (planSubproblems in the API). */
export function searchSubproblems(n: number): readonly Subproblem[] {
  return planSubproblems(n);
}
