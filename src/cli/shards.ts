// Shards: contiguous runs of a plan's units, cut by estimated work, for
// running one big count as many independent jobs (a cluster's array job),
// and the merge that adds them up after, refusing anything that does not
// add up. A shard file records n, the version, the plan's identity, the
// units it covers, the count of each, and a digest over all of that.
import { constants } from 'node:buffer';
import { digest } from '../shared/digest.js';
import { ERROR_CODES, failure, rangeError } from '../shared/errors.js';
import { MAX_N, MIN_N } from '../index.js';
import {
  hasDepth,
  implausibleCount,
  makesPlan,
  PLAN_FORMAT_VERSION,
  plannedMethod,
  recordedPlan,
  type AlgorithmName,
  type PlannedMethod,
} from '../run/methods.js';
import { VERSION } from '../shared/version.js';
import { field, quote, shown } from './shorten.js';
import { byteOrderMark, madeBy } from './regular-file.js';
import { repeatedKey } from './repeated-key.js';

const { MAX_STRING_LENGTH } = constants;
const SHARD_FORMAT = 'nqueens-shard';
const SHARD_FORMAT_VERSION = 2;
/** Most shards one count may be split into. */
const MAX_SHARDS = 1_000_000;
/** Larger shard files are refused before reading: merge reads one as a string, which V8 caps (512 MiB on Node 20). */
export const MAX_SHARD_BYTES = Math.min(1 << 30, MAX_STRING_LENGTH);
/**
 * Most units one shard may hold: at most 23 bytes each (a count below 2^64,
 * quoted, and a comma), 2^24 of them stay well within MAX_SHARD_BYTES, so
 * every shard file a count writes can be merged.
 */
const MAX_SHARD_UNITS = 1 << 24;

/** A plan as sharding sees it. */
interface ShardedPlan {
  readonly units: number;
  shardRange(index: number, count: number): { from: number; to: number };
}

/** The widest shard of `count`: its index and units (shards are cut by work, so they differ). */
function widestShard(plan: ShardedPlan, count: number): { index: number; units: number } {
  const widest = { index: 0, units: 0 };
  for (let index = 0; index < count; index++) {
    const { from, to } = plan.shardRange(index, count);
    if (to - from > widest.units) Object.assign(widest, { index, units: to - from });
  }
  return widest;
}

/**
 * Refuses, before counting, a count in `spec.count` shards if any of them
 * (not only this one: the others would be refused hours later) would hold
 * more than MAX_SHARD_UNITS units, naming a shard count where all fit.
 */
export function checkShardUnits(plan: ShardedPlan, spec: ShardSpec): void {
  if (plan.units <= MAX_SHARD_UNITS) return;
  const widest = widestShard(plan, spec.count);
  if (widest.units <= MAX_SHARD_UNITS) return;
  let enough = Math.max(spec.count + 1, Math.ceil(plan.units / MAX_SHARD_UNITS));
  while (enough < MAX_SHARDS && widestShard(plan, enough).units > MAX_SHARD_UNITS) enough++;
  throw rangeError(
    `--shard ${spec.index}/${spec.count}: shard ${widest.index}/${spec.count} would hold ${widest.units} of the plan's ${plan.units} units, over the ${MAX_SHARD_UNITS} a shard file holds; split the count into ${enough} shards, where each fits`,
  );
}

export interface ShardSpec {
  /** 0-based, as Kubernetes' JOB_COMPLETION_INDEX. */
  readonly index: number;
  readonly count: number;
}

interface ShardResult {
  format: typeof SHARD_FORMAT;
  formatVersion: number;
  version: string;
  n: number;
  plan: { method: string; depth: number; formatVersion: number; units: number; digest: string };
  shard: number;
  of: number;
  /** The units it covers: from..to-1. */
  from: number;
  to: number;
  /**
   * Sum over its units of count x weight ('solutions' units), and 8 x their
   * unique count (all units; 0 for the join, whose unique count follows from
   * the whole total by Burnside's lemma, at merge).
   */
  total: string;
  unique8: string;
  /** One count per unit, from..to-1: solutions for a 'solutions' unit or a join split, fixes for a 'fixes' unit. */
  counts: string[];
  engine: string;
  threads: number;
  elapsedMs: number;
  /** 16 hex digits over everything above but engine, threads and elapsedMs. */
  digest: string;
}

