// Checkpoints: a file that records each finished unit as it finishes, so an
// interrupted count resumes without redoing any of them. JSON lines: a
// header naming the count (n, version, plan identity, slice), then one line
// per unit, each with a check over the plan digest, unit and count. On
// resume the file is read once, streaming, in bounded memory whatever its
// size (a bit a unit says which are done; the counts go to the caller as
// they are read), and every line is validated; a torn last line (a crash
// mid-write) is dropped and its unit runs again; any other damage is
// refused with its line number. Lines are
// flushed to disk (fsync) at least every SYNC_LINES lines or SYNC_MS, so a
// power cut loses only the last few. While a count writes it, CHECKPOINT.lock
// holds its owner (./owner.ts): a second count is refused, a killed one's
// lock is taken over.
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { fnv1a, hex8, shortCheck } from '../shared/digest.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import {
  hasDepth,
  implausibleCount,
  makesPlan,
  plannedMethod,
  recordedPlan,
  type AlgorithmName,
  type PlannedMethod,
} from '../run/methods.js';
import type { Already } from '../run/runner.js';
import { VERSION } from '../shared/version.js';
import {
  danglingLinkTarget,
  describeError,
  namesDirectory,
  redirectedStream,
  refuseDescriptor,
  whyNotCreated,
  writableByUs,
} from './files.js';
import { flushToDisk } from './flush-to-disk.js';
import { canonical, claim, liveOwner, release, sibling, type Claim } from './owner.js';
import { letSignalsIn } from './interrupt.js';
import { byteOrderMark, kindOf, madeBy } from './regular-file.js';
import { repeatedKey } from './repeated-key.js';
import { field, shown } from './shorten.js';
import { parseCount } from './shards.js';
import { UnitBitmap } from '../shared/unit-bitmap.js';

const CHECKPOINT_FORMAT = 'nqueens-checkpoint';
const CHECKPOINT_FORMAT_VERSION = 2;
/** How every checkpoint begins (JSON.stringify keeps the header's key order): what a torn header must show. */
const HEADER_START = `{"format":"${CHECKPOINT_FORMAT}",`;
/**
 * Finished lines are written and flushed to disk (fsync) together, every
 * SYNC_MS or SYNC_BYTES: a crash loses at most the last SYNC_MS of units,
 * and a deep plan (millions of units a few milliseconds each) costs a few
 * writes a second, not a write and an fsync every few lines.
 */
const SYNC_BYTES = 1 << 16;
const SYNC_MS = 200;
/** No line of a checkpoint is longer (a header is about 300 bytes, a unit line about 60): a longer one is damage. */
const MAX_LINE_BYTES = 4096;
/** Bytes read at a time when resuming. */
const CHUNK_BYTES = 1 << 20;
/** Lines read between turns of the event loop (validate): about 1 MB, some 10 ms. */
const LINES_PER_TURN = 16384;
/** A unit line as this program writes it (JSON.stringify's spelling); others are parsed as JSON. */
const UNIT_LINE = /^\{"unit":(0|[1-9]\d{0,15}),"count":"(0|[1-9]\d{0,19})","check":"([0-9a-f]{8})"\}$/; // as written: no leading zeros
/**
 * A unit recorded twice (only an edit makes one) is compared with its first
 * line in a second pass over the file; more such units than this are damage.
 */
const MAX_REPEATED_UNITS = 4096;

interface UnitLine {
  unit: number;
  count: string;
  check: string;
}

/** A unit line's fields, or why the line is none. */
function unitLineOf(line: string): UnitLine | 'not JSON' | 'not a unit line' {
  const fast = UNIT_LINE.exec(line);
  if (fast) return { unit: Number(fast[1]), count: fast[2], check: fast[3] };
  let entry: Partial<UnitLine>;
  try {
    entry = JSON.parse(line) ?? {};
  } catch {
    return 'not JSON';
  }
  const { unit, count, check, ...more } = entry;
  const once = repeatedKey(line) === undefined; // {"unit":3,"unit":4,…} reads as unit 4: edited
  if (!once || !Number.isInteger(unit) || typeof count !== 'string' || typeof check !== 'string' || Object.keys(more).length > 0)
    return 'not a unit line';
  return { unit: unit!, count, check };
}

