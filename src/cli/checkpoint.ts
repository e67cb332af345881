// Checkpoints: a file that records each finished unit as it finishes, so an
// interrupted count resumes without redoing any of them. JSON lines: a
// header naming the count (n, version, plan identity, slice), then one line
// per unit, each with a check over the plan digest, unit and count. On
// resume every line is validated; a torn last line (a crash mid-write) is
// dropped and its unit runs again; any other damage is refused with its
// line number. Lines are flushed to disk (fsync) at least every
// SYNC_LINES lines or SYNC_MS, so a power cut loses only the last few.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { shortCheck } from '../shared/digest.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import { hasDepth, implausibleCount, recordedPlan, type PlannedMethod } from '../run/methods.js';
import type { Already } from '../run/runner.js';
import { VERSION } from '../shared/version.js';
import { describeError } from './files.js';
import { readRegularFile } from './regular-file.js';
import { parseCount } from './shards.js';

export const CHECKPOINT_FORMAT = 'nqueens-checkpoint';
export const CHECKPOINT_FORMAT_VERSION = 2;
/** How every checkpoint begins (JSON.stringify keeps the header's key order): what a torn header must show. */
const HEADER_START = `{"format":"${CHECKPOINT_FORMAT}",`;
const SYNC_LINES = 16;
const SYNC_MS = 200;
/** Larger files are refused before reading (about 20 million lines). */
const MAX_BYTES = 1 << 30;

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
  return { ...body, check: shortCheck(JSON.stringify(body)) };
}

function lineCheck(planDigest: string, unit: number, count: string): string {
  return shortCheck(`${planDigest}|${unit}|${count}`);
}

/** Which option resumes a checkpoint made with another plan, if this version makes that plan. */
function resumeHint(plan: { method?: unknown; depth?: unknown } | undefined): string {
  const recorded = recordedPlan(plan);
  if (!recorded) return '';
  const { algorithm, depth } = recorded;
  return `; to resume it, add --algorithm ${algorithm}${hasDepth(algorithm) ? ` (it runs at depth ${depth})` : ''}`;
}

function refuse(message: string): never {
  throw failure(message, ERROR_CODES.BAD_CHECKPOINT);
}

function readText(file: string): string {
  const read = readRegularFile(file, MAX_BYTES);
  if ('problem' in read) refuse(read.problem);
  return read.text;
}

export class Checkpoint {
  /** Counts of the units finished before this run, by id. */
  readonly done = new Map<number, bigint>();
  /** A torn last line was dropped (its unit runs again). */
  tornLine = 0;
  private fd: number | undefined;
  private unsynced = 0;
  private lastSync = 0;

  private constructor(
    readonly file: string,
    readonly plan: PlannedMethod,
  ) {}