/** Parses "i/m" with 0 <= i < m <= MAX_SHARDS. */
export function parseShard(text: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index >= count || count > MAX_SHARDS) {
    throw rangeError(`--shard must be i/m with 0 <= i < m <= ${MAX_SHARDS} (0-based, e.g. 0/8 ... 7/8); got ${quote(text)}`);
  }
  return { index, count };
}

const MAX_COUNT = (1n << 64n) - 1n;

/** A count as written in files: decimal digits, below 2^64; undefined otherwise. */
export function parseCount(text: unknown): bigint | undefined {
  if (typeof text !== 'string' || !/^(0|[1-9]\d{0,19})$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= MAX_COUNT ? value : undefined;
}

/** Adds the contributions of units from, from + 1, ... with these counts to `into`. */
function addCounts(plan: PlannedMethod, from: number, counts: ArrayLike<bigint>, into: { total: bigint; unique8: bigint }): void {
  for (let k = 0; k < counts.length; k++) {
    const c = plan.contribution(from + k, counts[k]);
    into.total += c.total;
    into.unique8 += c.unique8;
  }
}

/** A shard file's digest over its fields (exported for tests that forge one, as a tamperer would). */
export function digestOf(r: Omit<ShardResult, 'digest' | 'engine' | 'threads' | 'elapsedMs'>): string {
  const p = r.plan;
  return digest(
    [
      r.format,
      r.formatVersion,
      r.version,
      r.n,
      p.method,
      p.depth,
      p.formatVersion,
      p.units,
      p.digest,
      r.shard,
      r.of,
      r.from,
      r.to,
      r.total,
      r.unique8,
      r.counts.join(','),
    ].join('|'),
  );
}

/** The shard file for units from..to-1 of a plan with their counts. */
export function shardResult(
  plan: PlannedMethod,
  spec: ShardSpec,
  range: { from: number; to: number },
  counts: ArrayLike<bigint>,
  run: { engine: string; threads: number; elapsedMs: number },
): ShardResult {
  const sum = { total: 0n, unique8: 0n };
  addCounts(plan, range.from, counts, sum);
  const { depth, formatVersion, units, digest: planDigest } = plan.identity;
  const body = {
    format: SHARD_FORMAT,
    formatVersion: SHARD_FORMAT_VERSION,
    version: VERSION,
    n: plan.n,
    plan: { method: plan.name, depth, formatVersion, units, digest: planDigest },
    shard: spec.index,
    of: spec.count,
    from: range.from,
    to: range.to,
    total: sum.total.toString(),
    unique8: sum.unique8.toString(),
    counts: Array.from(counts, String),
  } as const;
  return { ...body, ...run, digest: digestOf(body) };
}

export interface MergedShards {
  n: number;
  plan: PlannedMethod;
  files: number;
  total: bigint;
  unique: bigint;
  elapsedMs: number;
  /** Per unit: the file and the recorded count (for --verify and --subtotals). */
  countOf(id: number): { name: string; count: bigint };
}

/** A plan as named in messages: the search's by its depth, the join's by its method. */
function planName(p: { method: string; depth: number }): string {
  const recorded = recordedPlan(p);
  return recorded && !hasDepth(recorded.algorithm) ? `the ${recorded.algorithm}` : `depth ${p.depth}`;
}

function refuse(message: string): never {
  throw failure(message, ERROR_CODES.BAD_SHARD);
}

/**
 * A refused plan as JSON, each field cut short as field() does, so that a
 * plan of short fields reads whole (`{"method":"search",…,"units":"1130"}`)
 * and a long one stays short: it holds only a plan's own fields by now.
 */
function planShown(p: unknown): string {
  if (p === null || typeof p !== 'object') return field(p);
  return `{${Object.entries(p)
    .map(([key, value]) => `${JSON.stringify(key)}:${field(value)}`)
    .join(',')}}`;
}

const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** The fields a shard file holds, and its plan: exactly these (an added one is an edit, never read). */
const SHARD_FIELDS: ReadonlySet<string> = new Set<keyof ShardResult>([
  'format',
  'formatVersion',
  'version',
  'n',
  'plan',
  'shard',
  'of',
  'from',
  'to',
  'total',
  'unique8',
  'counts',
  'engine',
  'threads',
  'elapsedMs',
  'digest',
]);
const PLAN_FIELDS: ReadonlySet<string> = new Set<keyof ShardResult['plan']>(['method', 'depth', 'formatVersion', 'units', 'digest']);

/** The first field of `record` not in `known`, if any. */
function unknownField(record: object, known: ReadonlySet<string>): string | undefined {
  return Object.keys(record).find((key) => !known.has(key));
}

/** A shard file as read: its name, its result, and its counts as bigints. */
interface ParsedShard {
  name: string;
  r: ShardResult;
  /** 8 bytes a unit (every count is below 2^64): merge holds every unit of the plan at once. */
  counts: BigUint64Array;
}

/**
 * Most `[` and `{` a shard file may hold: one this program writes holds 3
 * (itself, its plan, its counts), and JSON.parse makes an object of each
 * one, so 10 MB of `[` took 565 MB. Counted before parsing, up to the limit.
 */
const MAX_BRACKETS = 64;

/** Whether `text` holds more than MAX_BRACKETS of `[` and `{`. */
function tooManyBrackets(text: string): boolean {
  let seen = 0;
  for (const bracket of ['[', '{'])
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++seen > MAX_BRACKETS) return true;
  return false;
}

