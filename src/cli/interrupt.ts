// Long counts from the terminal and from batch systems: a progress bar, and
// SIGINT (Ctrl-C), SIGTERM (kill, scancel, a Slurm time limit, a Kubernetes
// eviction) and SIGHUP (a closed terminal) as an abort: finished units stay
// in the checkpoint, no FILE.partial is left, and the status is 128 + the
// signal's number (130, 143, 129). A second signal, as terminals and
// `timeout` often send, exits at once, still cleaning up, with the first
// one's status (the message names both where they differ). Once the command
// has written its result, a signal stops nothing: the process ends with the
// command's status.
import { ERROR_CODES } from '../shared/errors.js';
import { discardPendingFiles, printErr } from './files.js';
import { progressBar, type ProgressBar, type Screen } from './progress-bar.js';
import { terminalOf } from './terminal.js';
import { interruptedBy, STOP_SIGNALS, type StopSignal } from './stop-signals.js';

/**
 * A second signal's words: `interrupted again` where it repeats the first,
 * else both, in order (`interrupted (SIGTERM), then SIGINT`: a batch
 * system's SIGTERM, then Ctrl-C at the terminal; before, only the second).
 */
function interruptedTwice(first: StopSignal, second: StopSignal): string {
  if (first === second) return `${interruptedBy(first)} again`;
  return `interrupted (${first}), then ${second}`;
}

/** The count was interrupted by a signal: exit status 128 + its number. The message says what was kept (`outcome`). */
export class Interrupted extends Error {
  readonly code = ERROR_CODES.INTERRUPTED;
  readonly signal: StopSignal;
  constructor(outcome?: string) {
    const signal = received ?? 'SIGINT';
    super(outcome ? `${interruptedBy(signal)}; ${outcome}` : interruptedBy(signal));
    this.signal = signal;
  }
  /** The exit status: 128 + the signal's number. */
  get status(): number {
    return STOP_SIGNALS[this.signal];
  }
}

const controller = new AbortController();
let installed = false;
/** A count is running under withProgress: a signal aborts it (else the command stops at once). */
let counting = false;
/** The first stop signal received. */
let received: StopSignal | undefined;
/** The command's exit status, once it has written all it had to (see exitWith). */
let finished: number | undefined;

/**
 * The stop signals, from the start of the command: the first aborts the
 * count (or the count about to start), the second exits at once, after
 * discarding output files not yet written, with the first's status (it is
 * what stopped the count; a batch system's SIGTERM stays 143 when Ctrl-C
 * follows). Installed before any file is reserved, so no signal finds the
 * process without its handler.
 */
export function installInterrupts(): void {
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    process.on(signal, () => {
      // The result is written (and files flushed): nothing is left to stop or lose.
      if (finished !== undefined) process.exit(finished);
      const first = received;
      received ??= signal;
      if (first !== undefined || !counting) {
        const discarded = discardPendingFiles() > 0 ? '; output files not written' : '';
        const said = first === undefined ? interruptedBy(signal) : `${interruptedTwice(first, signal)}: stopped at once`;
        printErr(`nqueens: ${said}${discarded}`);
        process.exit(STOP_SIGNALS[received]);
      }
      controller.abort();
    });
  }
}

/**
 * Ends the command with `status` once its work is written. A stop signal
 * from now on exits with `status` at once (it would otherwise print
 * "interrupted" over a result already given), and once the event loop is
 * idle the process exits through process.exit: left to Node's own teardown,
 * it closes the signals' handlers before the process is gone, and a signal
 * in that moment (a few ms) killed it, the shell seeing a death by signal
 * after a complete result.
 */
export function exitWith(status: number): void {
  finished = status;
  process.exitCode = status;
  process.once('beforeExit', () => process.exit(status));
}

/**
 * A turn of the event loop for work that runs on this thread (solve's
 * search, merge --verify's recounts): a signal's handler runs only then, so
 * without one Ctrl-C would wait for the whole listing or verification.
 */
export function letSignalsIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** stderr, for the bar: where it is a terminal, one that drops a frame while it holds output (Ctrl-S) rather than block. */
function stderrScreen(): Screen {
  const terminal = terminalOf(2);
  if (!terminal) return process.stderr;
  return {
    isTTY: true,
    get columns() {
      return process.stderr.columns;
    },
    write: (text: string) => (terminal.write(text), true),
    writeFrame: (text) => terminal.writeIfFree(text),
  };
}

/** Runs work with a progress bar on stderr and the stop signals wired to its signal. */
export async function withProgress<T>(work: (bar: ProgressBar, signal: AbortSignal) => Promise<T>): Promise<T> {
  const bar = progressBar(stderrScreen());
  installInterrupts();
  counting = true;
  try {
    return await work(bar, controller.signal);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw new Interrupted();
    throw error;
  } finally {
    counting = false;
    bar.clear();
  }
}
