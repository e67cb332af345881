// Who is writing a file now. A count claims FILE.partial (an output's
// temporary) and CHECKPOINT.lock by creating them exclusively with an owner
// record already in them (host, boot id, pid namespace, process id and the
// process's start time), so that no claim is ever seen empty. A count
// that finds a claim made by a process that is gone (killed with SIGKILL,
// by the OOM killer, or by a reboot) takes it over, so rerunning the same
// command resumes with no manual step; a live owner's claim is refused, so
// two counts never write one file. On this host (same host name, boot and
// pid namespace) liveness is exact (the pid, and its start time against pid
// reuse); a claim from anywhere else (another host on a shared file system,
// another container, a boot before) is a lease: the owner renews it (the
// file's mtime) every HEARTBEAT_MS, and it is taken over once not renewed
// for LEASE_MS.
import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { digest } from '../shared/digest.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import { flushToDisk } from './flush-to-disk.js';
import { field, shown, shownWithEnd } from './shorten.js';

const OWNER_FORMAT = 'nqueens-owner';
/** The largest pid any kernel gives (Linux's pid_max is at most 2^22; a pid is a signed 32-bit number). */
const MAX_PID = 0x7fff_ffff;
/** A claim from another host not renewed for this long is taken over. */
const LEASE_MS = 120_000;
/** How often a live owner renews its claims. */
const HEARTBEAT_MS = 20_000;
/** An owner record is one short line; a larger file is not one. */
const MAX_RECORD_BYTES = 4096;

interface OwnerRecord {
  format: typeof OWNER_FORMAT;
  host: string;
  /** The kernel's boot id (Linux), so a reboot frees the pids of the boot before. */
  boot: string;
  /** The pid namespace (Linux: another container's pids are not ours to check). */
  pidns: string;
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not taken for its owner. */
  start: string;
  /** The checkpoint the owner counts with (absolute), or null: a claim is taken over only by a count with the same one. */
  checkpoint: string | null;
  since: string;
  /** The hidden file beside the claim the owner writes its result to (an output's claim), removed with a gone owner's claim. */
  leaves?: string;
}

/** The one kind of file a record may name in `leaves`: a result's hidden name (files.ts), its owner's pid in it. */
const LEFT_FILE = /^\.nqueens-result-(\d+)-\d+$/;

/** The longest name of a file, in bytes, on Linux's file systems (NAME_MAX: ext4, XFS, Btrfs, tmpfs, overlayfs). */
const NAME_MAX = 255;

/**
 * The file that goes with `path` under `suffix` (`FILE.partial`,
 * `FILE.lock`). Where FILE's own name leaves no room for the suffix within
 * NAME_MAX bytes (a name of 248 bytes or more, for `.partial`), FILE's name
 * is cut short and marked with a digest of the whole of it
 * (`<first bytes>~<16 hex digits>.partial`), so that any valid FILE has its
 * sibling, which every count on FILE finds under the same name.
 */
export function sibling(path: string, suffix: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (Buffer.byteLength(name + suffix) <= NAME_MAX) return path + suffix;
  const mark = `~${digest(name)}`;
  const bytes = Buffer.from(name);
  let end = NAME_MAX - mark.length - Buffer.byteLength(suffix);
  // Cut before a character, never inside one (a UTF-8 continuation byte is 10xxxxxx).
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return path.slice(0, path.length - name.length) + bytes.subarray(0, end).toString() + mark + suffix;
}

/**
 * A sibling's path in a message: cut short as any long name, but ending as
 * it does (`…~3f0c9d2e8a1b4c57.partial`): a cut one differs from FILE's
 * name only in that end, which the user needs to find it.
 */
export function shownSibling(path: string): string {
  return shownWithEnd(path, /(~[0-9a-f]{16})?\.[a-z]+$/.exec(path)?.[0] ?? '');
}

/** The lock a count with `checkpoint` holds on it (its canonical path's sibling). */
export function lockOf(checkpoint: string): string {
  return sibling(canonical(checkpoint), '.lock');
}

