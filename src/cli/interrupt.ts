// Long counts from the terminal: a progress bar, and Ctrl-C as an abort
// (a second Ctrl-C exits at once).
import { ERROR_CODES } from '../shared/errors.js';
import { progressBar, type ProgressBar } from './progress-bar.js';

/** The count was interrupted: exit status 130. */
export class Interrupted extends Error {
  readonly code = ERROR_CODES.INTERRUPTED;
}

function interruptible(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

/** Runs work with a progress bar on stderr and Ctrl-C wired to its signal. */
export async function withProgress<T>(work: (bar: ProgressBar, signal: AbortSignal) => Promise<T>): Promise<T> {
  const bar = progressBar(process.stderr);
  const { signal, dispose } = interruptible();
  try {
    return await work(bar, signal);
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw new Interrupted('interrupted');
    throw error;
  } finally {
    bar.clear();
    dispose();
  }
}
