// `nqueens count`: one size, a table of sizes, or a slice of one count
// (a shard, a resumable checkpoint, and/or per-constellation subtotals).
import {
  algorithmLimits,
  hasDepth,
  makesPlan,
  methodForCount,
  planAlgorithm,
  planLabel,
  resolveAlgorithm,
  type AlgorithmName,
  type PlannedMethod,
} from '../run/methods.js';
import { runMethod } from '../run/runner.js';
import {
  count,
  countCompletions,
  JOIN_AUTO_MAX_N,
  JOIN_AUTO_MIN_N,
  MAX_DEPTH,
  type AlgorithmChoice,
  type CountResult,
  type EngineChoice,
} from '../index.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import {
  parseAlgorithm,
  parseCpuEngine,
  parseEngine,
  parseInteger,
  parsePlaced,
  parseSizes,
  parseThreads,
  UsageError,
  type OptionValues,
} from './args.js';
import { Checkpoint } from './checkpoint.js';
import { quote, shown } from './shorten.js';
import { type PendingFile, printErr, println, visible, writeOutAsync } from './files.js';
import { reserveOutput } from './reserve-output.js';
import { Interrupted, withProgress } from './interrupt.js';
import { asJson, formatMs, printPairs, printResult, roundMs, tableHeader, tableRow } from './output.js';
import { checkShardUnits, parseShard, shardResult, type ShardSpec } from './shards.js';
import { UnitCounts } from './unit-counts.js';

/**
 * The default plan of a slice is sized for its shard count, as if each
 * shard ran this many threads; it does not depend on --threads, so a
 * checkpoint resumes with the same plan whatever the threads. (Units are
 * counted in pieces, so more threads than this still finish evenly.)
 */
const PARTS_PER_SHARD = 2;

/** Ctrl-C on a count without a checkpoint: say what is lost, and how to keep it next time. */
const WORK_LOST = 'the work done is lost (with --checkpoint FILE a count keeps its finished units and resumes)';

/** A count restricted to a shard and/or recorded in a checkpoint and/or written as subtotals. */
interface SliceRun {
  n: number;
  /** The method whose plan the slice runs. */
  algorithm: AlgorithmName;
  /** Whether that is the checkpoint's own, kept over the default (a note says so once the checkpoint is accepted). */
  keptFromCheckpoint: boolean;
  /** The plan the checkpoint's header names (Checkpoint.planOf), read once: its depth resumes the search's. */
  checkpointPlan: CheckpointPlan | undefined;
  engine: 'auto' | 'wasm' | 'js';
  threads: number | undefined;
  json: boolean;
  depth: number | undefined;
  checkpointFile: string | undefined;
  spec: ShardSpec | undefined;
  /** Where a shard's result goes: a file, or stdout (`--out -`). */
  out: PendingFile | 'stdout' | undefined;
  subtotals: PendingFile | undefined;
}

export async function runCount(positionals: string[], values: OptionValues): Promise<void> {
  const { sizes, range } = parseSizes(positionals[0]);
  if (positionals.length > 1) throw new UsageError(`count takes one size or range; unexpected ${quote(positionals[1])}`);
  const engine = values.placed === undefined ? parseEngine(values.engine) : parseCpuEngine(values.engine, 'count --placed');
  const threads = parseThreads(values.threads);
  const algorithm = parseAlgorithm(values.algorithm);
  const json = values.json === true;
  const depth = values.depth === undefined ? undefined : parseInteger(values.depth, '--depth', 0, MAX_DEPTH);
  const { checkpoint: checkpointFile, shard: shardText, out, subtotals } = values;
  const slice = checkpointFile !== undefined || shardText !== undefined || subtotals !== undefined || depth !== undefined;
  if (range && slice) throw new UsageError('--checkpoint, --shard, --subtotals and --depth take a single n, not a range');
  if (out !== undefined && shardText === undefined) throw new UsageError('--out goes with --shard i/m');
  if (out === '-' && json) throw new UsageError('--json goes with --out FILE: with --out - stdout has the shard file itself, JSON already');
  if (subtotals !== undefined && shardText !== undefined)
    throw new UsageError('--subtotals is for a whole count; for shards, use it with merge');
  if (slice && (engine === 'reference' || engine === 'webgpu')) {
    throw new UsageError('--checkpoint, --shard, --subtotals and --depth need engine auto, wasm or js (they count plan units on the CPU)');
  }
  if ((engine === 'reference' || engine === 'webgpu') && threads !== undefined && threads > 1) {
    const why = engine === 'webgpu' ? 'the GPU runs the whole count' : 'it has no subproblems to share';
    throw new UsageError(`--threads must be 1 with --engine ${engine} (${why}); got ${quote(values.threads ?? '')}`);
  }
  if (values.placed !== undefined) {
    await runCompletionsCount(sizes, range, values);
    return;
  }
  checkAlgorithmRequest(sizes, engine, algorithm);
  noteAlgorithmChange(sizes, engine, algorithm, depth);
  if (slice) {
    await countSlice(sizes[0], { engine, algorithm, threads, json, depth }, values);
    return;
  }
  const countOne = (n: number): Promise<CountResult> =>
    withProgress((bar, signal) => count(n, { engine: engine as EngineChoice, algorithm, threads, signal, onProgress: bar.update })).catch(
      (error: unknown) => {
        if (error instanceof Interrupted) throw new Interrupted(WORK_LOST);
        throw error;
      },
    );
  // Every size of a range is checked before the first is counted (16..25 --algorithm join refuses 25 now).
  for (const n of sizes) resolveAlgorithm(n, engine, algorithm);
  if (!range && !json) {
    printResult(await countOne(sizes[0]));
    return;
  }
  // The table's header with its first row: an engine found unavailable by the first count leaves stdout empty.
  let headed = json;
  for (const n of sizes) {
    const r = await countOne(n);
    if (!headed) println(tableHeader());
    headed = true;
    println(json ? asJson(r) : tableRow(r));
  }
}