/** The absolute path a name stands for: links in it resolved as far as they exist. */
export function canonical(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return resolve(file);
    }
  }
}

function readProc(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The fields of /proc/PID/stat from field 3 (the state) on: after the command name, which may hold spaces and parentheses. */
function statOf(pid: number): { state: string; start: string } {
  const stat = readProc(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' }; // fields 3 and 22
}

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

function ownerRecord(checkpoint: string | null, leaves: string | undefined): OwnerRecord {
  return {
    format: OWNER_FORMAT,
    host: hostname(),
    boot: readProc('/proc/sys/kernel/random/boot_id'),
    pidns: pidNamespace(),
    pid: process.pid,
    start: statOf(process.pid).start,
    checkpoint,
    since: new Date().toISOString(),
    ...(leaves === undefined ? {} : { leaves }),
  };
}

function isRecord(value: unknown): value is OwnerRecord {
  const r = value as OwnerRecord;
  return r?.format === OWNER_FORMAT && typeof r.host === 'string' && Number.isInteger(r.pid) && typeof r.start === 'string';
}

/** Whether the owner of a claim is gone, and if not, who it is (for the refusal). */
function ownerState(record: OwnerRecord, renewedMs: number, nowMs = Date.now()): { gone: true } | { gone: false; who: string } {
  const here = record.host === hostname() && record.boot === readProc('/proc/sys/kernel/random/boot_id') && record.pidns === pidNamespace();
  if (!here) {
    const age = Math.max(0, Math.round((nowMs - renewedMs) / 1000));
    if (nowMs - renewedMs > LEASE_MS) return { gone: true };
    const where = record.host === hostname() ? `host ${shown(record.host)} (another boot or pid namespace)` : `host ${shown(record.host)}`;
    return {
      gone: false,
      who: `pid ${record.pid} on ${where}, renewed ${age} s ago; it is taken over once not renewed for ${LEASE_MS / 1000} s`,
    };
  }
  const who = { gone: false as const, who: `pid ${record.pid} on this host, since ${shown(String(record.since))}` };
  // No process has such a pid (an edited record): kill(0 or -1, 0) would ask about a process group, or every process.
  if (record.pid < 1 || record.pid > MAX_PID) return { gone: true };
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return { gone: true };
    return who; // EPERM: alive, another user's
  }
  const { state, start } = statOf(record.pid);
  // Killed, and not yet reaped by its parent (one that does not wait, or an init that reaps late): gone.
  if (state === 'Z' || state === 'X') return { gone: true };
  // The pid is alive, but a process started at another time: the owner's pid, reused (a container's restart, say).
  if (start !== '' && record.start !== '' && start !== record.start) return { gone: true };
  if (record.pid === process.pid && record.start === '') return { gone: true };
  return who;
}

/** A claim this process holds: renewed while it holds it, removed when released (and at exit). */
export interface Claim {
  readonly path: string;
  readonly fd: number;
}

const held = new Set<Claim>();
let heartbeat: ReturnType<typeof setInterval> | undefined;
let exitHookInstalled = false;
/** The lease clock, in milliseconds (tests replace it), and when the claims were last renewed by it. */
let clock = (): number => Date.now();
let renewedAt = 0;

/** Sets the lease clock (undefined: the real one back), by which claims are renewed (renewDue) and stamped. */
export function setLeaseClock(now?: () => number): void {
  clock = now ?? (() => Date.now());
  renewedAt = clock();
}

/**
 * Renews the claims if HEARTBEAT_MS have passed since they last were: for
 * work that holds claims and blocks the event loop (merge --verify recounts
 * units synchronously), where the heartbeat's timer cannot fire.
 */
export function renewDue(): void {
  if (held.size > 0 && clock() - renewedAt >= HEARTBEAT_MS) renewAll();
}

function renewAll(): void {
  renewedAt = clock();
  const now = new Date(renewedAt);
  for (const claim of held) {
    try {
      futimesSync(claim.fd, now, now);
    } catch {
      // A failed renewal shows as an old lease; the count's own writes report real failures.
    }
  }
}

function hold(claim: Claim): void {
  if (held.size === 0) renewedAt = clock();
  held.add(claim);
  if (heartbeat === undefined) {
    heartbeat = setInterval(renewAll, HEARTBEAT_MS);
    heartbeat.unref();
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // However the process ends short of SIGKILL (a second signal's process.exit included), its claims go with it.
    process.on('exit', () => {
      for (const c of [...held]) release(c, true);
    });
  }
}

/**
 * Gives up a claim: closes it, and removes its file if `remove` (a lock, a
 * discarded output); an output committed by renaming it away is not removed.
 */
export function release(claim: Claim, remove: boolean): void {
  if (!held.delete(claim)) return;
  if (held.size === 0 && heartbeat !== undefined) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
  // Only the claim's own file is removed: another command may have put a file of its own at its name since.
  const own = remove && stillHeld(claim);
  try {
    closeSync(claim.fd);
  } catch {
    // Closed already (committed).
  }
  if (own) {
    try {
      unlinkSync(claim.path);
    } catch {
      // Gone already.
    }
  }
}

/**
 * Whether `claim.path` is still the file this process created for the claim
 * (the same device and inode as its open descriptor): another command's
 * output renamed onto that name (`--out FILE.partial`, `--out CKPT.lock`)
 * replaces it, and is then neither ours to rename nor to remove.
 */
export function stillHeld(claim: Claim): boolean {
  try {
    const [mine, named] = [fstatSync(claim.fd), lstatSync(claim.path)];
    return mine.dev === named.dev && mine.ino === named.ino;
  } catch {
    return false;
  }
}

/** Stops renewing a claim whose fd the caller closes and whose file it renames away (a commit). */
export function forget(claim: Claim): void {
  held.delete(claim);
}

/** What is at `path` when a claim cannot be created: an owner record and its renewal time, or why it is not one. */
function readClaim(path: string): { record: OwnerRecord; renewedMs: number; ino: number; text: string } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: 'gone' };
    return { problem: code === 'ELOOP' ? 'a symbolic link' : `unreadable (${code})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_RECORD_BYTES) return { problem: 'not a claim' };
    const buffer = Buffer.alloc(MAX_RECORD_BYTES);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString('utf8');
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      return { problem: 'not a claim' };
    }
    return isRecord(record) ? { record, renewedMs: stat.mtimeMs, ino: stat.ino, text } : { problem: 'not a claim' };
  } finally {
    closeSync(fd);
  }
}

/** A name for a file of this process's beside `path`, as short whatever `path`'s own name (which may be near NAME_MAX). */
export function besideName(path: string, what: string): string {
  return join(dirname(path), `.nqueens-${what}-${process.pid}-${Math.floor(Math.random() * 1e9)}`);
}

/**
 * Moves a gone owner's claim aside and removes it, if it is still the one
 * judged gone: the same inode with the same record (a file system reuses a
 * freed inode at once, so a live claim made since, after another count
 * removed the gone one, can have its number); false if another took it first.
 */
export function removeStale(path: string, judged: { ino: number; text: string }): boolean {
  const aside = besideName(path, 'stale');
  try {
    renameSync(path, aside);
  } catch {
    return false;
  }
  const found = readClaim(aside);
  const same = !('problem' in found) && found.ino === judged.ino && found.text === judged.text;
  if (!same) {
    // A live claim made after ours was judged (a race): put it back, never over another.
    try {
      linkSync(aside, path);
    } catch {
      // Its owner's commit will fail and say so; nothing is counted wrong.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Gone already.
  }
  return same;
}

/**
 * Removes the hidden result file a gone owner named in its record (killed
 * while writing its result), if the record names one of its own: a name
 * of that form with the owner's pid, which no other process writes.
 */
function removeLeftFile(path: string, record: OwnerRecord): void {
  const match = typeof record.leaves === 'string' ? LEFT_FILE.exec(record.leaves) : null;
  if (match === null || Number(match[1]) !== record.pid) return;
  try {
    unlinkSync(join(dirname(path), match[0]));
  } catch {
    // Never written (killed before its result), or gone already.
  }
}

const CREATE_EXCLUSIVELY = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Errors of link() where the file system has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * Creates `path` exclusively (never through a link; EEXIST if anything is
 * there) with `record` in it, and returns it open for writing. The record is
 * written and flushed under a name of its own first, then linked to `path`,
 * so a count killed at any point leaves either no claim or a whole one (an
 * empty claim would be refused until removed by hand). Where the file system
 * has no hard links, `path` is created and then written.
 */
function createWithRecord(path: string, record: string): number {
  const temporary = besideName(path, 'claim');
  let fd: number;
  try {
    fd = openSync(temporary, CREATE_EXCLUSIVELY, 0o666);
  } catch {
    return createThenWrite(path, record); // its error, if any, names `path`
  }
  try {
    writeSync(fd, record);
    flushToDisk(fd);
    linkSync(temporary, path);
    return fd;
  } catch (error) {
    closeSync(fd);
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return createThenWrite(path, record);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Gone already.
    }
  }
}

/** Creates `path` exclusively, then writes `record` to it: where there are no hard links. */
function createThenWrite(path: string, record: string): number {
  const fd = openSync(path, CREATE_EXCLUSIVELY, 0o666);
  try {
    writeSync(fd, record);
  } catch (error) {
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  return fd;
}

/**
 * Claims `path` for this process: creates it exclusively (never through a
 * link) with an owner record, or takes over a claim whose owner is gone and
 * which names the same checkpoint. Refuses, as ERR_NQUEENS_WRITE_FAILED
 * with `what` and `why`, a live owner's claim or a file that is no claim.
 * The record stays in the file. `leaves` names the hidden file beside
 * `path` the claimant may leave if killed (an output's result, written
 * before the rename), which a count taking the claim over removes.
 */
export function claim(path: string, checkpoint: string | null, refusal: (why: string) => string, leaves?: string): Claim {
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = createWithRecord(path, JSON.stringify(ownerRecord(checkpoint, leaves)) + '\n');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const found = readClaim(path);
      if ('problem' in found) {
        if (found.problem === 'gone') continue;
        throw failure(
          refusal(
            `${shownSibling(path)} already exists and is ${found.problem === 'not a claim' ? "not a count's owner record" : found.problem}; remove it if no count is writing it`,
          ),
          ERROR_CODES.WRITE_FAILED,
        );
      }
      const state = ownerState(found.record, found.renewedMs);
      if (!state.gone)
        throw failure(refusal(`${shownSibling(path)} is held by a count still running (${state.who})`), ERROR_CODES.WRITE_FAILED);
      if (found.record.checkpoint !== checkpoint) {
        const recorded: unknown = found.record.checkpoint ?? null; // an edited record's may be anything
        const theirs = recorded === null ? 'no checkpoint' : typeof recorded === 'string' ? shown(recorded) : field(recorded);
        throw failure(
          refusal(
            `${shownSibling(path)} was left by a count that is gone, but it counted with ${theirs}, not ${checkpoint === null ? 'no checkpoint' : shown(checkpoint)}; remove it ${path.endsWith('.lock') ? 'to resume the checkpoint with this count (its units are kept)' : 'to start this output afresh'}`,
          ),
          ERROR_CODES.WRITE_FAILED,
        );
      }
      if (removeStale(path, found)) removeLeftFile(path, found.record);
      continue;
    }
    const claimed: Claim = { path, fd };
    hold(claimed);
    return claimed;
  }
  throw failure(refusal(`${shownSibling(path)} is being claimed by other counts at the same time`), ERROR_CODES.WRITE_FAILED);
}

/**
 * Who holds the claim at `path`, if a count still running does: the
 * description a refusal gives; undefined if there is none, or its owner is
 * gone. An output and a checkpoint each look for the other's claim on
 * their file (FILE.lock, FILE.partial), so that neither replaces the other.
 */
export function liveOwner(path: string): string | undefined {
  const found = readClaim(path);
  if ('problem' in found) return undefined;
  const state = ownerState(found.record, found.renewedMs);
  return state.gone ? undefined : state.who;
}
