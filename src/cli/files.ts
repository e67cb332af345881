// Writing that never claims a success it did not have: stdout written with
// its errors seen (a closed pipe ends the command quietly with status 0; a
// full disk or an I/O error fails it with status 1), and output files
// checked before any counting starts, then written whole or not at all.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { getSystemErrorMap } from 'node:util';
import { codedError, ERROR_CODES, failure } from '../shared/errors.js';
import { flushToDisk } from './flush-to-disk.js';
import { besideName, claim, liveOwner, lockOf, release, sibling, stillHeld, type Claim } from './owner.js';
import { kindOf } from './regular-file.js';
import { shown } from './shorten.js';
import { terminalOf } from './terminal.js';

/** stdout was closed by its reader (`| head`): stop at once, exit status 0. */
export class OutputClosed extends Error {}

let pauseCell: Int32Array | null | undefined;

/**
 * A cell for Atomics.wait: shared memory, from a SharedArrayBuffer or, where
 * Node runs without one (--no-harmony-sharedarraybuffer), a shared wasm
 * memory's; null where there is neither.
 */
function waitCell(): Int32Array | null {
  if (typeof SharedArrayBuffer === 'function') return new Int32Array(new SharedArrayBuffer(4));
  try {
    return new Int32Array(new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer);
  } catch {
    return null;
  }
}

/**
 * Blocks the thread for `ms` with Atomics.wait; where the runtime has no
 * Atomics or shared memory at all (Node can be run so), by spinning, which
 * costs a core while a reader stalls.
 */
function sleepSync(ms: number): void {
  if (typeof Atomics === 'object') pauseCell ??= waitCell();
  if (pauseCell) {
    Atomics.wait(pauseCell, 0, 0, ms);
    return;
  }
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin: no other way to wait without returning to the event loop
  }
}

/**
 * A failure in a message's words: `ENOENT (no such file or directory, open
 * 'x/y.lock')`. A system error's own message holds its paths whole (100 KB
 * for a name that long, ENAMETOOLONG's own case), so it is built again from
 * the error's code, call and paths, each cut short as a value is.
 */
function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { dest?: unknown };
  // A relative name is resolved against the working directory, which may have been removed after the shell entered it.
  if (e?.syscall === 'uv_cwd') return 'the working directory no longer exists; give an absolute path or run from a directory that exists';
  if (!e?.code) return String(e?.message ?? e);
  const paths = [e.path, e.dest].filter((path): path is string => typeof path === 'string');
  const words = typeof e.errno === 'number' ? getSystemErrorMap().get(e.errno)?.[1] : undefined;
  if (words === undefined) {
    // Not a system call's (ERR_* from Node): its message, with any path in it cut short.
    const message = String(e.message).replace(/^[A-Z_]+: /, '');
    return `${e.code} (${paths.reduce((text, path) => text.split(path).join(shown(path)), message)})`;
  }
  const named = paths.map((path) => `'${shown(path)}'`).join(' -> ');
  // A write to stdout or a descriptor names no file: `ENOSPC (no space left on device)`.
  const call = e.syscall === undefined || (e.syscall === 'write' && named === '') ? '' : `, ${e.syscall}${named && ` ${named}`}`;
  return `${e.code} (${words}${call})`;
}

/**
 * Why `file` is no file's name where it ends in a separator (`runs/` names a
 * directory, whether or not there is one): its open fails with EISDIR, or
 * the claim `runs/.partial` is what fails, a name that misleads. Else undefined.
 */
function namesDirectory(file: string): string | undefined {
  return /[/\\]$/.test(file) ? `the name ends in "${file.at(-1)}", so it names a directory; give a file's name` : undefined;
}

/**
 * Why a file could not be created, for an output or a checkpoint: where its
 * directory is missing, no directory or not writable, that, since the
 * error names the `.partial` or `.lock` beside the file (absolute, for a
 * checkpoint), which the user never typed.
 */
function whyNotCreated(file: string, error: unknown): string {
  const named = namesDirectory(file);
  if (named !== undefined) return named;
  const code = (error as NodeJS.ErrnoException)?.code;
  const directory = dirname(file);
  if (code === 'EACCES' && !writableDirectory(directory))
    return `its directory ${shown(directory)} is not writable for this user (EACCES); write the file elsewhere`;
  if (code !== 'ENOENT' && code !== 'ENOTDIR') return describeError(error);
  if (!existsSync(directory)) return `its directory ${shown(directory)} does not exist; create it first`;
  const stat = statSync(directory);
  return stat.isDirectory()
    ? describeError(error)
    : `${shown(directory)} is not a directory (${stat.isFile() ? 'a regular file' : kindOf(stat)})`;
}

