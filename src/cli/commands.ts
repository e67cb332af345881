// The nqueens command line, loaded by main.ts: parses the command and hands
// it to its file (count.ts, solve.ts, merge.ts). Errors are one line on
// stderr; exit status 0 done, 1 failed, 2 usage error, 130 / 143 / 129
// interrupted (SIGINT, SIGTERM, SIGHUP).
import { AUTO_THREADS_MIN_N, MAX_N, MAX_THREADS, MIN_N } from '../index.js';
import { VERSION } from '../shared/version.js';
import { checkCommandOptions, inFlags, parseCommandLine, UsageError, type Command } from './args.js';
import { quote, shown } from './shorten.js';
import { runCount } from './count.js';
import { describeError, OutputClosed, printErr, println, stdoutWritten, writeOut } from './files.js';
import { ERROR_CODES } from '../shared/errors.js';
import { exitWith, installInterrupts, Interrupted } from './interrupt.js';
import { runMerge } from './merge.js';
import { openFilesHint } from './open-files.js';
import { runSolve } from './solve.js';
import { didYouMean, oneOf } from './suggest.js';

const HELP = `nqueens: count and list N-Queens solutions (WebAssembly kernel, TypeScript fallback)

Usage:
  nqueens count <n> [options]        count the solutions for one board size
  nqueens count <from>..<to>         a table for a range of sizes, e.g. 1..16
  nqueens solve <n> [options]        print solutions in lexicographic order
  nqueens merge <files...>           add up shard results into the whole count
  nqueens version                    print the version (also --version)
  nqueens help [<command>]           this page (also --help, <command> --help)

Options:
  --engine <name>      auto (default), wasm, js, reference (plain backtracking,
                       a cross-check) or webgpu (count only: the search on the GPU);
                       merge --verify: the engine that recounts (auto, wasm, js)
  --algorithm <a>      count: auto (default: join for n = 16..24, else search),
                       join (half-board join, n <= 24) or search (the
                       row-by-row symmetry search)
  --threads <k>        worker threads, 1 to ${MAX_THREADS} (default: every core from n = ${AUTO_THREADS_MIN_N})
  --json               count, merge: print JSON (counts as strings)
  --checkpoint <file>  count: record finished units in <file>; rerun the
                       same command to resume after Ctrl-C or a crash
  --shard <i>/<m>      count: run only slice i of m (0-based: 0/8 ... 7/8)
  --out <file>         count --shard: write the shard's JSON result to <file>
                       (--out - writes it to stdout)
  --depth <d>          count: refine the search's plan by d placed rows (0 to 4;
                       default: enough for the shard count; not for the join)
  --subtotals <file>   count (whole), merge: write per-constellation subtotals
                       (per row split for the join)
  --verify <k>         merge: recount k random units and compare
  --seed <s>           merge --verify: repeat the choice of units of a run
  --limit <k|all>      solve: stop after k solutions (default 1; all: every one)
  --format <f>         solve: board (default) or json: JSON Lines, one
                       placement per line as an array of columns
  --placed <r:c,...>   count, solve: only the solutions containing these queens
                       (row:col, 0-based), e.g. --placed 0:3,5:7
  --unique             solve: only the fundamental solutions (the smallest of
                       each class under rotations and reflections)
  --after <c,c,...>    solve: only the solutions after this placement (one
                       column per row, 0-based), to page through them
  -h, --help           show this help
  -v, --version        show the version

n is an integer from ${MIN_N} to ${MAX_N}. Counts are exact: total (OEIS A000170)
and unique, one per class under rotations and reflections (OEIS A002562).

A progress bar is drawn on stderr when it is a terminal. Ctrl-C, SIGTERM
and SIGHUP stop a count cleanly (with --checkpoint its finished units are
kept; a second signal stops at once, with the first one's exit status).

Exit status (count, solve, merge): 0 done, 1 failed (refused input included),
2 usage error, 130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP). A reader
that stops early (| head) ends it with 0, as does a stdout that is /dev/null
(>&- included: the result is discarded). A failure's message ends with its
error code, e.g. [ERR_NQUEENS_BAD_SHARD].

Examples:
  nqueens count 16
  nqueens count 1..14 --engine js
  nqueens count 18 --checkpoint n18.ckpt
  nqueens count 20 --shard 3/8 --out shard-3.json   (then: nqueens merge shard-*.json --verify 20)
  nqueens solve 8 --limit 3
  nqueens count 20 --placed 0:3,5:7
  nqueens solve 10 --unique --limit 5 --format json
  nqueens solve 8 --after 0,6,3,5,7,1,4,2 --limit 2
`;

/**
 * Errors in what the command line asks (exit status 2): ours, coded so.
 * Any other failure, V8's own RangeErrors and ERR_NQUEENS_OUT_OF_MEMORY
 * included, is status 1 with its code printed.
 */
const USAGE_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.USAGE,
  ERROR_CODES.INVALID_TYPE,
  ERROR_CODES.UNKNOWN_OPTION,
  ERROR_CODES.OUT_OF_RANGE,
  ERROR_CODES.INCOMPATIBLE_OPTIONS,
  ERROR_CODES.ATTACKING_QUEENS,
  ERROR_CODES.TABLES_TOO_LARGE,
]);

