// `nqueens count`: one size, a table of sizes, or a slice of one count
// (a shard and/or a resumable checkpoint).
import { writeFileSync } from 'node:fs';
import { count, countCompletions, planSubproblems, type CountResult, type EngineChoice } from '../index.js';
import { runPlan } from '../run.js';
import { VERSION } from '../version.js';
import { parseAlgorithm, parseEngine, parsePlaced, parseSizes, parseThreads, UsageError, type OptionValues } from './args.js';
import { Checkpoint } from './checkpoint.js';
import { Interrupted, withProgress } from './interrupt.js';
import { asJson, formatMs, printPairs, printResult, tableHeader, tableRow } from './output.js';
import { parseShard, SHARD_FORMAT, shardOf, type ShardResult } from './shards.js';
import { describe } from '../validate.js';

/** A count restricted to a shard and/or recorded in a checkpoint. */
interface SliceRun {
  n: number;
  engine: 'auto' | 'wasm' | 'js';
  threads: number | undefined;
  json: boolean;
  checkpointFile: string | undefined;
  shardText: string | undefined;
  out: string | undefined;
}

export async function runCount(positionals: string[], values: OptionValues): Promise<void> {
  const sizes = parseSizes(positionals[0]);
  if (positionals.length > 1) throw new UsageError(`count takes one size or range; unexpected ${describe(positionals[1])}`);
  const engine = parseEngine(values.engine);
  const threads = parseThreads(values.threads);
  const algorithm = parseAlgorithm(values.algorithm);
  const json = values.json === true;
  const { checkpoint: checkpointFile, shard: shardText, out } = values;
  if (sizes.length > 1 && (checkpointFile || shardText)) throw new UsageError('--checkpoint and --shard take a single n, not a range');
  if (out && !shardText) throw new UsageError('--out goes with --shard i/m');
  if ((checkpointFile || shardText) && (engine === 'reference' || engine === 'webgpu')) {
    throw new UsageError('--checkpoint and --shard need engine auto, wasm or js (they count subproblems on the CPU)');
  }
  if (engine === 'reference' && threads !== undefined && threads > 1) {
    throw new UsageError('--threads must be 1 with --engine reference (it has no subproblems to share)');
  }
  if (values.placed !== undefined) {
    await runCompletionsCount(sizes, values);
    return;
  }
  if (checkpointFile || shardText) {
    await runSlice({ n: sizes[0], engine: engine as SliceRun['engine'], threads, json, checkpointFile, shardText, out });
    return;
  }
  const countOne = (n: number): Promise<CountResult> =>
    withProgress((bar, signal) => count(n, { engine: engine as EngineChoice, algorithm, threads, signal, onProgress: bar.update }));
  if (sizes.length === 1 && !json) {
    printResult(await countOne(sizes[0]));
    return;
  }
  if (!json) console.log(tableHeader());
  for (const n of sizes) {
    const r = await countOne(n);
    console.log(json ? asJson(r) : tableRow(r));
  }
}

/** `count <n> --placed r:c,...`: the solutions containing those queens (no unique count: symmetry does not apply). */
async function runCompletionsCount(sizes: number[], values: OptionValues): Promise<void> {
  if (sizes.length > 1) throw new UsageError('--placed takes a single n, not a range');
  if (values.checkpoint || values.shard) throw new UsageError('--placed does not go with --checkpoint or --shard');
  const n = sizes[0];
  const placed = parsePlaced(values.placed)!;
  const engine = parseEngine(values.engine);
  const threads = parseThreads(values.threads);
  const r = await withProgress((bar, signal) =>
    countCompletions(n, placed, { engine, threads, signal, onProgress: (p) => bar.update({ ...p, unique: 0n }) }),
  );
  if (values.json) {
    console.log(JSON.stringify({ ...r, placed, total: r.total.toString() }));
    return;
  }
  printPairs([
    ['N', String(n)],
    ['placed', placed.map(([row, col]) => `${row}:${col}`).join(',')],
    ['total', r.total.toString()],
    ['engine', r.engine],
    ['threads', String(r.threads)],
    ['time', formatMs(r.elapsedMs)],
  ]);
}

async function runSlice(run: SliceRun): Promise<void> {
  const { n, engine, threads, json, checkpointFile, shardText, out } = run;
  let spec;
  try {
    spec = parseShard(shardText ?? '0/1');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const plan = planSubproblems(n);
  const slice = shardOf(plan, spec);
  const checkpoint = checkpointFile ? Checkpoint.open(checkpointFile, n, `${spec.index}/${spec.count}`, slice) : undefined;
  const { already, remaining } = checkpoint ? checkpoint.resume(slice) : { already: undefined, remaining: slice };
  const start = performance.now();
  let r;
  try {
    r = await withProgress((bar, signal) =>
      runPlan({
        n,
        subproblems: remaining,
        engine,
        threads,
        signal,
        already,
        onProgress: bar.update,
        onSubproblem: checkpoint ? (s, c) => checkpoint.record(s, c) : undefined,
      }),
    );
  } catch (error) {
    if (error instanceof Interrupted && checkpointFile) {
      throw new Interrupted(`interrupted; finished subproblems are in ${checkpointFile}, run the same command to resume`);
    }
    throw error;
  }
  const elapsedMs = performance.now() - start;
  const result: CountResult = { n, total: r.total, unique: r.unique, engine: r.engine, algorithm: r.method, threads: r.threads, elapsedMs };
  if (!shardText) {
    if (json) console.log(asJson(result));
    else printResult(result);
    if (already && already.finished > 0) console.error(`resumed from ${checkpointFile}: ${already.finished} of ${slice.length} subproblems were already done`);
    return;
  }
  const shard: ShardResult = {
    format: SHARD_FORMAT,
    version: VERSION,
    n,
    shard: spec.index,
    of: spec.count,
    subproblems: slice.length,
    planSize: plan.length,
    total: r.total.toString(),
    unique: r.unique.toString(),
    engine: r.engine,
    threads: r.threads,
    elapsedMs,
  };
  const text = JSON.stringify(shard, null, 2) + '\n';
  if (out) {
    writeFileSync(out, text);
    if (!json) console.log(`shard ${spec.index}/${spec.count} of n = ${n}: ${slice.length} subproblems, total ${r.total}, written to ${out}`);
  } else {
    process.stdout.write(text);
  }
}
