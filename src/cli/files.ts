// Writing that never claims a success it did not have: stdout written with
// its errors seen (a closed pipe ends the command quietly with status 0; a
// full disk or an I/O error fails it with status 1), and output files
// checked before any counting starts, then written whole or not at all.
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { codedError, ERROR_CODES, failure } from '../shared/errors.js';
import { kindOf } from './regular-file.js';

/** stdout was closed by its reader (`| head`): stop at once, exit status 0. */
export class OutputClosed extends Error {}

const pause = new Int32Array(new SharedArrayBuffer(4));

function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '')})` : String(e?.message ?? e);
}

/** Writes all of `text` to a file descriptor, waiting out a full non-blocking pipe. */
function writeAll(fd: number, text: string): void {
  let buffer = Buffer.from(text, 'utf8');
  while (buffer.length > 0) {
    let written: number;
    try {
      written = writeSync(fd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      throw error;
    }
    buffer = buffer.subarray(written);
  }
}

/** Writes to stdout synchronously; OutputClosed on a closed pipe, a coded Error on any other failure. */
export function writeOut(text: string): void {
  try {
    writeAll(1, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') throw new OutputClosed('stdout was closed');
    throw failure(`cannot write to stdout: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
  }
}

/**
 * Whether stdout was closed when the process started (`nqueens count 8 >&-`):
 * Node then opens /dev/null read-write in its place, so the result would
 * vanish. A /dev/null the shell redirected to (`> /dev/null`) is write-only
 * and is left alone. Linux only (/proc); elsewhere false.
 */
export function stdoutClosedAtStart(): boolean {
  try {
    if (readlinkSync('/proc/self/fd/1') !== '/dev/null') return false;
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'));
    return flags !== null && (parseInt(flags[1], 8) & 3) === 2; // O_RDWR
  } catch {
    return false;
  }
}

/** A line to stdout. */
export function println(line = ''): void {
  writeOut(line + '\n');
}

/**
 * An output file reserved before the count: its temporary sibling is
 * created at once (so a missing directory, no permission or a full disk
 * fails before any work), and commit() writes, flushes and renames it into
 * place, so FILE is either the whole result or untouched. Only a regular
 * file is ever replaced: a device, FIFO or directory is refused, and the
 * temporary is created exclusively, so a leftover FILE.partial (a symbolic
 * link to someone's file, another count's temporary) is refused, not followed.
 */
export class PendingFile {
  /** Where the result lands: FILE, or the file a symbolic link FILE points to (written through, the link kept). */
  private readonly target: string;
  private readonly temporary: string;
  private fd: number | undefined;

  constructor(
    readonly file: string,
    readonly what: string,
  ) {
    let target = file;
    try {
      if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsAsLink(file))
        throw failure(
          `cannot write ${what} to ${file}: it is a symbolic link to nowhere (${describeError(error)})`,
          ERROR_CODES.WRITE_FAILED,
        );
    }
    this.target = target;
    this.refuseSpecialFile();
    this.temporary = `${target}.partial`;
    try {
      // O_EXCL: never through a link, never another's file.
      this.fd = openSync(this.temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw failure(
          `cannot write ${what} to ${file}: ${this.temporary} already exists (left by a count that was killed, or another count writing ${file} now); remove it if no count is writing ${file}`,
          ERROR_CODES.WRITE_FAILED,
        );
      throw failure(`cannot write ${what} to ${file}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
    pending.add(this);
  }

  /** Refuses a target that exists and is not a regular file (a device, FIFO, directory, socket). */
  private refuseSpecialFile(): void {
    let stat;
    try {
      stat = statSync(this.target);
    } catch {
      return; // Does not exist yet: fine.
    }
    if (!stat.isFile())
      throw failure(
        `cannot write ${this.what} to ${this.file}: it is ${kindOf(stat)}, not a regular file (outputs are written to regular files only)`,
        ERROR_CODES.WRITE_FAILED,
      );
  }

  commit(text: string): void {
    if (this.fd === undefined) throw codedError(`${this.file} was already written`, ERROR_CODES.INTERNAL);
    try {
      writeAll(this.fd, text);
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = undefined;
      this.refuseSpecialFile(); // made one while the count ran
      renameSync(this.temporary, this.target);
      pending.delete(this);
    } catch (error) {
      this.discard();
      if ((error as { code?: unknown }).code === ERROR_CODES.WRITE_FAILED) throw error;
      throw failure(`cannot write ${this.what} to ${this.file}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
  }

  /** Removes the temporary file (a failed or interrupted count); after commit() it is gone already. */
  discard(): void {
    if (!pending.delete(this)) return; // committed or discarded: FILE.partial may be another's now
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing.
      }
      this.fd = undefined;
    }
    try {
      unlinkSync(this.temporary);
    } catch {
      // Gone already.
    }
  }
}

/** Output files not yet committed: a hurried exit (a second Ctrl-C) discards them. */
const pending = new Set<PendingFile>();

/** Discards every output file not yet committed, so no FILE.partial is left behind. */
export function discardPendingFiles(): void {
  for (const file of [...pending]) file.discard();
}

function existsAsLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

export { describeError };