function writableDirectory(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Longest pause, in ms, between tries to write to a full pipe whose reader has stalled (`| less`, paused). */
const MAX_PAUSE_MS = 64;

/** The pause after `pauseMs` when the pipe is still full: doubled, up to MAX_PAUSE_MS. */
const longer = (pauseMs: number): number => Math.min(MAX_PAUSE_MS, pauseMs * 2);

const isFull = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'EAGAIN';

/**
 * Writes all of `text` to a file descriptor (at `position`, else where it
 * stands), waiting out a full non-blocking pipe: 1 ms at first, doubling
 * while the pipe stays full, up to MAX_PAUSE_MS, so a stalled reader costs
 * about 16 wake-ups a second instead of 1,000.
 */
function writeAll(fd: number, text: string, position?: number): void {
  let buffer = Buffer.from(text, 'utf8');
  let at = position;
  let pauseMs = 1;
  while (buffer.length > 0) {
    let written: number;
    try {
      written = at === undefined ? writeSync(fd, buffer) : writeSync(fd, buffer, 0, buffer.length, at);
    } catch (error) {
      if (!isFull(error)) throw error;
      sleepSync(pauseMs);
      pauseMs = longer(pauseMs);
      continue;
    }
    pauseMs = 1;
    buffer = buffer.subarray(written);
    if (at !== undefined) at += written;
  }
}

/** What a failed write to stdout means: OutputClosed for a closed pipe, else a coded Error. */
function stdoutFailure(error: unknown): Error {
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') return new OutputClosed('stdout was closed');
  return failure(`cannot write to stdout: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
}

/**
 * Writes to stdout synchronously; OutputClosed on a closed pipe, a coded
 * Error on any other failure. To a terminal, what it does not take at once
 * (held by Ctrl-S) follows as it takes it, the thread free meanwhile, so a
 * stop signal is still handled (./terminal.ts); stdoutWritten() waits for it.
 */
export function writeOut(text: string): void {
  try {
    const terminal = terminalOf(1);
    if (terminal?.failure !== undefined) throw stdoutFailure(terminal.failure);
    if (terminal) terminal.write(text);
    else writeAll(1, text);
  } catch (error) {
    throw stdoutFailure(error);
  }
}

/** Settles once all written to stdout is out (a terminal may hold some back); rejects as writeOut throws. */
export async function stdoutWritten(): Promise<void> {
  try {
    await terminalOf(1)?.drained();
  } catch (error) {
    throw stdoutFailure(error);
  }
}

/**
 * Writes to stdout as writeOut does, but through process.stdout, which Node
 * writes without blocking where stdout is a pipe: while a reader stalls
 * (`| less` left open) the event loop still runs, so a stop signal ends the
 * command at once instead of waiting for the reader (writeSync would hold
 * the thread in write(2) until the pipe drains). For the outputs that can
 * fill a pipe: solve's listings and a shard's result (`--out -`). Settles once Node has handed the
 * text to the system, so one block is in flight at a time.
 */
export function writeOutAsync(text: string): Promise<void> {
  // A terminal: Node would write it blocking, and hold the thread while the terminal holds output (Ctrl-S).
  if (terminalOf(1)) {
    writeOut(text);
    return stdoutWritten();
  }
  const out = process.stdout;
  // The write's callback reports its error; without a listener, the stream's 'error' event would end the process.
  if (out.listenerCount('error') === 0) out.on('error', () => {});
  return new Promise((resolve, reject) => {
    try {
      out.write(text, (error) => (error ? reject(stdoutFailure(error)) : resolve()));
    } catch (error) {
      // A file or device is written synchronously, and its failure is thrown here.
      reject(stdoutFailure(error));
    }
  });
}

/** A line to stdout. */
export function println(line = ''): void {
  writeOut(line + '\n');
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A message with its control characters written as escapes (`\n`,
 * `\u001b`): file names and the fields of a file that is refused come from
 * anyone (a shard from another machine), and must neither split the one
 * line a message is nor send a terminal its escape codes.
 */
export function visible(line: string): string {
  return line.replace(CONTROL, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A line to stderr, where every message of the CLI goes (notes, resumes,
 * errors): written at once and whole, in order with stdout's lines, even
 * from a signal handler about to exit. A stderr that cannot be written
 * fails nothing: the exit status still tells.
 */
export function printErr(line: string): void {
  try {
    const terminal = terminalOf(2);
    // On a terminal that holds output (Ctrl-S), a message waits there; one before a signal's exit is lost.
    if (terminal) terminal.write(visible(line) + '\n');
    else writeAll(2, visible(line) + '\n');
  } catch {
    // Nowhere left to say it.
  }
}

/**
 * An output file reserved before the count: its temporary sibling is
 * created at once (so a missing directory, no permission or a full disk
 * fails before any work), and commit() writes the result to a file of its
 * own, flushes it and renames it into place, then removes the claim, so FILE
 * is either the whole result or untouched. Only a regular
 * file is ever replaced: a device, FIFO or directory is refused, and the
 * temporary is created exclusively with an owner record (./owner.ts), so a
 * FILE.partial that is a symbolic link, someone's file or a running
 * count's temporary is refused, not followed; one left by a count that is
 * gone (killed outright) and that counted with the same checkpoint is
 * taken over.
 */
export class PendingFile {
  /** Where the result lands: FILE, or the file a symbolic link FILE points to (written through, the link kept). */
  private readonly target: string;
  private readonly temporary: string;
  /** The result's own file beside the temporary, named in the claim's record so a rerun removes it if this count is killed. */
  private readonly resultFile: string;
  private claim: Claim | undefined;
  /** How each of its failures begins: `cannot write WHAT to FILE` (FILE cut short, as a long value is). */
  private readonly doing: string;

  /** `checkpoint`: the one the count writing it uses (absolute), or null; a gone count's temporary is taken over only with the same one. */
  constructor(
    readonly file: string,
    readonly what: string,
    checkpoint: string | null = null,
  ) {
    this.doing = `cannot write ${what} to ${shown(file)}`;
    refuseDescriptor(file, this.doing, what === 'the shard result' ? ' (for stdout, use --out -)' : '');
    let target = file;
    try {
      if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
    } catch (error) {
      // A link to nowhere, or a path that cannot be looked up (ENOTDIR: a regular file stands where a directory should).
      if (existsAsLink(file))
        throw failure(`${this.doing}: it is a symbolic link to nowhere (${describeError(error)})`, ERROR_CODES.WRITE_FAILED);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw failure(`${this.doing}: ${whyNotCreated(file, error)}`, ERROR_CODES.WRITE_FAILED);
    }
    this.target = target;
    this.refuseSpecialFile();
    this.temporary = sibling(target, '.partial');
    this.resultFile = besideName(this.temporary, 'result');
    try {
      this.claim = claim(this.temporary, checkpoint, (why) => `${this.doing}: ${why}`, basename(this.resultFile));
      // Claimed first, then looked for: of two counts that start at once, the second sees the first.
      const counting = liveOwner(lockOf(target));
      if (counting !== undefined) {
        release(this.claim, true);
        throw failure(
          `${this.doing}: it is the checkpoint of a count still running (${counting}), which it would replace`,
          ERROR_CODES.WRITE_FAILED,
        );
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === ERROR_CODES.WRITE_FAILED) throw error;
      throw failure(`${this.doing}: ${whyNotCreated(file, error)}`, ERROR_CODES.WRITE_FAILED);
    }
    pending.add(this);
  }

  /**
   * Refuses a target that exists and is not a regular file (a device, FIFO,
   * directory, socket), or that this user could not open for writing, as a
   * shell's `>` would refuse it (replacing it by a rename needs only the
   * directory's permission).
   */
  private refuseSpecialFile(): void {
    let stat;
    try {
      stat = statSync(this.target);
    } catch {
      return; // Does not exist yet: fine.
    }
    if (!stat.isFile())
      throw failure(
        `${this.doing}: it is ${kindOf(stat)}, not a regular file (outputs are written to regular files only)`,
        ERROR_CODES.WRITE_FAILED,
      );
    // A running count's FILE.partial or CHECKPOINT.lock: replaced, that count would rename this result as its own, or remove it.
    const owner = liveOwner(this.target);
    if (owner !== undefined)
      throw failure(
        `${this.doing}: it is the claim of a count still running (${owner}), which it would replace; name another file`,
        ERROR_CODES.WRITE_FAILED,
      );
    // `--out FILE > FILE`: the rename would leave stdout's lines (the result, the summary) in the file it replaces, unlinked.
    const stream = redirectedStream(this.target);
    if (stream !== undefined)
      throw failure(
        `${this.doing}: ${stream} is redirected to it, and what the command writes there would be lost with the file it replaces; send ${stream} elsewhere${this.what === 'the shard result' && stream === 'stdout' ? ' (or use --out - for the result on stdout)' : ''}`,
        ERROR_CODES.WRITE_FAILED,
      );
    if (!writableByUs(this.target, stat))
      throw failure(
        `${this.doing}: it is read-only for this user (mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}); make it writable or name another file`,
        ERROR_CODES.WRITE_FAILED,
      );
  }

  commit(text: string): void {
    const claimed = this.claim;
    if (claimed === undefined) throw codedError(`${shown(this.file)} was already written`, ERROR_CODES.INTERNAL);
    let result: string | undefined;
    try {
      // The result is written and flushed under a name of its own, then renamed onto FILE; FILE.partial keeps
      // the owner record until then, so a count killed at any point (SIGKILL in the flush, say) leaves a claim
      // that the rerun takes over, never a FILE.partial that is no owner record and that every rerun refuses.
      const fd = openSync(this.resultFile, RESULT_FLAGS, 0o666);
      result = this.resultFile; // ours to remove from here on
      try {
        writeAll(fd, text, 0);
        flushToDisk(fd);
      } finally {
        closeSync(fd);
      }
      this.refuseSpecialFile(); // made one while the count ran
      // Another command's file renamed onto FILE.partial while this one counted: the claim is not this count's.
      if (!stillHeld(claimed))
        throw failure(`${this.doing}: ${shown(this.temporary)} was replaced by another file while counting`, ERROR_CODES.WRITE_FAILED);
      renameSync(result, this.target);
      result = undefined;
      this.claim = undefined;
      release(claimed, true); // FILE.partial, the owner record, goes with the claim
      pending.delete(this);
    } catch (error) {
      if (result !== undefined) unlinkQuietly(result);
      this.discard();
      if ((error as { code?: unknown }).code === ERROR_CODES.WRITE_FAILED) throw error;
      throw failure(`${this.doing}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
  }

  /** Removes the temporary file (a failed or interrupted count); after commit() it is gone already. */
  discard(): void {
    if (!pending.delete(this)) return; // committed or discarded: FILE.partial may be another's now
    if (this.claim !== undefined) release(this.claim, true);
    else unlinkQuietly(this.temporary); // a commit that failed after closing it
    this.claim = undefined;
  }
}