/** The parts of a unit line as `record` writes it (UNIT_LINE): literal text, or a run of `min` to `max` digits. */
const UNIT_LINE_PARTS: readonly (string | { chars: RegExp; min: number; max: number })[] = [
  '{"unit":',
  { chars: /[0-9]/, min: 1, max: 16 },
  ',"count":"',
  { chars: /[0-9]/, min: 1, max: 20 },
  '","check":"',
  { chars: /[0-9a-f]/, min: 8, max: 8 },
  '"}',
];

/**
 * Why the text after a checkpoint's last newline is no unit line cut short
 * by a crash (a beginning of one, perhaps followed by the zeros a power cut
 * leaves), or undefined if it is one. A whole unit line without its newline
 * must pass its check: a crash cuts what was written, it never changes it.
 */
function tornLineProblem(tail: string, planDigest: string): string | undefined {
  const text = tail.replace(/\0+$/, '');
  const whole = UNIT_LINE.exec(text);
  if (whole) return whole[3] === lineCheck(planDigest, Number(whole[1]), whole[2]) ? undefined : 'a unit line that fails its check';
  let at = 0;
  for (const part of UNIT_LINE_PARTS) {
    if (at === text.length) return undefined;
    if (typeof part === 'string') {
      const rest = text.slice(at, at + part.length);
      if (!part.startsWith(rest)) return 'not the beginning of a unit line';
      at += rest.length;
      continue;
    }
    let digits = 0;
    while (at < text.length && part.chars.test(text[at])) [at, digits] = [at + 1, digits + 1];
    if (digits > part.max || (digits < part.min && at < text.length)) return 'not the beginning of a unit line';
  }
  return at === text.length ? undefined : 'not the beginning of a unit line';
}

/** A header's check: over its other fields, in their order. */
const headerCheck = (body: object): string => shortCheck(JSON.stringify(body));

/**
 * Whether `tail`, a file's whole text without a newline, is a header cut
 * short by a crash (perhaps followed by the zeros a power cut leaves): the
 * beginning of one line, so no control character (a `\r`: lines ended
 * otherwise, units and all), and no whole JSON value but a header whose
 * check holds (one written whole, its newline lost).
 */
function tornHeader(tail: string): boolean {
  const text = tail.replace(/\0+$/, '');
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) < 0x20) return false;
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    return true;
  }
  if (typeof whole !== 'object' || whole === null) return false;
  const { check, ...body } = whole as Record<string, unknown>;
  return check === headerCheck(body);
}

interface Header {
  format: typeof CHECKPOINT_FORMAT;
  formatVersion: number;
  version: string;
  n: number;
  plan: { method: string; depth: number; units: number; digest: string };
  /** The slice it covers, "i/m" ("0/1" for the whole count), and its units from..to-1. */
  shard: string;
  from: number;
  to: number;
  check: string;
}

function headerOf(plan: PlannedMethod, shard: string, from: number, to: number): Header {
  const { depth, units, digest } = plan.identity;
  const body = {
    format: CHECKPOINT_FORMAT as typeof CHECKPOINT_FORMAT,
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    version: VERSION,
    n: plan.n,
    plan: { method: plan.name, depth, units, digest },
    shard,
    from,
    to,
  };
  return { ...body, check: headerCheck(body) };
}

/** A unit id's decimal digits, last first (digitsOf). */
const DIGITS = new Uint8Array(17);

/**
 * Puts the decimal digits of `unit` in DIGITS, last first, and returns how
 * many: never through its string, which V8 keeps in a cache of numbers'
 * strings; made for every line of a deep plan, those outlived scavenges
 * (the count's heap grew by 40 MB between full collections).
 */
function digitsOf(unit: number): number {
  let k = 0;
  do {
    const d = unit % 10;
    DIGITS[k++] = 48 + d;
    unit = (unit - d) / 10;
  } while (unit > 0);
  return k;
}

