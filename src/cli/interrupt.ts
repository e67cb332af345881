// Long counts from the terminal: a progress bar, and Ctrl-C as an abort
// (a second Ctrl-C, as terminals and `timeout` often send, exits at once,
// still cleaning up: no FILE.partial left, a message, status 130).
import { ERROR_CODES } from '../shared/errors.js';
import { discardPendingFiles } from './files.js';
import { progressBar, type ProgressBar } from './progress-bar.js';

/** The count was interrupted: exit status 130. */
export class Interrupted extends Error {
  readonly code = ERROR_CODES.INTERRUPTED;
}

const controller = new AbortController();
let installed = false;
/** A count is running under withProgress: Ctrl-C aborts it (else the command stops at once). */
let counting = false;

/**
 * Ctrl-C, from the start of the command: the first aborts the count (or the
 * count about to start), the second exits at once, after discarding output
 * files not yet written. Installed before any file is reserved, so no signal
 * finds the process without its handler.
 */
export function installInterrupts(): void {
  if (installed) return;
  installed = true;
  process.on('SIGINT', () => {
    if (controller.signal.aborted || !counting) {
      discardPendingFiles();
      process.stderr.write(`nqueens: interrupted${counting ? ' again: stopped at once' : ''}; output files not written\n`);
      process.exit(130);
    }
    controller.abort();
  });
}

/** Runs work with a progress bar on stderr and Ctrl-C wired to its signal. */
export async function withProgress<T>(work: (bar: ProgressBar, signal: AbortSignal) => Promise<T>): Promise<T> {
  const bar = progressBar(process.stderr);
  installInterrupts();
  counting = true;
  try {
    return await work(bar, controller.signal);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw new Interrupted('interrupted');
    throw error;
  } finally {
    counting = false;
    bar.clear();
  }
}