/** Output files not yet committed: a hurried exit (a second Ctrl-C) discards them. */
const pending = new Set<PendingFile>();

/** Discards every output file not yet committed, so no FILE.partial is left behind. */
export function discardPendingFiles(): number {
  const discarded = [...pending];
  for (const file of discarded) file.discard();
  return discarded.length;
}

/**
 * Whether a shell could open an existing file for writing. The kernel lets
 * root write any file, but a file without a single write bit was made
 * read-only on purpose (a finished result, say): root is refused it too.
 * Others get the kernel's answer (ACLs included), after the permission bits
 * that apply to them, so that a file they own but made read-only is refused
 * however the check is run.
 */
export function writableByUs(file: string, stat: { mode: number; uid: number; gid: number }): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true; // Windows: no modes to go by
  if (uid === 0) return (stat.mode & 0o222) !== 0;
  const inGroup = stat.gid === process.getgid?.() || (process.getgroups?.() ?? []).includes(stat.gid);
  const bits = stat.uid === uid ? 0o200 : inGroup ? 0o020 : 0o002;
  if ((stat.mode & bits) === 0) return false;
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Created exclusively, never through a link: the result's own file beside FILE.partial. */
const RESULT_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already.
  }
}

function existsAsLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Refuses an output whose chain of symbolic links reaches a descriptor
 * (/proc/.../fd/..., /dev/fd/...: /dev/stdout is one): written through, it
 * would replace whatever file stdout was redirected to. `doing` begins the
 * message, `hint` ends it.
 */
