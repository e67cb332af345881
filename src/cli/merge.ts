// `nqueens merge`: adds shard results up into the whole count, refusing
// anything that does not add up; `--verify K` recounts K random units.
import { planLabel, recounter } from '../run/methods.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import { parseCpuEngine, parseInteger, refuseDash, UsageError, type OptionValues } from './args.js';
import { describeError, printErr, println } from './files.js';
import { reserveOutput } from './reserve-output.js';
import { unpublished } from '../shared/known-counts.js';
import { shown } from './shorten.js';
import { formatMs, printPairs, roundMs } from './output.js';
import { readRegularFile } from './regular-file.js';
import { MAX_SHARD_BYTES, mergeShards, type MergedShards } from './shards.js';
import { renewDue } from './owner.js';
import { letSignalsIn } from './interrupt.js';

function readShard(name: string): { name: string; text: string } {
  try {
    const read = readRegularFile(name, MAX_SHARD_BYTES);
    if ('problem' in read) throw failure(read.problem, ERROR_CODES.BAD_SHARD);
    return { name, text: read.text };
  } catch (error) {
    if ((error as { code?: string }).code === ERROR_CODES.BAD_SHARD) throw error;
    throw failure(`cannot read ${shown(name)}: ${describeError(error)}`, ERROR_CODES.BAD_SHARD);
  }
}

/** A small seeded generator (mulberry32), so a verification can be repeated with --seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Recounts `k` distinct random units and compares them with the shards; throws on the first difference. */
async function verify(m: MergedShards, k: number, seed: number, engine: 'auto' | 'wasm' | 'js'): Promise<number> {
  const next = random(seed);
  const picked = new Set<number>();
  const want = Math.min(k, m.plan.units);
  while (picked.size < want) picked.add(Math.floor(next() * m.plan.units));
  // The plan's own method recounts: the search's kernel, or the join's counter. This blocks the event loop, so
  // the claim on --subtotals' FILE.partial is renewed from here: another host takes over a claim 120 s old.
  const recount = recounter(m.plan, engine, renewDue);
  for (const id of [...picked].sort((p, q) => p - q)) {
    // Between units, a stop signal's handler gets its turn (Ctrl-C during a long verification).
    await letSignalsIn();
    const value = recount(id);
    const recorded = m.countOf(id);
    if (value !== recorded.count) {
      throw failure(
        `verification failed (seed ${seed}): unit ${id} is recorded in ${recorded.name} as ${recorded.count}, but counts ${value}; that shard's machine or run is faulty, run it again`,
        ERROR_CODES.VERIFY_FAILED,
      );
    }
  }
  return picked.size; // what was recounted, which the report says
}

export async function runMerge(files: string[], values: OptionValues): Promise<void> {
  if (files.length === 0) throw new UsageError('merge needs the shard files, e.g. `nqueens merge shard-*.json`');
  if (files.includes('')) throw new UsageError('merge: a shard file name is empty (""): an unset shell variable?');
  // Shards are read whole, each checked against its file name: `-` names no stdin here (before, a file named "-").
  if (files.includes('-')) refuseDash('merge reads shard files, not stdin ("-"); name them, e.g. `nqueens merge shard-*.json`');
  const verifying = values.verify !== undefined; // --verify 0 too: its report has the keys --verify promises
  const verifyCount = values.verify === undefined ? 0 : parseInteger(values.verify, '--verify', 0, Number.MAX_SAFE_INTEGER);
  if (values.seed !== undefined && !verifying) throw new UsageError('--seed goes with --verify K');
  if (values.engine !== undefined && !verifying) throw new UsageError('--engine goes with --verify K: the engine that recounts');
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 32) : parseInteger(values.seed, '--seed', 0, 2 ** 32 - 1);
  const engine = parseCpuEngine(values.engine, 'merge --verify', ['auto', 'wasm', 'js']);
  const shards = files.map((file) => ({ file, role: 'a shard to merge' }));
  const subtotals = values.subtotals ? reserveOutput('--subtotals', values.subtotals, 'the subtotals', shards) : undefined;
  try {
    // A file given again (a glob repeated) is read once: the same name is the same shard, refused as given twice.
    // Each is read when mergeShards parses it, and its text dropped after: a deep plan's shards together are gigabytes.
    const m = mergeShards(
      files.map((file) => ({
        name: file,
        get text() {
          return readShard(file).text;
        },
      })),
    );
    let verified = 0;
    if (verifyCount > 0) {
      printErr(
        `verifying ${Math.min(verifyCount, m.plan.units)} random units (seed ${seed}; repeat with --verify ${verifyCount} --seed ${seed})`,
      );
      verified = await verify(m, verifyCount, seed, engine);
    }
    refuseUnpublished(m, verifying);
    subtotals?.commit(m.plan.subtotals((id) => m.countOf(id).count));
    if (values.json === true) {
      const out: Record<string, unknown> = {
        n: m.n,
        total: m.total.toString(),
        unique: m.unique.toString(),
        shards: m.files,
        units: m.plan.units,
        method: m.plan.identity.method,
        depth: m.plan.identity.depth,
        plan: m.plan.identity.digest,
        elapsedMs: roundMs(m.elapsedMs),
      };
      if (verifying) Object.assign(out, { verified, seed });
      println(JSON.stringify(out));
      return;
    }
    printPairs([
      ['N', String(m.n)],
      ['total', m.total.toString()],
      ['unique', m.unique.toString()],
      ['shards', `${m.files} (${m.plan.units} units, plan ${planLabel(m.plan.identity)}, ${m.plan.identity.digest})`],
      ['time', `${formatMs(m.elapsedMs)} (sum over shards)`],
      ...(verifying ? [['verify', verifiedLine(verified, seed)] as const] : []),
    ]);
  } catch (error) {
    subtotals?.discard();
    throw error;
  }
}

/** Refuses a sum that is not the published count of its n (OEIS; as far as it is known): some shard is wrong. */
function refuseUnpublished(m: MergedShards, verified: boolean): void {
  const known = unpublished(m.n, m);
  if (known === undefined) return;
  throw failure(
    `the shards add up to ${m.total} solutions, ${m.unique} unique, but n = ${m.n} has ${known.total}, ${known.unique} unique (OEIS A000170, A002562): a shard was miscounted or edited${verified ? '' : '; --verify K recounts K random units to find it'}`,
    ERROR_CODES.BAD_SHARD,
  );
}

/** `merge --verify K`'s line: `4 random units recounted, all match (seed 7)`; none for --verify 0, whose seed chose nothing. */
function verifiedLine(verified: number, seed: number): string {
  if (verified === 0) return 'no unit recounted (--verify 0)';
  return `${verified} random unit${verified === 1 ? '' : 's'} recounted, all match (seed ${seed})`;
}