/** Parses one shard file and checks everything it can check alone (except its plan's identity). */
function parseShardFile(name: string, text: string): ParsedShard & { algorithm: AlgorithmName } {
  if (tooManyBrackets(text)) refuse(`${name} is not a shard result (it holds over ${MAX_BRACKETS} "[" and "{"; a shard file holds 3)`);
  let r: ShardResult;
  try {
    r = JSON.parse(text) as ShardResult;
  } catch {
    return refuse(`${name} is not a shard result (${byteOrderMark(text) ?? 'not JSON'})`);
  }
  const twice = repeatedKey(text);
  if (twice !== undefined) refuse(`${name}: the field ${field(twice)} is written twice in one object: edited`);
  if (r?.format !== SHARD_FORMAT) refuse(`${name} is not a shard result (no "format": "${SHARD_FORMAT}")`);
  if (r.formatVersion !== SHARD_FORMAT_VERSION || r.version !== VERSION) {
    refuse(
      `${name} was made by ${madeBy(r.version, r.formatVersion, 'shard')}; this is ${VERSION} (format ${SHARD_FORMAT_VERSION}): shards must come from one version`,
    );
  }
  const added = unknownField(r, SHARD_FIELDS) ?? (r.plan && typeof r.plan === 'object' ? unknownField(r.plan, PLAN_FIELDS) : undefined);
  if (added !== undefined) refuse(`${name}: it has a field no shard file has (${field(added)}): edited`);
  if (!isInt(r.n, MIN_N, MAX_N)) refuse(`${name}: n = ${field(r.n)} is not a board size (${MIN_N} to ${MAX_N})`);
  const p = r.plan;
  const recorded = recordedPlan(p);
  const known = recorded !== undefined && makesPlan(recorded.algorithm, r.n);
  // Typed as written (the digest joins the fields as text, so "288" would pass it for 288).
  if (!known || p.formatVersion !== PLAN_FORMAT_VERSION || typeof p.digest !== 'string' || !isInt(p.units, 0, Number.MAX_SAFE_INTEGER)) {
    refuse(`${name}: its plan (${planShown(p)}) is not one this version makes`);
  }
  if (!isInt(r.of, 1, MAX_SHARDS)) refuse(`${name}: "of": ${field(r.of)} is not a shard count (1 to ${MAX_SHARDS})`);
  if (!isInt(r.shard, 0, r.of - 1)) refuse(`${name}: "shard": ${field(r.shard)} is not an index below "of" (${r.of})`);
  if (!isInt(r.from, 0, Number.MAX_SAFE_INTEGER) || !isInt(r.to, r.from, Number.MAX_SAFE_INTEGER))
    refuse(`${name}: its unit range ${shown(String(r.from))}..${shown(String(r.to))} is not a range`);
  if (!Array.isArray(r.counts) || r.counts.length !== r.to - r.from) {
    refuse(`${name}: it covers units ${r.from}..${r.to - 1} but holds ${Array.isArray(r.counts) ? r.counts.length : 'no'} counts`);
  }
  if (parseCount(r.total) === undefined || typeof r.unique8 !== 'string' || !/^\d+$/.test(r.unique8))
    refuse(`${name} has no valid total/unique8 counts`);
  const { digest: stated, engine: _engine, threads: _threads, elapsedMs: _elapsed, ...body } = r;
  if (stated !== digestOf(body)) refuse(`${name}: its digest does not match its contents (edited or damaged)`);
  // Outside the digest (they describe the run, not the counts), but merge adds up the times: checked for shape.
  // A shard is counted on the CPU's plan units: by wasm or js (count refuses the others with --shard).
  if (r.engine !== 'wasm' && r.engine !== 'js')
    refuse(`${name}: "engine": ${field(r.engine)} is not the name of an engine that counts shards (wasm or js)`);
  if (!isInt(r.threads, 1, Number.MAX_SAFE_INTEGER)) refuse(`${name}: "threads": ${field(r.threads)} is not a thread count (1 or more)`);
  if (typeof r.elapsedMs !== 'number' || !(r.elapsedMs >= 0 && r.elapsedMs <= Number.MAX_SAFE_INTEGER)) {
    refuse(`${name}: "elapsedMs": ${field(r.elapsedMs)} is not a time in ms (0 or more)`);
  }
  const counts = new BigUint64Array(r.counts.length);
  r.counts.forEach((c, k) => {
    counts[k] = parseCount(c) ?? refuse(`${name}: the count of unit ${r.from + k} (${field(c)}) is not a count`);
  });
  // The counts' strings are read: keep only their 8 bytes each (a plan of 10^8 units is merged whole).
  r.counts = [];
  return { name, r, counts, algorithm: recorded!.algorithm };
}