export function refuseDescriptor(file: string, doing: string, hint = ''): void {
  let at = resolve(file);
  for (let hop = 0; hop < 16; hop++) {
    if (/^\/(proc\/[^/]+|dev)\/fd\//.test(at))
      throw failure(`${doing}: it leads to ${shown(at)}, one of this process's descriptors, not a file${hint}`, ERROR_CODES.WRITE_FAILED);
    if (!existsAsLink(at)) return;
    at = resolve(dirname(at), readlinkSync(at));
  }
}

/** 'stdout' or 'stderr' if that stream is redirected to the regular file `file` (the same device and inode), else undefined. */
export function redirectedStream(file: string): 'stdout' | 'stderr' | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  for (const [fd, name] of [
    [1, 'stdout'],
    [2, 'stderr'],
  ] as const) {
    let other;
    try {
      other = fstatSync(fd);
    } catch {
      continue; // closed
    }
    if (other.dev === stat.dev && other.ino === stat.ino) return name;
  }
  return undefined;
}

/** Where `file` points if it is a symbolic link to nothing (else undefined). */
export function danglingLinkTarget(file: string): string | undefined {
  if (!existsAsLink(file)) return undefined;
  try {
    statSync(file);
    return undefined;
  } catch {
    return readlinkSync(file);
  }
}

export { describeError, namesDirectory, whyNotCreated };
