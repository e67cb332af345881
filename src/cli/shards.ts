// Shards: disjoint slices of the subproblem list, for running one big count
// as many independent jobs (a cluster's array job) and adding them up after.
import type { Subproblem } from '../constellations.js';
import { codedError, ERROR_CODES, rangeError } from '../errors.js';
import { VERSION } from '../version.js';

export const SHARD_FORMAT = 'nqueens-shard';

export interface ShardSpec {
  /** 0-based, as Kubernetes' JOB_COMPLETION_INDEX. */
  readonly index: number;
  readonly count: number;
}

export interface ShardResult {
  format: typeof SHARD_FORMAT;
  version: string;
  n: number;
  shard: number;
  of: number;
  /** Subproblems in this shard, and in the whole list. */
  subproblems: number;
  planSize: number;
  total: string;
  unique: string;
  engine: string;
  threads: number;
  elapsedMs: number;
}

/** Parses "i/m" with 0 <= i < m. */
export function parseShard(text: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index >= count || count > 1_000_000) {
    throw rangeError(`--shard must be i/m with 0 <= i < m (0-based, e.g. 0/8 ... 7/8); got ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/** Round-robin over the list, which runs largest first, so shards come out about even. */
export function shardOf(plan: readonly Subproblem[], spec: ShardSpec): Subproblem[] {
  return plan.filter((s) => s.id % spec.count === spec.index);
}

export interface MergedShards {
  n: number;
  of: number;
  total: bigint;
  unique: bigint;
  elapsedMs: number;
}

function fail(message: string): never {
  throw codedError(message, ERROR_CODES.BAD_FILE);
}

/** Adds up shard results, refusing anything that would not give the exact whole. */
export function mergeShards(files: { name: string; text: string }[]): MergedShards {
  if (files.length === 0) fail('merge needs the shard files to add up');
  const results = files.map(({ name, text }) => {
    let r: ShardResult;
    try {
      r = JSON.parse(text) as ShardResult;
    } catch {
      return fail(`${name} is not a shard result (not JSON)`);
    }
    if (r?.format !== SHARD_FORMAT) fail(`${name} is not a shard result (no "format": "${SHARD_FORMAT}")`);
    if (!/^\d+$/.test(String(r.total)) || !/^\d+$/.test(String(r.unique))) fail(`${name} has no valid total/unique counts`);
    return { name, r };
  });
  const first = results[0];
  for (const { name, r } of results) {
    if (r.version !== first.r.version) fail(`${name} was made by nqueens-wasm ${r.version}, ${first.name} by ${first.r.version}: shards must come from one version`);
    if (r.n !== first.r.n) fail(`${name} is for n = ${r.n}, ${first.name} for n = ${first.r.n}`);
    if (r.of !== first.r.of) fail(`${name} is shard ${r.shard}/${r.of}, ${first.name} is ${first.r.shard}/${first.r.of}: all shards must use the same m`);
  }
  if (first.r.version !== VERSION) fail(`the shards were made by nqueens-wasm ${first.r.version}; this is ${VERSION}`);
  const of = first.r.of;
  const seen = new Map<number, string>();
  for (const { name, r } of results) {
    if (!Number.isInteger(r.shard) || r.shard < 0 || r.shard >= of) fail(`${name} has shard index ${r.shard}, outside 0..${of - 1}`);
    const other = seen.get(r.shard);
    if (other) fail(`shard ${r.shard}/${of} appears twice: ${other} and ${name}`);
    seen.set(r.shard, name);
  }
  const missing = [];
  for (let i = 0; i < of; i++) if (!seen.has(i)) missing.push(i);
  if (missing.length > 0) {
    const list = missing.length > 10 ? `${missing.slice(0, 10).join(', ')} and ${missing.length - 10} more` : missing.join(', ');
    fail(`missing shard${missing.length > 1 ? 's' : ''} ${list} of ${of}`);
  }
  return {
    n: first.r.n,
    of,
    total: results.reduce((sum, { r }) => sum + BigInt(r.total), 0n),
    unique: results.reduce((sum, { r }) => sum + BigInt(r.unique), 0n),
    elapsedMs: results.reduce((sum, { r }) => sum + r.elapsedMs, 0),
  };
}