/** `twice`, `3 times`, `5,000 times`. */
const times = (k: number): string => (k === 2 ? 'twice' : `${k.toLocaleString('en-US')} times`);

/**
 * The first shard of each slice (`i/m`); every slice given more than once
 * is one problem in `problems`, whatever the repeats (a glob repeated,
 * `shard-1.json` 5,000 times: one phrase, not 5,000).
 */
function firstOfEachSlice(shards: readonly ParsedShard[], problems: string[]): ParsedShard[] {
  const distinct: ParsedShard[] = [];
  // Each slice's file names, with how often each was given.
  const bySpec = new Map<string, Map<string, number>>();
  for (const shard of shards) {
    const spec = `${shard.r.shard}/${shard.r.of}`;
    const names = bySpec.get(spec) ?? new Map<string, number>();
    if (names.size === 0) distinct.push(shard);
    names.set(shard.name, (names.get(shard.name) ?? 0) + 1);
    bySpec.set(spec, names);
  }
  for (const [spec, names] of bySpec) {
    const given = [...names.values()].reduce((sum, k) => sum + k, 0);
    if (given > 1) problems.push(`shard ${spec} appears ${times(given)}: ${givenNames(names)}`);
  }
  return distinct;
}

/** `a`, `a and b`, `a, b and c`. */
const andList = (items: readonly string[]): string =>
  items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** How many file names a repeated slice's message lists before it says how many more there are. */
const NAMES_SHOWN = 3;

/** `a.json and b.json`, `a.json (given 5,000 times)`, `a.json, b.json, c.json and 4,997 other files`. */
function givenNames(names: Map<string, number>): string {
  // Never `and 1 other file`: that name is as short.
  const listedCount = names.size === NAMES_SHOWN + 1 ? names.size : NAMES_SHOWN;
  const listed = [...names].slice(0, listedCount).map(([name, k]) => (k === 1 ? name : `${name} (given ${times(k)})`));
  const more = names.size - listed.length;
  if (more > 0) listed.push(`${more.toLocaleString('en-US')} other file${more === 1 ? '' : 's'}`);
  return andList(listed);
}