const COMMANDS: Record<Command, (positionals: string[], values: Parameters<typeof runMerge>[1]) => void | Promise<void>> = {
  count: runCount,
  solve: runSolve,
  merge: runMerge,
};

/** `version`, `help` and a bare `nqueens` take no options (those of a command would be ignored). */
function checkNoOptions(command: string, values: Record<string, unknown>): void {
  const [first] = Object.keys(values);
  if (first === undefined) return;
  throw new UsageError(
    command === 'nqueens'
      ? `--${first} needs a command, e.g. \`nqueens count 12 --${first} ...\``
      : `--${first} does not apply to ${command}; it takes no options`,
  );
}

/** `help` takes nothing or one command, whose usage is the one page. */
function checkHelpTopic(rest: string[]): void {
  const [topic, extra] = rest;
  const commands = [...Object.keys(COMMANDS), 'version'];
  // `help help` is the same page, as `help version` is (not offered in the message: it teaches nothing).
  if (topic !== undefined && topic !== 'help' && !commands.includes(topic))
    throw new UsageError(`help takes a command name, ${oneOf(commands)}; got ${quote(topic)}${didYouMean(topic, commands)}`);
  if (extra !== undefined) throw new UsageError(`help takes one command name; unexpected ${quote(extra)}`);
}

/** The command line's work: its output written (to a terminal, maybe not yet all out: see main). */
async function runCommandLine(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv);
  const [command, ...rest] = positionals;
  if (values.help) {
    writeOut(HELP);
    return;
  }
  if (values.version) {
    println(VERSION);
    return;
  }
  if (command === undefined || command === 'help' || command === 'version') checkNoOptions(command ?? 'nqueens', values);
  if (command === 'help') checkHelpTopic(rest);
  if (command === undefined || command === 'help') {
    // No arguments at all, `nqueens help` or `nqueens help count`: the usage (one page for every command).
    writeOut(HELP);
    return;
  }
  if (command === 'version') {
    if (rest.length > 0) throw new UsageError(`version takes no arguments; unexpected ${quote(rest[0])}`);
    println(VERSION);
    return;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    const known = [...Object.keys(COMMANDS), 'version', 'help'];
    throw new UsageError(`unknown command ${quote(command)}, expected ${oneOf(known.slice(0, -1))}${didYouMean(command, known)}`);
  }
  checkCommandOptions(command as Command, values);
  await COMMANDS[command as Command](rest, values);
}

async function main(argv: string[]): Promise<number> {
  installInterrupts();
  try {
    await runCommandLine(argv);
    // A terminal holding output (Ctrl-S) takes the rest later: done once it has, a stop signal still handled meanwhile.
    await stdoutWritten();
    return 0;
  } catch (error) {
    // The reader of stdout has gone (`| head`): nothing failed, stop quietly.
    if (error instanceof OutputClosed) return 0;
    if (error instanceof Interrupted) {
      printErr(`nqueens: ${error.message}`);
      // What the count keeps is written by now (its checkpoint flushed, unfinished files removed): exit at once, not
      // once the event loop is idle, which waited for the GPU's queued dispatches (15 s on lavapipe at n = 17).
      process.exit(error.status);
    }
    const code = (error as { code?: unknown })?.code;
    const usage = typeof code === 'string' && USAGE_CODES.has(code);
    const causeCode = ((error as { cause?: { code?: unknown } })?.cause as { code?: unknown } | undefined)?.code;
    const label =
      (typeof code === 'string' ? code : ((error as Error)?.name ?? 'Error')) +
      (typeof causeCode === 'string' && causeCode !== code ? `, cause ${causeCode}` : ''); // a worker's cause, not a repeat
    const denied = error as { permission?: unknown; resource?: unknown } | undefined;
    // Node's permission model names what it refused in fields of its own, not in the message.
    const refused =
      code === 'ERR_ACCESS_DENIED' && typeof denied?.resource === 'string'
        ? ` (${String(denied.permission)}: ${shown(denied.resource)})`
        : '';
    // Out of file descriptors (`ulimit -n`), a worker's included: what to do about it.
    const advice =
      code === ERROR_CODES.WORKER_FAILED ? 'raise it, or give fewer --threads (each worker opens files of its own)' : 'raise it';
    // A system error that no step put in its words: its own message would hold its path whole (describeError cuts it).
    const own =
      typeof (error as NodeJS.ErrnoException)?.syscall === 'string' ? describeError(error) : ((error as Error)?.message ?? String(error));
    const message = own + refused + openFilesHint(error, advice);
    // In the command line's words either way (`--engine wasm is unavailable here`, not `engine 'wasm'`).
    printErr(`nqueens: ${inFlags(message)} ${usage ? '(see nqueens --help)' : `[${label}]`}`);
    return usage ? 2 : 1;
  }
}

/** Runs the command line `argv`, then ends the process with its exit status. */
export async function run(argv: string[]): Promise<void> {
  exitWith(await main(argv));
}
