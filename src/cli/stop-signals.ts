// The stop signals (SIGINT, SIGTERM, SIGHUP), the exit status of each, and
// how a message names them (interrupt.ts handles them).

/** The signals that stop a count cleanly, and the exit status of each (128 + its number). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** "interrupted", naming the signal where it was not Ctrl-C's. */
export function interruptedBy(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'interrupted' : `interrupted (${signal})`;
}