/**
 * Adds up shard results, refusing anything that would not give the exact
 * whole: other versions or plans, units missing or counted twice, counts
 * that do not match their totals or contradict a constellation's symmetry,
 * edited files. Every refusal names the file.
 */
export function mergeShards(files: readonly { readonly name: string; readonly text: string }[]): MergedShards {
  if (files.length === 0) refuse('merge needs the shard files to add up');
  // Named in messages only, so by its start where long (a name of 100 KB would be quoted in every one).
  // A name given again is parsed once (its file was read once: see merge.ts). Each file's text is
  // asked for only here (merge.ts reads it then), so that no more than one file's text is held at once.
  const parsed = new Map<string, ReturnType<typeof parseShardFile>>();
  const shards = files.map((file) => {
    const name = file.name;
    const shard = parsed.get(name) ?? parseShardFile(shown(name), file.text);
    parsed.set(name, shard);
    return shard;
  });
  const first = shards[0];
  for (const { name, r, algorithm } of shards) {
    if (r.n !== first.r.n) refuse(`${name} is for n = ${r.n}, ${first.name} for n = ${first.r.n}`);
    // By algorithm, not label: a search shard labelled 'constellations' (written before) goes with one labelled 'search'.
    if (algorithm !== first.algorithm) {
      refuse(
        `${name} is a shard of a ${algorithm} count (plan ${shown(r.plan.digest)}), ${first.name} of a ${first.algorithm} count (plan ${shown(first.r.plan.digest)}): shards of different methods never mix`,
      );
    }
    if (r.plan.depth !== first.r.plan.depth || r.plan.digest !== first.r.plan.digest) {
      refuse(
        `${name} uses plan ${shown(r.plan.digest)} (${planName(r.plan)}), ${first.name} plan ${shown(first.r.plan.digest)} (${planName(first.r.plan)}): all shards must share one plan`,
      );
    }
  }
  const plan = plannedMethod(first.algorithm, first.r.n, first.r.plan.depth);
  const { digest: planDigest } = plan.identity;
  if (first.r.plan.digest !== planDigest || first.r.plan.units !== plan.units) {
    refuse(
      `${first.name}: its plan digest ${shown(first.r.plan.digest)} (${first.r.plan.units} units) is not this version's plan for n = ${plan.n}, ${planName(plan.identity)} (${planDigest}, ${plan.units} units)`,
    );
  }
  // Every shard given twice, every unit missing or counted twice, named together: a cluster's rerun needs the whole list.
  const coverage: string[] = [];
  const distinct = firstOfEachSlice(shards, coverage);
  for (const { name, r, counts } of distinct) {
    const spec = `${r.shard}/${r.of}`;
    const range = plan.shardRange(r.shard, r.of);
    if (r.from !== range.from || r.to !== range.to) {
      refuse(
        `${name} says it is shard ${spec} with units ${r.from}..${r.to - 1}, but shard ${spec} of this plan is units ${range.from}..${range.to - 1}`,
      );
    }
    counts.forEach((count, k) => {
      const implausible = implausibleCount(plan, r.from + k, count);
      if (implausible) refuse(`${name}: ${implausible}`);
    });
    const sum = { total: 0n, unique8: 0n };
    addCounts(plan, r.from, counts, sum);
    if (sum.total !== BigInt(r.total) || sum.unique8 !== BigInt(r.unique8)) {
      refuse(
        `${name}: its total ${r.total} and unique8 ${shown(r.unique8)} are not what its counts add up to (${sum.total}, ${sum.unique8})`,
      );
    }
  }
  const countOf = coveredUnits(distinct, plan, coverage);
  let total = 0n;
  let unique8 = 0n;
  for (const s of distinct) {
    total += BigInt(s.r.total);
    unique8 += BigInt(s.r.unique8);
  }
  // What no count can give: for the search, a symmetric constellation's
  // fixes that do not fit its solutions; for the join, a total that Burnside
  // turns into no whole number of classes.
  const problem = plan.checkParts(total, unique8, countOf);
  if (problem !== undefined) refuse(problem);
  return {
    n: plan.n,
    plan,
    files: distinct.length,
    total,
    unique: plan.uniqueOf(total, unique8),
    elapsedMs: distinct.reduce((sum, { r }) => sum + r.elapsedMs, 0),
    countOf,
  };
}