/** `count <n>` with --checkpoint, --shard, --subtotals or --depth: a slice of one count's plan. */
async function countSlice(
  n: number,
  options: { engine: EngineChoice; algorithm: AlgorithmChoice; threads: number | undefined; json: boolean; depth: number | undefined },
  values: OptionValues,
): Promise<void> {
  const { engine, algorithm, threads, json, depth } = options;
  const { checkpoint: checkpointFile, shard: shardText, out, subtotals } = values;
  // The algorithm of a slice depends on n and the options (and a checkpoint
  // resumed), never on the machine, so every shard of a count runs the same
  // plan. --depth refines the search's plan, so 'auto' with --depth means the search.
  const checkpointPlan = checkpointFile === undefined ? undefined : Checkpoint.planOf(checkpointFile, n);
  const { algorithm: plannedAlgorithm, kept } = sliceAlgorithm(n, engine, algorithm, depth, checkpointPlan);
  if (!hasDepth(plannedAlgorithm) && depth !== undefined)
    throw new UsageError(
      "--depth refines the search's plan; the join's units are row splits, with no depth: drop --depth or --algorithm join",
    );
  let spec: ShardSpec | undefined;
  try {
    spec = shardText === undefined ? undefined : parseShard(shardText);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (spec && !out) throw new UsageError('--shard writes a JSON result for merge: give --out FILE (or --out - to print it on stdout)');
  // Every output path is checked (and reserved) before any counting starts.
  const inputs = checkpointFile ? [{ file: checkpointFile, role: 'the checkpoint' }] : [];
  const outFile = out && out !== '-' ? reserveOutput('--out', out, 'the shard result', inputs, checkpointFile) : undefined;
  const subtotalsFile = subtotals ? reserveOutput('--subtotals', subtotals, 'the subtotals', inputs, checkpointFile) : undefined;
  try {
    await runSlice({
      n,
      algorithm: plannedAlgorithm,
      keptFromCheckpoint: kept,
      checkpointPlan,
      engine: engine as SliceRun['engine'],
      threads,
      json,
      depth,
      checkpointFile,
      spec,
      out: out === '-' ? 'stdout' : outFile,
      subtotals: subtotalsFile,
    });
  } finally {
    outFile?.discard();
    subtotalsFile?.discard();
  }
}

/** `count <n> --placed r:c,...`: the solutions containing those queens (no unique count: symmetry does not apply). */
async function runCompletionsCount(sizes: number[], range: boolean, values: OptionValues): Promise<void> {
  if (range) throw new UsageError('--placed takes a single n, not a range');
  if ([values.checkpoint, values.shard, values.subtotals, values.depth].some((value) => value !== undefined))
    throw new UsageError('--placed does not go with --checkpoint, --shard, --subtotals or --depth');
  if (parseAlgorithm(values.algorithm) !== 'auto')
    throw new UsageError('--placed counts completions with its own search; drop --algorithm (or give auto)');
  const n = sizes[0];
  const placed = parsePlaced(values.placed, n)!;
  const engine = parseCpuEngine(values.engine, 'count --placed');
  const threads = parseThreads(values.threads);
  const r = await withProgress((bar, signal) =>
    countCompletions(n, placed, {
      engine,
      threads,
      signal,
      onProgress: (p) => bar.update({ ...p, phase: 'counting', unique: 0n, resumedFraction: 0 }),
    }),
  );
  if (values.json) {
    println(JSON.stringify({ ...r, placed, total: r.total.toString(), elapsedMs: roundMs(r.elapsedMs) }));
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
  const { n, engine, threads, json, checkpointFile, spec } = run;
  const parts = spec?.count ?? 1;
  // Resuming the search without --depth: the checkpoint's own depth, so its plan matches.
  const plan = methodForCount(n, run.algorithm, parts * PARTS_PER_SHARD, run.depth ?? resumedDepth(run.checkpointPlan, run.algorithm));
  const { from, to } = spec ? plan.shardRange(spec.index, spec.count) : { from: 0, to: plan.units };
  if (spec) checkShardUnits(plan, spec);
  const shardName = spec ? `${spec.index}/${spec.count}` : '0/1';
  const { unitCounts, countParts, save } = keptOfUnits(plan, spec, from, to);
  const checkpoint = checkpointFile ? await Checkpoint.open(checkpointFile, plan, shardName, from, to, save) : undefined;
  const checkpointName = checkpointFile === undefined ? undefined : shown(checkpointFile); // in messages: by its start
  if (checkpoint && checkpointName) noteAccepted(checkpoint, checkpointName, run);
  const already = checkpoint?.resume();
  const start = performance.now();
  let r;
  try {
    r = await withProgress((bar, signal) =>
      runMethod(plan, {
        from,
        to,
        skip: checkpoint ? (id) => checkpoint.has(id) : undefined,
        engine,
        threads,
        signal,
        already,
        onProgress: bar.update,
        onUnit: (id, c) => {
          save(id, c);
          checkpoint?.record(id, c);
        },
      }),
    );
  } catch (error) {
    if (error instanceof Interrupted) {
      throw new Interrupted(checkpointFile ? `finished units are in ${checkpointName}, run the same command to resume` : WORK_LOST);
    }
    throw error;
  } finally {
    checkpoint?.close();
  }
  const elapsedMs = performance.now() - start;
  // A whole count's parts must be a count's parts (a resumed checkpoint's saved counts among them).
  const problem = countParts?.check(r.total, r.unique8, checkpointName ?? 'this count');
  if (problem) throw failure(problem, checkpointFile ? ERROR_CODES.BAD_CHECKPOINT : ERROR_CODES.INTERNAL);
  const algorithm = run.algorithm;
  const result: CountResult = { n, total: r.total, unique: r.unique, engine: r.engine, algorithm, threads: r.threads, elapsedMs };
  const resumed =
    already && already.finished > 0
      ? `resumed from ${checkpointName}: ${already.finished} of ${to - from} units were already done`
      : undefined;
  if (!spec) {
    if (countParts) run.subtotals?.commit(countParts.subtotals());
    if (json) println(asJson(result));
    else printResult(result, r.countedTotal);
    if (resumed) printErr(resumed);
    return;
  }
  const shard = shardResult(plan, spec, { from, to }, unitCounts?.counts ?? [], {
    engine: r.engine,
    threads: r.threads,
    elapsedMs: roundMs(elapsedMs),
  });
  // An empty shard (more shards than the plan's work splits into) is still written, so merge sees every i of m.
  const label = planLabel(plan.identity);
  await writeShard(
    run,
    shard,
    from < to
      ? `units ${from}..${to - 1} of ${plan.units} (${label}), total ${r.total}`
      : `no units (this shard of the ${plan.units} units of the plan, ${label}, is empty), total 0`,
  );
  if (resumed) printErr(resumed);
}

/** What stderr says of a checkpoint once accepted: the algorithm kept from it, a line a crash cut short. */
function noteAccepted(checkpoint: Checkpoint, name: string, run: SliceRun): void {
  if (run.keptFromCheckpoint)
    printErr(`nqueens: note: ${name} was made with the ${run.algorithm}, so it resumes with the ${run.algorithm}`);
  if (checkpoint.tornLine === 1) printErr(`${name}: its header was torn (cut short by a crash); it is written again`);
  else if (checkpoint.tornLine) printErr(`${name}: line ${checkpoint.tornLine} was torn (cut short by a crash); its unit runs again`);
}

/**
 * What a slice keeps of its finished units (counted, or read back from its
 * checkpoint) through `save`: a shard, a count a unit for its file; a whole
 * count, only what its checks and subtotals read (per constellation).
 */
function keptOfUnits(plan: PlannedMethod, spec: ShardSpec | undefined, from: number, to: number) {
  const unitCounts = spec ? new UnitCounts(from, to) : undefined;
  const countParts = spec ? undefined : plan.countParts();
  const save = (id: number, count: bigint): void => {
    unitCounts?.set(id, count);
    countParts?.add(id, count);
  };
  return { unitCounts, countParts, save };
}

/** A shard's result to its file (saying so, with `summary`, or with --json a summary object) or to stdout. */
async function writeShard(run: SliceRun, shard: ReturnType<typeof shardResult>, summary: string): Promise<void> {
  // Readable fields, then the counts on one line (a shard may hold millions).
  const { counts: unitCounts, ...fields } = shard;
  const text = JSON.stringify(fields, null, 2).replace(/\n}$/, `,\n  "counts": ${JSON.stringify(unitCounts)}\n}\n`);
  if (run.out === 'stdout') {
    // Megabytes at a deep plan: written without holding the thread, so a stop signal ends the command while a
    // reader stalls (`--out - | less`); before, it waited for the reader, and a SIGTERM then was lost (exit 0).
    await writeOutAsync(text);
  } else if (run.out) {
    run.out.commit(text);
    if (!run.json) println(`shard ${shard.shard}/${shard.of} of n = ${run.n}: ${summary}, written to ${visible(run.out.file)}`);
    else {
      const { n, shard: index, of, from, to, total, unique8, plan, engine, threads, elapsedMs } = shard;
      const units = { from, to, of: plan.units };
      println(
        JSON.stringify({
          n,
          shard: `${index}/${of}`,
          units,
          total,
          unique8,
          method: plan.method,
          depth: plan.depth,
          engine,
          threads,
          elapsedMs,
          out: run.out.file,
        }),
      );
    }
  }
}

/** The plan a checkpoint's header names: its algorithm and depth. */
type CheckpointPlan = NonNullable<ReturnType<typeof Checkpoint.planOf>>;

/**
 * The algorithm of a slice: the options' own, except that a checkpoint
 * resumed with the defaults (no --algorithm, no --depth) keeps the one it
 * was made with (a search checkpoint of n = 16 to 24, where the default is
 * the join), as far as this version makes that plan (`kept`: runSlice says
 * so once the checkpoint is accepted). A slice's engine runs either (auto,
 * wasm or js: args checks it).
 */
function sliceAlgorithm(
  n: number,
  engine: EngineChoice,
  algorithm: AlgorithmChoice,
  depth: number | undefined,
  made: CheckpointPlan | undefined,
): { algorithm: AlgorithmName; kept: boolean } {
  const planned = planAlgorithm(n, engine, algorithm, depth);
  if (made === undefined || made.algorithm === planned || algorithm !== 'auto' || depth !== undefined || !makesPlan(made.algorithm, n))
    return { algorithm: planned, kept: false };
  return { algorithm: made.algorithm, kept: true };
}

/** The depth a checkpoint made with `algorithm` was refined to (the search's), to resume its plan. */
function resumedDepth(made: CheckpointPlan | undefined, algorithm: AlgorithmName): number | undefined {
  return made?.algorithm === algorithm && hasDepth(algorithm) ? made.depth : undefined;
}

/** An algorithm's limits (the join's) in the command line's words, before the API would refuse them in its own. */
function checkAlgorithmRequest(sizes: number[], engine: EngineChoice, algorithm: AlgorithmChoice): void {
  const { engines, maxN } = algorithmLimits(algorithm);
  if (engines && !engines.includes(engine))
    throw new UsageError(
      `--algorithm ${algorithm} needs --engine ${engines.slice(0, -1).join(', ')} or ${engines.at(-1)}; --engine ${engine} runs the search only`,
    );
  const over = sizes.find((n) => n > maxN);
  if (over !== undefined)
    throw new UsageError(
      `--algorithm ${algorithm} counts n up to ${maxN} (its tables would not fit); for n = ${over} use --algorithm search`,
    );
}

/**
 * A note on stderr when another option turns the default algorithm into
 * another one: --depth (it refines the search's plan) or an engine that
 * runs only the search, where the join would have run.
 */
function noteAlgorithmChange(sizes: number[], engine: EngineChoice, algorithm: AlgorithmChoice, depth: number | undefined): void {
  if (algorithm !== 'auto') return;
  const changed = sizes.filter((n) => planAlgorithm(n, engine, 'auto', depth) !== resolveAlgorithm(n, 'auto', 'auto'));
  if (changed.length === 0) return;
  const where = changed.length === 1 ? `n = ${changed[0]}` : `n = ${changed[0]} to ${changed.at(-1)}`;
  const join = `the join by default from n = ${JOIN_AUTO_MIN_N} to ${JOIN_AUTO_MAX_N}`;
  if (engine === 'reference' || engine === 'webgpu')
    printErr(`nqueens: note: --engine ${engine} runs the search only, so ${where} counts with the search (${join})`);
  else if (depth !== undefined)
    printErr(
      `nqueens: note: --depth refines the search's plan, so ${where} counts with the search (${join}; --algorithm join has no depth)`,
    );
}
