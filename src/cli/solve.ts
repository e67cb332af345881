// `nqueens solve`: solutions in lexicographic order, as boards or JSON.
import { solutions, toBoard } from '../index.js';
import { describe } from '../validate.js';
import { parseAfter, parseEngine, parseLimit, parsePlaced, parseSize, UsageError, type OptionValues } from './args.js';

export function runSolve(positionals: string[], values: OptionValues): void {
  if (positionals[0] === undefined) throw new UsageError('solve needs a board size, e.g. `nqueens solve 8`');
  if (positionals.length > 1) throw new UsageError(`solve takes one size; unexpected ${describe(positionals[1])}`);
  const n = parseSize(positionals[0], 'n');
  const engine = parseEngine(values.engine);
  const limit = parseLimit(values.limit);
  const format = values.format ?? 'board';
  if (format !== 'board' && format !== 'json') throw new UsageError(`--format must be board or json; got ${describe(format)}`);
  let index = 0;
  for (const placement of solutions(n, { limit, engine, ...narrowing(values) })) {
    if (format === 'json') console.log(JSON.stringify(placement));
    else {
      if (index > 0) console.log('');
      console.log(`# solution ${index + 1}: ${JSON.stringify(placement)}`);
      for (const row of toBoard(placement)) console.log(row);
    }
    index++;
  }
  if (index === 0 && format === 'board') console.log(`# no solutions for n = ${n}${values.placed || values.after ? ' with these options' : ''}`);
}

/** --placed, --unique and --after, as solutions() options (it checks them and refuses --unique with --placed). */
function narrowing(values: OptionValues): { placed?: [number, number][]; unique?: boolean; after?: number[] } {
  const out: { placed?: [number, number][]; unique?: boolean; after?: number[] } = {};
  if (values.placed !== undefined) out.placed = parsePlaced(values.placed);
  if (values.unique) out.unique = true;
  if (values.after !== undefined) out.after = parseAfter(values.after);
  return out;
}