/** How many unit ranges (or runs of shards) a gap's or an overlap's message lists before it says how many more there are. */
const RANGES_SHOWN = 3;

/** `0..52, 60..80 and 9 other ranges`: the first ranges of `count` (never `and 1 other range`: it is as short). */
function someRanges(ranges: readonly UnitRange[], count: number): string {
  const shown = count === RANGES_SHOWN + 1 ? count : RANGES_SHOWN;
  const listed = ranges.slice(0, shown).map(({ from, to }) => `${from}..${to - 1}`);
  if (count > listed.length) listed.push(`${(count - listed.length).toLocaleString('en-US')} other ranges`);
  return andList(listed);
}

/** `1 unit is`, `5,000 units are`. */
const unitsAre = (units: number): string => (units === 1 ? '1 unit is' : `${units.toLocaleString('en-US')} units are`);

interface UnitRange {
  from: number;
  to: number;
}

/**
 * Units that more than one shard holds (shards of different splits mixed),
 * gathered into one phrase of bounded size, however many files overlap:
 * how many units, their first ranges, the files. Ranges come in order of
 * their start, so each one joins the last or follows it.
 */
class Overlap {
  units = 0;
  private readonly ranges: UnitRange[] = [];
  private readonly names = new Map<string, number>();

  add(from: number, to: number, earlier: string, later: string): void {
    const last = this.ranges.at(-1);
    if (last !== undefined && from <= last.to) {
      this.units += Math.max(0, to - last.to);
      last.to = Math.max(last.to, to);
    } else {
      this.units += to - from;
      this.ranges.push({ from, to });
    }
    for (const name of [earlier, later]) this.names.set(name, 1);
  }

  phrase(): string {
    const ranges = someRanges(this.ranges, this.ranges.length);
    return `${unitsAre(this.units)} counted more than once (units ${ranges}): shards of different splits overlap, in ${givenNames(this.names)}`;
  }
}

/** Shards first/of..last/of: a run of one split's shards that holds a gap's units and no others. */
interface ShardRun {
  first: number;
  last: number;
  of: number;
}

/** Index i of split `of` where shard i starts at `unit` (`of` where unit is the plan's end); undefined if none does. */
function boundaryOf(plan: ShardedPlan, of: number, unit: number): number | undefined {
  const start = (i: number): number => (i === of ? plan.units : plan.shardRange(i, of).from);
  let lo = 0;
  let hi = of;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start(mid) >= unit) hi = mid;
    else lo = mid + 1;
  }
  return start(lo) === unit ? lo : undefined;
}

/**
 * The shards that would fill units from..to-1 exactly, of the split of the
 * shard before them or of the one after (the shard before ends where they
 * start, so the next of its split starts there); undefined if neither split
 * has shards that start and end where the gap does.
 */
function fillingShards(plan: ShardedPlan, gap: UnitRange, before?: ShardResult, after?: ShardResult): ShardRun | undefined {
  for (const of of new Set([before?.of, after?.of])) {
    if (of === undefined) continue;
    let first = before?.of === of ? before.shard + 1 : boundaryOf(plan, of, gap.from);
    let end = after?.of === of ? after.shard : boundaryOf(plan, of, gap.to);
    if (first === undefined || end === undefined) continue;
    // Empty shards at either end hold none of the gap: named, they would read as missing too.
    while (first < end && isEmpty(plan, first, of)) first++;
    while (end > first && isEmpty(plan, end - 1, of)) end--;
    if (first < end) return { first, last: end - 1, of };
  }
  return undefined;
}

function isEmpty(plan: ShardedPlan, index: number, of: number): boolean {
  const { from, to } = plan.shardRange(index, of);
  return to === from;
}

const shardRunName = ({ first, last, of }: ShardRun): string => (first === last ? `${first}/${of}` : `${first}/${of}..${last}/${of}`);

/**
 * Units no shard given holds, in one phrase of bounded size however many
 * gaps (every other shard of 2,000 missing: one phrase, not 831): how
 * many units in how many ranges, the first ranges, and the shards that
 * would fill them, where the splits of the shards around a gap name them.
 * A single gap is named with the files around it.
 */
