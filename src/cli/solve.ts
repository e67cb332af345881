// `nqueens solve`: solutions in lexicographic order, as boards or JSON.
import { solutions, toBoard, type SolutionsOptions } from '../index.js';
import { describe } from '../shared/validate.js';
import { parseAfter, parseCpuEngine, parseLimit, parsePlaced, parseSize, UsageError, type OptionValues } from './args.js';
import { writeOut } from './files.js';

export function runSolve(positionals: string[], values: OptionValues): void {
  if (positionals[0] === undefined) throw new UsageError('solve needs a board size, e.g. `nqueens solve 8`');
  if (positionals.length > 1) throw new UsageError(`solve takes one size; unexpected ${describe(positionals[1])}`);
  const n = parseSize(positionals[0], 'n');
  const engine = parseCpuEngine(values.engine, 'solve');
  const limit = parseLimit(values.limit);
  const format = values.format ?? 'board';
  if (format !== 'board' && format !== 'json') throw new UsageError(`--format must be board or json; got ${describe(format)}`);
  // Written in blocks of about 64 KB; a closed stdout (`| head`) ends the loop at once.
  let index = 0;
  let block = '';
  for (const placement of solutions(n, { limit: limit === Infinity ? undefined : limit, engine, ...narrowing(values) })) {
    if (format === 'json') block += JSON.stringify(placement) + '\n';
    else {
      if (index > 0) block += '\n';
      block += `# solution ${index + 1}: ${JSON.stringify(placement)}\n` + toBoard(placement).join('\n') + '\n';
    }
    index++;
    if (block.length >= 65536) {
      writeOut(block);
      block = '';
    }
  }
  if (index === 0 && format === 'board' && limit > 0)
    block += `# no solutions for n = ${n}${values.placed || values.after || values.unique ? ' with these options' : ''}\n`;
  writeOut(block);
}

/**
 * --placed, --unique and --after, as solutions() options. Typed as the API's
 * options: solutions() itself refuses --unique with --placed at run time
 * (ERR_NQUEENS_INCOMPATIBLE_OPTIONS), so the command line gets its message.
 */
function narrowing(values: OptionValues): SolutionsOptions {
  const out: { placed?: [number, number][]; unique?: boolean; after?: number[] } = {};
  if (values.placed !== undefined) out.placed = parsePlaced(values.placed);
  if (values.unique) out.unique = true;
  if (values.after !== undefined) out.after = parseAfter(values.after);
  return out as SolutionsOptions;
}