  /**
   * The depth a checkpoint of the search was made with, to resume it with the
   * same plan; undefined if FILE is new, unreadable or of another method.
   */
  static depthOf(file: string): number | undefined {
    if (!existsSync(file)) return undefined;
    try {
      const first = readText(file).split('\n', 1)[0];
      const plan = (JSON.parse(first) as Header)?.plan;
      const recorded = recordedPlan(plan);
      return recorded && hasDepth(recorded.algorithm) ? recorded.depth : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Opens FILE for the units from..to-1 of `plan` (slice `shard`): resumes
   * it if it exists, validating every line, else starts it. Any refusal is
   * an Error naming the file (and the line).
   */
  static open(file: string, plan: PlannedMethod, shard: string, from: number, to: number): Checkpoint {
    const checkpoint = new Checkpoint(file, plan);
    const header = headerOf(plan, shard, from, to);
    let keep = 0; // bytes of whole, valid lines to keep
    let text = '';
    try {
      if (existsSync(file)) text = readText(file);
    } catch (error) {
      if ((error as { code?: string }).code === ERROR_CODES.BAD_CHECKPOINT) throw error;
      refuse(`cannot read ${file}: ${describeError(error)}`);
    }
    if (text.length > 0) keep = checkpoint.validate(text, header);
    try {
      // A new checkpoint is created exclusively (never through a link); an existing one must still be a regular file.
      checkpoint.fd = openSync(file, text.length > 0 || existsSync(file) ? 'r+' : 'wx');
      const fd = checkpoint.fd;
      if (!fstatSync(fd).isFile()) refuse(`${file} is not a regular file; refusing to write it`);
      // Cut a torn last line, or write the header of a new file.
      if (keep === 0) {
        ftruncateSync(fd, 0);
        writeSync(fd, JSON.stringify(header) + '\n', 0);
      } else if (keep < fstatSync(fd).size) {
        ftruncateSync(fd, keep);
      }
      fsyncSync(fd);
      closeSync(fd);
      checkpoint.fd = openSync(file, 'a');
    } catch (error) {
      checkpoint.close();
      if ((error as { code?: string }).code === ERROR_CODES.BAD_CHECKPOINT) throw error;
      throw failure(`cannot write the checkpoint ${file}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
    checkpoint.lastSync = performance.now();
    return checkpoint;
  }

  /** Validates a checkpoint's text against the expected header; returns the bytes of valid whole lines. */
  private validate(text: string, expected: Header): number {
    const file = this.file;
    const lines = text.split('\n');
    // The part after the last newline: empty, or a line torn by a crash.
    const tail = lines.pop()!;
    if (lines.length === 0) {
      // Only a torn header: nothing was recorded yet. Anything else is someone's file.
      if (tail.length > 0 && !tail.startsWith(HEADER_START))
        refuse(`${file} is not a checkpoint (it does not begin with a checkpoint's header); refusing to overwrite it`);
      this.tornLine = tail.length > 0 ? 1 : 0;
      return 0;
    }
    let found: Header;
    try {
      found = JSON.parse(lines[0]) as Header;
    } catch {
      return refuse(`${file} is not a checkpoint (line 1 is not JSON)`);
    }
    if (found?.format !== CHECKPOINT_FORMAT) refuse(`${file} is not a checkpoint (line 1 has no "format": "${CHECKPOINT_FORMAT}")`);
    if (found.version !== VERSION || found.formatVersion !== CHECKPOINT_FORMAT_VERSION) {
      refuse(
        `${file} was written by nqueens-wasm ${found.version} (checkpoint format ${found.formatVersion}); this is ${VERSION} (format ${CHECKPOINT_FORMAT_VERSION})`,
      );
    }
    const { check, ...body } = found;
    if (check !== shortCheck(JSON.stringify(body))) refuse(`${file}: line 1 (the header) fails its check: edited or damaged`);
    if (found.n !== expected.n) refuse(`${file} is a checkpoint for n = ${found.n}, not n = ${expected.n}`);
    if (found.plan?.digest !== expected.plan.digest) {
      refuse(
        `${file} was made with another plan (${found.plan?.method}, depth ${found.plan?.depth}, digest ${found.plan?.digest}); this count uses ${expected.plan.method}, depth ${expected.plan.depth}, digest ${expected.plan.digest}${resumeHint(found.plan)}`,
      );
    }
    if (found.shard !== expected.shard || found.from !== expected.from || found.to !== expected.to) {
      refuse(
        `${file} is a checkpoint for shard ${found.shard} (units ${found.from}..${found.to - 1}), not ${expected.shard} (units ${expected.from}..${expected.to - 1})`,
      );
    }
    const firstLine = new Map<number, number>();
    let bytes = Buffer.byteLength(lines[0]) + 1;
    for (let i = 1; i < lines.length; i++) {
      const where = `${file}, line ${i + 1}`;
      let entry: { unit: number; count: string; check: string };
      try {
        entry = JSON.parse(lines[i]);
      } catch {
        return refuse(`${where}: damaged (not JSON); only a torn last line can be dropped`);
      }
      const { unit, count, check: lineSum } = entry ?? {};
      if (!Number.isInteger(unit) || typeof count !== 'string' || typeof lineSum !== 'string')
        refuse(`${where}: damaged (not a unit line)`);
      if (unit < expected.from || unit >= expected.to)
        refuse(`${where}: unit ${unit} is not in this slice (units ${expected.from}..${expected.to - 1})`);
      if (lineSum !== lineCheck(expected.plan.digest, unit, count)) refuse(`${where}: fails its check (edited or damaged)`);
      const value = parseCount(count);
      if (value === undefined) refuse(`${where}: ${JSON.stringify(count)} is not a count`);
      const implausible = implausibleCount(this.plan, unit, value);
      if (implausible) refuse(`${where}: ${implausible}`);
      const before = this.done.get(unit);
      if (before !== undefined && before !== value) {
        refuse(`${where}: unit ${unit} again with count ${value}; line ${firstLine.get(unit)} said ${before}`);
      }
      if (before === undefined) {
        this.done.set(unit, value);
        firstLine.set(unit, i + 1);
      }
      bytes += Buffer.byteLength(lines[i]) + 1;
    }
    if (tail.length > 0) this.tornLine = lines.length + 1;
    return bytes;
  }

  /** What a resumed count starts from: the finished units of from..to-1, summed. */
  resume(from: number, to: number): Already {
    const already: Already = { finished: 0, total: 0n, unique8: 0n, work: 0 };
    for (const [id, count] of this.done) {
      if (id < from || id >= to) continue;
      const c = this.plan.contribution(id, count);
      already.total += c.total;
      already.unique8 += c.unique8;
      already.finished++;
      already.work += this.plan.workOf(id);
    }
    return already;
  }

  record(unit: number, count: bigint): void {
    if (this.fd === undefined) return;
    const text = count.toString();
    try {
      writeSync(this.fd, JSON.stringify({ unit, count: text, check: lineCheck(this.plan.identity.digest, unit, text) }) + '\n');
      this.unsynced++;
      const t = performance.now();
      if (this.unsynced >= SYNC_LINES || t - this.lastSync >= SYNC_MS) this.sync(t);
    } catch (error) {
      throw failure(`cannot write the checkpoint ${this.file}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
    }
  }

  private sync(t = performance.now()): void {
    if (this.fd === undefined || this.unsynced === 0) return;
    fsyncSync(this.fd);
    this.unsynced = 0;
    this.lastSync = t;
  }

  /** Flushes and closes (after the count, or when it fails). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