class Gaps {
  private units = 0;
  private count = 0;
  private readonly ranges: UnitRange[] = [];
  private readonly runs: ShardRun[] = [];
  private filled = 0;
  private fillingCount = 0;
  private firstAround = '';

  constructor(private readonly plan: ShardedPlan) {}

  add(gap: UnitRange, before?: ParsedShard, after?: ParsedShard): void {
    this.units += gap.to - gap.from;
    if (this.count++ < RANGES_SHOWN + 1) this.ranges.push(gap);
    if (this.count === 1) {
      const beforeName = before?.name ?? '(the start)';
      this.firstAround = after ? `no shard between ${beforeName} and ${after.name}` : `no shard after ${beforeName}`;
    }
    const run = fillingShards(this.plan, gap, before?.r, after?.r);
    if (run === undefined) return;
    this.filled++;
    this.fillingCount += run.last - run.first + 1;
    if (this.runs.length < RANGES_SHOWN + 1) this.runs.push(run);
  }

  phrase(): string | undefined {
    if (this.count === 0) return undefined;
    const fill = this.fillingPhrase();
    if (this.count === 1) {
      const [{ from, to }] = this.ranges;
      const atEnd = to === this.plan.units ? `the plan has ${this.plan.units} units` : undefined;
      const notes = [atEnd, fill].filter((note) => note !== undefined);
      return `units ${from}..${to - 1} are missing: ${this.firstAround}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
    }
    const ranges = someRanges(this.ranges, this.count);
    const where = `${unitsAre(this.units)} missing, in ${this.count.toLocaleString('en-US')} ranges (units ${ranges})`;
    return `${where}: ${fill ?? 'no shard given holds them'}`;
  }

  /** `shard 2/4 would fill them`, `shards 1/2000, 3/2000, 5/2000 and 997 other shards would fill them`. */
  private fillingPhrase(): string | undefined {
    if (this.filled === 0) return undefined;
    const shown = this.runs.length === RANGES_SHOWN + 1 && this.filled === this.runs.length ? this.runs.length : RANGES_SHOWN;
    const listed = this.runs.slice(0, shown);
    const more = this.fillingCount - listed.reduce((sum, run) => sum + run.last - run.first + 1, 0);
    const names = listed.map(shardRunName);
    if (more > 0) names.push(`${more.toLocaleString('en-US')} other shard${more === 1 ? '' : 's'}`);
    const shards = `shard${this.fillingCount === 1 ? '' : 's'} ${andList(names)}`;
    const which = this.filled === this.count ? 'them' : `${this.filled.toLocaleString('en-US')} of those ranges`;
    return `${shards} would fill ${which}`;
  }
}

/**
 * Each unit's shard and count, once the shards' ranges are checked to tile
 * 0..units-1 exactly; refuses with every gap and overlap (after `problems`
 * found before), not only the first.
 */
function coveredUnits(shards: ParsedShard[], plan: ShardedPlan, problems: string[]): (id: number) => { name: string; count: bigint } {
  const ordered = shards.filter((s) => s.r.to > s.r.from).sort((p, q) => p.r.from - q.r.from);
  let next = 0;
  let previous: ParsedShard | undefined;
  const overlap = new Overlap();
  const gaps = new Gaps(plan);
  for (const shard of ordered) {
    const { name, r } = shard;
    if (r.from > next) gaps.add({ from: next, to: r.from }, previous, shard);
    if (r.from < next) overlap.add(r.from, Math.min(next, r.to), previous?.name ?? '(the start)', name);
    if (r.to >= next) {
      next = r.to;
      previous = shard;
    }
  }
  if (next < plan.units) gaps.add({ from: next, to: plan.units }, previous);
  if (overlap.units > 0) problems.push(overlap.phrase());
  const missing = gaps.phrase();
  if (missing !== undefined) problems.push(missing);
  if (problems.length > 0) refuse(problems.join('; '));

  const countOf = (id: number): { name: string; count: bigint } => {
    let lo = 0;
    let hi = ordered.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ordered[mid].r.from <= id) lo = mid;
      else hi = mid - 1;
    }
    const s = ordered[lo];
    return { name: s.name, count: s.counts[id - s.r.from] };
  };
  return countOf;
}
