// A completion count run as a Method's units, on the calling thread or the
// worker pool: the run layer's, above the completions folder it uses.
import type { AbortSignalLike } from '../shared/abort.js';
import { availableCores } from '../contract/environment.js';
import { completionsMethod } from '../completions/completions-method.js';
import { openRows, splitCompletions, type Rows } from '../completions/completions.js';
import type { CompletionsProgress } from '../completions/completion-types.js';
import { runMethod } from './runner.js';
import { completionsThreads } from './thread-plan.js';

interface CompletionsRun {
  n: number;
  rows: Rows;
  engine: 'auto' | 'wasm' | 'js';
  threads?: number;
  signal?: AbortSignalLike | undefined;
  onProgress?: (progress: CompletionsProgress) => void;
}

/** Units per thread, so workers finish together. */
const UNITS_PER_THREAD = 64;

export async function runCompletions(run: CompletionsRun): Promise<{ total: bigint; engine: 'wasm' | 'js'; threads: number }> {
  const { n, onProgress } = run;
  const open = openRows(n, run.rows);
  const threads = completionsThreads(open.rows.length, run.threads, await availableCores());
  const units = splitCompletions(open, UNITS_PER_THREAD * Math.max(1, threads));
  const r = await runMethod(completionsMethod(n, units), {
    engine: run.engine,
    threads,
    signal: run.signal,
    onProgress: onProgress && ((p) => onProgress(completionsProgress(p))),
  });
  return { total: r.total, engine: r.engine, threads: r.threads };
}

/** A completions progress report from a count's (with `subproblems`, the old name of `units`). */
export function completionsProgress(p: Omit<CompletionsProgress, 'subproblems'>): CompletionsProgress {
  return {
    n: p.n,
    finished: p.finished,
    units: p.units,
    subproblems: p.units,
    fraction: p.fraction,
    total: p.total,
    elapsedMs: p.elapsedMs,
  };
}
