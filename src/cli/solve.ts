// `nqueens solve`: solutions in lexicographic order, as boards or JSON.
import { solutions, toBoard, type SolutionsOptions } from '../index.js';
import { parseAfter, parseCpuEngine, parseFormat, parseLimit, parsePlaced, parseSize, UsageError, type OptionValues } from './args.js';
import { writeOutAsync } from './files.js';
import { quote } from './shorten.js';
import { letSignalsIn } from './interrupt.js';

export async function runSolve(positionals: string[], values: OptionValues): Promise<void> {
  if (positionals[0] === undefined) throw new UsageError('solve needs a board size, e.g. `nqueens solve 8`');
  if (positionals.length > 1) throw new UsageError(`solve takes one size; unexpected ${quote(positionals[1])}`);
  // `solve 1..3`: a range is count's (a table); said so, not "n must be an integer".
  if (/^\d{1,3}\.\.\d{1,3}$/.test(positionals[0]))
    throw new UsageError(
      `solve takes one size, not a range (${quote(positionals[0])}); list each, or count the range: nqueens count ${positionals[0]}`,
    );
  const n = parseSize(positionals[0], 'n');
  const engine = parseCpuEngine(values.engine, 'solve');
  const limit = parseLimit(values.limit);
  const format = parseFormat(values.format);
  if (values.unique && values.placed !== undefined)
    throw new UsageError(
      '--unique does not go with --placed: the smallest solution of a class need not hold the placed queens; drop --unique for every solution holding them',
    );
  // json is JSON Lines: one placement per line. Written in blocks of about 64 KB, each awaited, so Ctrl-C is taken while a
  // reader stalls (`| less`); a closed stdout (`| head`) ends the loop at once.
  // Every 1,024 solutions, at most every 50 ms, the event loop runs, so Ctrl-C stops a long listing.
  // After --after, the k-th solution listed is the k-th after the one given, not the k-th of all: numbered as such.
  const label = values.after === undefined ? 'solution' : 'next';
  let index = 0;
  let block = '';
  let turn = performance.now();
  for (const placement of solutions(n, { limit, engine, ...narrowing(n, values) })) {
    if (format === 'json') block += JSON.stringify(placement) + '\n';
    else {
      if (index > 0) block += '\n';
      block += `# ${label} ${index + 1}: ${JSON.stringify(placement)}\n` + toBoard(placement).join('\n') + '\n';
    }
    index++;
    if (block.length >= 65536) {
      await writeOutAsync(block);
      block = '';
    }
    if ((index & 1023) === 0 && performance.now() - turn >= 50) {
      await letSignalsIn();
      turn = performance.now();
    }
  }
  // "with these options" only where they are why: n = 2 and 3 have no solution at all (OEIS A000170), whatever is asked.
  const narrowed = (values.placed || values.after || values.unique) && n !== 2 && n !== 3;
  if (index === 0 && format === 'board' && limit > 0) block += `# no solutions for n = ${n}${narrowed ? ' with these options' : ''}\n`;
  // Nothing left to write writes nothing: a write of no bytes fails on some devices (/dev/full: ENOSPC) with nothing lost.
  if (block.length > 0) await writeOutAsync(block);
}

/** --placed, --unique and --after, as solutions() options (--unique with --placed is refused above). */
function narrowing(n: number, values: OptionValues): SolutionsOptions {
  const out: { placed?: [number, number][]; unique?: boolean; after?: number[] } = {};
  if (values.placed !== undefined) out.placed = parsePlaced(values.placed, n);
  if (values.unique) out.unique = true;
  if (values.after !== undefined) out.after = parseAfter(values.after, n);
  return out as SolutionsOptions;
}
