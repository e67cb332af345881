// Writing to a terminal without ever blocking the thread. Node makes a
// terminal's writes blocking on POSIX, so a terminal that holds its output
// (Ctrl-S, or a pty whose reader stops reading) held the whole command in
// write(2), where no signal's handler runs: Ctrl-C did nothing until Ctrl-Q.
// Here the terminal is opened anew, non-blocking (a description of our own,
// so the shell's stays as it was); what it does not take at once waits in a
// backlog written on timers, the event loop running (and a stop signal's
// handler with it) in between.
import { closeSync, constants, fstatSync, openSync, readlinkSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Longest pause, in ms, between tries while the terminal holds output (about 16 wake-ups a second). */
const MAX_PAUSE_MS = 64;

/** A terminal device's own name (`/dev/pts/3`, `/dev/tty1`), not the pty master (`/dev/ptmx`: opening it makes a new pty). */
const TERMINAL_NAME = /^\/dev\/(pts\/\d+|tty\w*)$/;

class Terminal {
  private backlog: Buffer[] = [];
  /** The error that stopped the writes (the terminal gone: EIO); nothing is written after it. */
  failure: unknown;
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private pauseMs = 1;

  constructor(private readonly fd: number) {}

  /**
   * Writes `text`: what the terminal takes now at once, the rest (all of it
   * behind an earlier backlog) as it takes it. Throws a failure of the
   * write made now; a later one is drained()'s, and `failure`.
   */
  write(text: string): void {
    if (this.failure !== undefined) return;
    this.backlog.push(Buffer.from(text, 'utf8'));
    if (this.backlog.length === 1) this.writeSome(true);
  }

  /** Writes `text` only if the terminal takes all of it now (a progress bar's frame: the next one replaces it). */
  writeIfFree(text: string): void {
    if (this.backlog.length > 0 || this.failure !== undefined) return;
    const buffer = Buffer.from(text, 'utf8');
    try {
      const written = writeSync(this.fd, buffer);
      // Cut short: the rest must follow, or the line is left half drawn.
      if (written < buffer.length) this.queue(buffer.subarray(written));
    } catch {
      // Held (EAGAIN) or gone: a frame is not worth waiting for.
    }
  }

  /** Settles once everything written so far has reached the terminal, or rejects with the failure that stopped it. */
  drained(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.backlog.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private queue(rest: Buffer): void {
    this.backlog.push(rest);
    this.schedule();
  }

  private schedule(): void {
    setTimeout(() => this.writeSome(false), this.pauseMs);
    this.pauseMs = Math.min(MAX_PAUSE_MS, this.pauseMs * 2);
  }

  /** Writes from the backlog until it is empty or the terminal holds output (then tries again later). `now`: rethrow a failure. */
  private writeSome(now: boolean): void {
    while (this.backlog.length > 0) {
      const head = this.backlog[0];
      let written: number;
      try {
        written = writeSync(this.fd, head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return this.schedule();
        this.fail(error);
        if (now) throw error;
        return;
      }
      this.pauseMs = 1;
      if (written < head.length) this.backlog[0] = head.subarray(written);
      else this.backlog.shift();
    }
    for (const { resolve } of this.waiting.splice(0)) resolve();
  }

  private fail(error: unknown): void {
    this.failure = error;
    this.backlog = [];
    for (const { reject } of this.waiting.splice(0)) reject(error);
  }
}

const terminals = new Map<number, Terminal | null>();

/**
 * The terminal `fd` (1 or 2) writes to, opened anew without blocking, or
 * null where it is no terminal or cannot be opened so (no /proc: not Linux;
 * Node's permission model): there the command writes as it always did,
 * blocking. Stdout and stderr on one terminal share one, keeping their order.
 */
export function terminalOf(fd: 1 | 2): Terminal | null {
  let terminal = terminals.get(fd);
  if (terminal === undefined) {
    terminal = openTerminal(fd);
    terminals.set(fd, terminal);
  }
  return terminal;
}

function openTerminal(fd: 1 | 2): Terminal | null {
  if (!isatty(fd)) return null;
  let device: number;
  let own: number;
  try {
    device = fstatSync(fd).rdev;
    if (!TERMINAL_NAME.test(readlinkSync(`/proc/self/fd/${fd}`))) return null;
    own = openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    if (fstatSync(own).rdev === device) {
      const other = fd === 1 ? 2 : 1;
      const shared = terminals.get(other);
      if (shared && isatty(other) && fstatSync(other).rdev === device) {
        closeSync(own);
        return shared;
      }
      return new Terminal(own);
    }
  } catch {
    // Not the same terminal after all: write as before.
  }
  closeSync(own);
  return null;
}
