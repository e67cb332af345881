// `nqueens merge`: adds shard results up into the whole count.
import { readFileSync } from 'node:fs';
import { UsageError, type OptionValues } from './args.js';
import { formatMs, printPairs } from './output.js';
import { mergeShards } from './shards.js';

export function runMerge(files: string[], values: OptionValues): void {
  if (files.length === 0) throw new UsageError('merge needs the shard files, e.g. `nqueens merge shard-*.json`');
  const inputs = files.map((name) => {
    try {
      return { name, text: readFileSync(name, 'utf8') };
    } catch (error) {
      throw new Error(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  });
  const m = mergeShards(inputs);
  if (values.json === true) {
    console.log(JSON.stringify({ n: m.n, total: m.total.toString(), unique: m.unique.toString(), shards: m.of, elapsedMs: m.elapsedMs }));
    return;
  }
  printPairs([
    ['N', String(m.n)],
    ['total', m.total.toString()],
    ['unique', m.unique.toString()],
    ['shards', String(m.of)],
    ['time', `${formatMs(m.elapsedMs)} (sum over shards)`],
  ]);
}
