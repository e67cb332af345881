// The stop signals (SIGINT, SIGTERM, SIGHUP), the exit status of each, and
// their first handler. main.ts installs it before the command's modules load
// (about 0.1 s, most of the command's start): before, a signal then took its
// default action, the shell seeing a death by signal and no message. Nothing
// is written or reserved before those modules run, so this handler only says
// so and exits; interrupt.ts installs the command's own handlers, then hands
// over (stopSignalsHandedOver), never leaving a signal without a handler.
import { writeSync } from 'node:fs';

/** The signals that stop a count cleanly, and the exit status of each (128 + its number). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** "interrupted", naming the signal where it was not Ctrl-C's. */
export function interruptedBy(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'interrupted' : `interrupted (${signal})`;
}

/** A stop signal while the command loads: nothing has started, so it ends at once, as interrupt.ts ends one before a count. */
function stopWhileLoading(signal: StopSignal): void {
  try {
    writeSync(2, `nqueens: ${interruptedBy(signal)}\n`);
  } catch {
    // Nowhere left to say it: the exit status still tells.
  }
  process.exit(STOP_SIGNALS[signal]);
}

const signals = Object.keys(STOP_SIGNALS) as StopSignal[];

/** The first handler of the stop signals, for the time the command's modules load. */
export function catchStopSignalsWhileLoading(): void {
  for (const signal of signals) process.on(signal, stopWhileLoading);
}

/** Removes the loading handler, once the command's own are installed (removed first, a signal could find none). */
export function stopSignalsHandedOver(): void {
  for (const signal of signals) process.off(signal, stopWhileLoading);
}