/** shortCheck(`${planDigest}|${unit}|${count}`), hashed part by part (digitsOf says why). */
function lineCheck(planDigest: string, unit: number, count: string): string {
  let h = fnv1a('|', fnv1a(planDigest));
  for (let k = digitsOf(unit) - 1; k >= 0; k--) h = fnv1a1(DIGITS[k], h);
  return hex8(fnv1a(count, fnv1a('|', h)));
}

/** FNV-1a 32 of one more byte. */
function fnv1a1(byte: number, h: number): number {
  return Math.imul(h ^ byte, 0x01000193);
}

/**
 * The options that resume a checkpoint made with another plan, `recorded`
 * (undefined where this version makes no such plan of its n: the join past
 * JOIN_MAX_N, whose option would be refused): its algorithm and depth,
 * whatever --depth this run was given (a --depth given overrides the
 * checkpoint's own).
 */
function resumeHint(recorded: ReturnType<typeof recordedPlan>): string {
  if (!recorded) return '';
  const { algorithm, depth } = recorded;
  return `; to resume it, run with --algorithm ${algorithm} ${hasDepth(algorithm) ? `--depth ${depth}` : 'and without --depth'}`;
}

/**
 * A checkpoint with more than one name (a hard link) is refused: a count
 * under the other name would take another lock and write the same file.
 */
function refuseHardLinked(file: string): void {
  const stat = statSync(file, { throwIfNoEntry: false }); // not there yet: this count creates it
  const links = stat?.isFile() ? stat.nlink : 1; // a directory's links are its entries (it is refused as one when read)
  if (links > 1)
    throw failure(
      `cannot use the checkpoint ${shown(file)}: it has ${links} names (hard links), and a count under another name would write it too; keep one name (copy it, or remove the other links)`,
      ERROR_CODES.WRITE_FAILED,
    );
  // As --out: a file without a write bit was made read-only on purpose, and is not appended to, even by root.
  if (stat?.isFile() && !writableByUs(file, stat))
    throw failure(
      `cannot use the checkpoint ${shown(file)}: it is read-only for this user (mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}); make it writable to resume it`,
      ERROR_CODES.WRITE_FAILED,
    );
}

/** A checkpoint that stdout or stderr is redirected to (`>> FILE`) is refused: the CLI's lines would land among its units. */
function refuseStdio(file: string): void {
  const name = redirectedStream(file);
  if (name !== undefined)
    throw failure(
      `cannot use the checkpoint ${shown(file)}: ${name} is redirected to it, and its lines would land among the units; send ${name} elsewhere`,
      ERROR_CODES.WRITE_FAILED,
    );
}

function refuse(message: string): never {
  throw failure(message, ERROR_CODES.BAD_CHECKPOINT);
}

/**
 * The lines of a checkpoint, read once in chunks: each whole line (without
 * its newline) with its number and the bytes up to its end, then the tail
 * after the last newline (empty, or a line torn by a crash). Only a regular
 * file is read (a device or FIFO is refused before reading); a line longer
 * than MAX_LINE_BYTES is refused as damage.
 */
function* linesOf(file: string): Generator<{ line: string; number: number; end: number }, string, undefined> {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) refuse(`${shown(file)} is not a regular file (${kindOf(stat)}); refusing to read it`);
    const buffer = Buffer.alloc(CHUNK_BYTES + MAX_LINE_BYTES);
    let held = 0; // bytes of an unfinished line at the buffer's start
    let offset = 0; // file offset of the buffer's start
    let number = 0;
    for (;;) {
      const got = readSync(fd, buffer, held, CHUNK_BYTES, offset + held);
      if (got === 0) break;
      const end = held + got;
      let start = 0;
      for (let nl = buffer.indexOf(10, start); nl >= 0 && nl < end; nl = buffer.indexOf(10, start)) {
        number++;
        if (nl - start > MAX_LINE_BYTES) refuse(`${shown(file)}, line ${number}: damaged (longer than any checkpoint line)`);
        yield { line: buffer.toString('utf8', start, nl), number, end: offset + nl + 1 };
        start = nl + 1;
      }
      held = end - start;
      if (held > MAX_LINE_BYTES) refuse(`${shown(file)}, line ${number + 1}: damaged (longer than any checkpoint line)`);
      buffer.copy(buffer, 0, start, end);
      offset += start;
    }
    return buffer.toString('utf8', 0, held);
  } finally {
    closeSync(fd);
  }
}

