// How results look on stdout: the key-value block, table rows and JSON.
import type { CountResult } from '../index.js';
import { formatMs, formatRate as formatSolutionsRate } from '../shared/rate.js';
import { println } from './files.js';

export { formatMs };

/** Solutions per second; `counted` the solutions this run found itself (not resumed ones). */
export function formatRate(r: CountResult, counted: bigint = r.total): string {
  return formatSolutionsRate(counted, r.elapsedMs);
}

/** A time for JSON: to the microsecond, without the float noise of a difference of clocks. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** One result as JSON, counts as strings (JSON has no bigint). */
export function asJson(r: CountResult): string {
  return JSON.stringify({ ...r, total: r.total.toString(), unique: r.unique.toString(), elapsedMs: roundMs(r.elapsedMs) });
}

/** Aligned `key value` lines. */
export function printPairs(pairs: readonly (readonly [string, string])[]): void {
  const width = Math.max(...pairs.map(([key]) => key.length));
  for (const [key, value] of pairs) println(`${key.padEnd(width)}  ${value}`);
}

export function printResult(r: CountResult, counted: bigint = r.total): void {
  printPairs([
    ['N', String(r.n)],
    ['total', r.total.toString()],
    ['unique', r.unique.toString()],
    ['engine', r.engine],
    ['algorithm', r.algorithm],
    ['threads', String(r.threads)],
    ['time', formatMs(r.elapsedMs)],
    ['rate', formatRate(r, counted) + (counted === r.total ? '' : ' (this run)')],
  ]);
}

/** The table of `count <from>..<to>`: the columns of a single count's block, one row per n. */
export function tableHeader(): string {
  return `${'N'.padStart(3)} ${'total'.padStart(22)} ${'unique'.padStart(20)}  ${'engine'.padEnd(9)} ${'algorithm'.padEnd(9)} ${'threads'.padStart(7)} ${'time'.padStart(10)}  rate`;
}

export function tableRow(r: CountResult): string {
  return `${String(r.n).padStart(3)} ${r.total.toString().padStart(22)} ${r.unique.toString().padStart(20)}  ${r.engine.padEnd(9)} ${r.algorithm.padEnd(9)} ${String(r.threads).padStart(7)} ${formatMs(r.elapsedMs).padStart(10)}  ${formatRate(r)}`;
}