export class Checkpoint {
  /** A torn last line was dropped (its unit runs again). */
  tornLine = 0;
  private fd: number | undefined;
  private lock: Claim | undefined;
  /** Lines finished and not yet written. */
  /** Lines finished and not yet written, as bytes: no string outlives its unit (a deep plan writes millions). */
  private readonly buffered = Buffer.alloc(SYNC_BYTES + MAX_LINE_BYTES);
  private bufferedBytes = 0;
  private lastSync = 0;
  /** Writes lines that wait (when no unit finishes for a while, as with big units). */
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** A write that failed in flushTimer, thrown at the next record or close. */
  private failed: unknown;

  /** What the finished units recorded before this run add up to. */
  private readonly already: Already = { finished: 0, total: 0n, unique8: 0n, work: 0 };

  private constructor(
    readonly file: string,
    readonly plan: PlannedMethod,
    /** The slice's finished units: those recorded before this run. */
    private readonly done: UnitBitmap,
    /** Each unit recorded before this run, as it is read. */
    private readonly onSaved: (id: number, count: bigint) => void,
  ) {}

  /** Whether unit `id` was finished before this run. */
  has(id: number): boolean {
    return this.done.has(id);
  }

  /**
   * The algorithm and depth a checkpoint of n was made with, to resume it
   * with the same plan; undefined if FILE is new, unreadable, of another n or
   * names no plan this version knows (opening it then says why).
   */
  static planOf(file: string, n: number): { algorithm: AlgorithmName; depth: number } | undefined {
    if (!existsSync(file)) return undefined;
    try {
      const first = linesOf(file).next();
      if (first.done) return undefined;
      const header = JSON.parse(first.value.line) as Header | null;
      return header?.n === n ? recordedPlan(header.plan) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Opens FILE for the units from..to-1 of `plan` (slice `shard`): resumes
   * it if it exists, validating every line, else starts it. Any refusal is
   * an Error naming the file (and the line); a checkpoint another running
   * count writes is refused (ERR_NQUEENS_WRITE_FAILED). Each unit it
   * already holds goes to `onSaved` as it is read.
   */
  static async open(
    file: string,
    plan: PlannedMethod,
    shard: string,
    from: number,
    to: number,
    onSaved: (id: number, count: bigint) => void = () => undefined,
  ): Promise<Checkpoint> {
    const checkpoint = new Checkpoint(file, plan, new UnitBitmap(from, to), onSaved);
    try {
      refuseDescriptor(file, `cannot use the checkpoint ${shown(file)}`);
      // Named after the file itself (links resolved): a second name of it meets the same lock.
      const real = canonical(file);
      checkpoint.lock = claim(sibling(real, '.lock'), real, (why) => `cannot use the checkpoint ${shown(file)}: ${why}`);
      // Claimed first, then looked for: of two counts that start at once, the second sees the first.
      const writer = liveOwner(sibling(real, '.partial'));
      if (writer !== undefined)
        throw failure(
          `cannot use the checkpoint ${shown(file)}: a count still running writes its output there (${writer}), and would replace it`,
          ERROR_CODES.WRITE_FAILED,
        );
    } catch (error) {
      checkpoint.close();
      if ((error as { code?: string }).code === ERROR_CODES.WRITE_FAILED) throw error;
      throw failure(`cannot write the checkpoint ${shown(file)}: ${whyNotCreated(file, error)}`, ERROR_CODES.WRITE_FAILED);
    }
    try {
      refuseHardLinked(file);
      refuseStdio(file);
      await checkpoint.start(headerOf(plan, shard, from, to));
    } catch (error) {
      checkpoint.close();
      if (String((error as { code?: unknown }).code).startsWith('ERR_NQUEENS_')) throw error;
      throw failure(`cannot use the checkpoint ${shown(file)}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED); // ELOOP, say
    }
    return checkpoint;
  }

  private async start(header: Header): Promise<void> {
    const file = this.file;
    let keep = 0; // bytes of whole, valid lines to keep
    const exists = existsSync(file);
    try {
      if (exists) keep = await this.validate(header);
    } catch (error) {
      if ((error as { code?: string }).code === ERROR_CODES.BAD_CHECKPOINT) throw error;
      refuse(`cannot read ${shown(file)}: ${describeError(error)}`);
    }
    try {
      // A new checkpoint is created exclusively (never through a link); an existing one must still be a regular file.
      this.fd = openSync(file, exists ? 'r+' : 'wx');
      const fd = this.fd;
      if (!fstatSync(fd).isFile()) refuse(`${shown(file)} is not a regular file; refusing to write it`);
      // Cut a torn last line, or write the header of a new file.
      if (keep === 0) {
        ftruncateSync(fd, 0);
        writeSync(fd, JSON.stringify(header) + '\n', 0);
      } else if (keep < fstatSync(fd).size) {
        ftruncateSync(fd, keep);
      }
      flushToDisk(fd);
      closeSync(fd);
      this.fd = openSync(file, 'a');
    } catch (error) {
      if ((error as { code?: string }).code === ERROR_CODES.BAD_CHECKPOINT) throw error;
      // 'wx' never follows a link: a dangling one fails with EEXIST, of a file that is not there.
      const link = danglingLinkTarget(file);
      const why =
        link === undefined
          ? (namesDirectory(file) ?? describeError(error))
          : `it is a symbolic link to ${shown(link)}, which does not exist`;
      throw failure(`cannot write the checkpoint ${shown(file)}: ${why}`, ERROR_CODES.WRITE_FAILED);
    }
    this.lastSync = performance.now();
  }

  /**
   * Validates the checkpoint against the expected header, reading it once;
   * returns the bytes of valid whole lines. It lets the event loop turn every
   * LINES_PER_TURN lines, so that a stop signal is heard while a large one is
   * read (an n = 18 plan at depth 4 has 811 MB of lines, 45 s to read).
   */
  private async validate(expected: Header): Promise<number> {
    const file = this.file;
    const lines = linesOf(file);
    let step = lines.next();
    if (step.done) {
      // Only a torn header: nothing was recorded yet. Anything else is someone's file.
      const tail = step.value;
      if (tail.length > 0 && !tail.startsWith(HEADER_START))
        refuse(`${shown(file)} is not a checkpoint (it does not begin with a checkpoint's header); refusing to overwrite it`);
      if (tail.length > 0 && !tornHeader(tail))
        refuse(
          `${shown(file)} is not a checkpoint cut short by a crash (its one line, without a newline, is no beginning of a header); refusing to overwrite it`,
        );
      this.tornLine = tail.length > 0 ? 1 : 0;
      return 0;
    }
    this.checkHeader(step.value.line, expected);
    let bytes = step.value.end;
    let wholeLines = 1;
    const digest = expected.plan.digest;
    /** Units recorded again: the count and line of their second record. */
    const repeated = new Map<number, { count: bigint; line: number }>();
    for (step = lines.next(); !step.done; step = lines.next()) {
      const { line, number, end } = step.value;
      if (number % LINES_PER_TURN === 0) await letSignalsIn();
      wholeLines = number;
      const where = `${shown(file)}, line ${number}`;
      const entry = unitLineOf(line);
      if (entry === 'not JSON') refuse(`${where}: damaged (not JSON); only a torn last line can be dropped`);
      if (entry === 'not a unit line') refuse(`${where}: damaged (not a unit line)`);
      const { unit, count, check: lineSum } = entry;
      if (unit < expected.from || unit >= expected.to)
        refuse(`${where}: unit ${unit} is not in this slice (units ${expected.from}..${expected.to - 1})`);
      if (lineSum !== lineCheck(digest, unit, count)) refuse(`${where}: fails its check (edited or damaged)`);
      const value = parseCount(count);
      if (value === undefined) refuse(`${where}: ${field(count)} is not a count`);
      const implausible = implausibleCount(this.plan, unit, value);
      if (implausible) refuse(`${where}: ${implausible}`);
      if (this.done.add(unit)) {
        this.save(unit, value);
      } else {
        const before = repeated.get(unit);
        if (before && before.count !== value)
          refuse(`${where}: unit ${unit} again with count ${value}; line ${before.line} said ${before.count}`);
        if (!before && repeated.size === MAX_REPEATED_UNITS)
          refuse(`${where}: unit ${unit} again, and more than ${MAX_REPEATED_UNITS} units are recorded twice (edited or damaged)`);
        if (!before) repeated.set(unit, { count: value, line: number });
      }
      bytes = end;
    }
    const tail = step.value;
    if (tail.length > 0) {
      // A crash cuts a line short (and a power cut may leave zeros after it): anything else there was written by someone else.
      const why = tornLineProblem(tail, digest);
      if (why !== undefined)
        refuse(`${shown(file)}, line ${wholeLines + 1}: damaged (${why}, without a newline); only a torn last line can be dropped`);
      this.tornLine = wholeLines + 1;
    }
    if (repeated.size > 0) this.checkRepeated(repeated);
    return bytes;
  }

  private save(unit: number, count: bigint): void {
    const c = this.plan.contribution(unit, count);
    this.already.total += c.total;
    this.already.unique8 += c.unique8;
    this.already.finished++;
    this.already.work += this.plan.workOf(unit);
    this.onSaved(unit, count);
  }

  /** Refuses a unit recorded again with another count than its first line's (read again: only an edit repeats one). */
  private checkRepeated(repeated: Map<number, { count: bigint; line: number }>): void {
    for (const { line, number } of linesOf(this.file)) {
      const entry = number === 1 ? undefined : unitLineOf(line);
      const again = typeof entry === 'object' ? repeated.get(entry.unit) : undefined;
      if (!again || typeof entry !== 'object') continue;
      const first = parseCount(entry.count);
      if (first !== again.count)
        refuse(`${shown(this.file)}, line ${again.line}: unit ${entry.unit} again with count ${again.count}; line ${number} said ${first}`);
      repeated.delete(entry.unit);
      if (repeated.size === 0) return;
    }
  }

  private checkHeader(line: string, expected: Header): void {
    const file = this.file;
    let found: Header;
    try {
      found = JSON.parse(line) as Header;
    } catch {
      return refuse(`${shown(file)} is not a checkpoint (${byteOrderMark(line) ?? 'line 1 is not JSON'})`);
    }
    const twice = repeatedKey(line);
    if (twice !== undefined) refuse(`${shown(file)}: line 1 (the header) writes the field ${field(twice)} twice in one object: edited`);
    if (found?.format !== CHECKPOINT_FORMAT) refuse(`${shown(file)} is not a checkpoint (line 1 has no "format": "${CHECKPOINT_FORMAT}")`);
    if (found.version !== VERSION || found.formatVersion !== CHECKPOINT_FORMAT_VERSION) {
      refuse(
        `${shown(file)} was written by ${madeBy(found.version, found.formatVersion, 'checkpoint')}; this is ${VERSION} (format ${CHECKPOINT_FORMAT_VERSION})`,
      );
    }
    const { check, ...body } = found;
    if (check !== headerCheck(body)) refuse(`${shown(file)}: line 1 (the header) fails its check: edited or damaged`);
    if (found.n !== expected.n) refuse(`${shown(file)} is a checkpoint for n = ${shown(String(found.n))}, not n = ${expected.n}`);
    // The header's words for its plan (method, depth, units) must make the plan its digest names: its check is no signature.
    const own = recordedPlan(found.plan);
    if (own === undefined) {
      refuse(
        `${shown(file)}: line 1 (the header) says ${shown(String(found.plan?.method))}, depth ${shown(String(found.plan?.depth))}, which names no plan: edited`,
      );
    }
    const made = makesPlan(own.algorithm, found.n) ? plannedMethod(own.algorithm, found.n, own.depth) : undefined;
    if (made && (made.identity.digest !== found.plan.digest || made.units !== found.plan.units)) {
      refuse(
        `${shown(file)}: line 1 (the header) says ${shown(String(found.plan.method))}, depth ${found.plan.depth}, ${shown(String(found.plan.units))} units, digest ${shown(String(found.plan.digest))}; that plan is ${made.units} units, digest ${made.identity.digest}: edited`,
      );
    }
    // A plan this version cannot make of n (the join past JOIN_MAX_N) under this count's digest: its words were edited.
    if (!made && found.plan.digest === expected.plan.digest) {
      refuse(
        `${shown(file)}: line 1 (the header) says ${own.algorithm}, which makes no plan of n = ${found.n}, under the digest of this count's plan: edited`,
      );
    }
    if (found.plan?.digest !== expected.plan.digest) {
      refuse(
        `${shown(file)} was made with another plan (${shown(String(found.plan?.method))}, depth ${shown(String(found.plan?.depth))}, digest ${shown(String(found.plan?.digest))}); this count uses ${expected.plan.method}, depth ${expected.plan.depth}, digest ${expected.plan.digest}${resumeHint(made ? own : undefined)}`,
      );
    }
    if (found.shard !== expected.shard || found.from !== expected.from || found.to !== expected.to) {
      refuse(
        `${shown(file)} is a checkpoint for shard ${shown(String(found.shard))} (units ${shown(String(found.from))}..${found.to - 1}), not ${expected.shard} (units ${expected.from}..${expected.to - 1})`,
      );
    }
  }

  /** What a resumed count starts from: the finished units, summed. */
  resume(): Already {
    return { ...this.already };
  }

  record(unit: number, count: bigint): void {
    if (this.fd === undefined) return;
    const error = this.failed;
    if (error !== undefined) throw error;
    // JSON.stringify({ unit, count, check }) and a newline, the unit's digits written as bytes (digitsOf says why).
    const text = count.toString();
    const check = lineCheck(this.plan.identity.digest, unit, text);
    let at = this.bufferedBytes + this.buffered.write('{"unit":', this.bufferedBytes, 'latin1');
    for (let k = digitsOf(unit) - 1; k >= 0; k--) this.buffered[at++] = DIGITS[k];
    this.bufferedBytes = at + this.buffered.write(`,"count":"${text}","check":"${check}"}\n`, at, 'latin1');
    const t = performance.now();
    if (this.bufferedBytes >= SYNC_BYTES || t - this.lastSync >= SYNC_MS) this.sync(t);
    else if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        try {
          this.sync();
        } catch (error) {
          this.failed = error;
        }
      }, SYNC_MS);
      this.flushTimer.unref();
    }
  }

  /** Writes the buffered lines and flushes them to disk. */
  private sync(t = performance.now()): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.fd === undefined || this.bufferedBytes === 0) return;
    let at = 0;
    try {
      while (at < this.bufferedBytes) at += writeSync(this.fd, this.buffered, at, this.bufferedBytes - at);
      flushToDisk(this.fd);
    } catch (error) {
      // What was written stays: only the rest is kept, so that a retry (close) does not write a line twice.
      this.buffered.copyWithin(0, at, this.bufferedBytes);
      this.bufferedBytes -= at;
      throw failure(`cannot write the checkpoint ${shown(this.file)}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
    this.bufferedBytes = 0;
    this.lastSync = t;
  }

  /** Flushes and closes (after the count, or when it fails), and gives up its lock. */
  close(): void {
    try {
      if (this.fd === undefined) return;
      try {
        this.sync();
        const error = this.failed;
        if (error !== undefined) throw error;
      } finally {
        closeSync(this.fd);
        this.fd = undefined;
      }
    } finally {
      if (this.lock) release(this.lock, true);
      this.lock = undefined;
    }
  }
}
