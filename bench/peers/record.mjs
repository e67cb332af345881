// The record of one interleaved bench:peers run (not --whole, not --project): one JSON line appended to
// bench/results/peers.jsonl, so that a ratio quoted from the rounds can be traced to the run that gave it.
// Fields: bench/peers/README.md ("What a run records").
import { appendFileSync } from 'node:fs';

/** Where interleaved runs are recorded: the file is only appended to. */
export const PEERS_FILE = new URL('../results/peers.jsonl', import.meta.url);

/**
 * @typedef {{
 *   kind: 'interleaved', date: string, machine: { date: string } & Record<string, unknown>, cpuPinned: string,
 *   commit: string, rounds: number, loadAverage?: number[], counts: PeersCount[],
 * }} PeersRecord
 * @typedef {{
 *   n: number, total: string, medianSeconds: Record<string, number>,
 *   medianOfRoundRatios: Record<string, Record<string, number>>, seconds: Record<string, number[]>,
 * }} PeersCount
 */

/**
 * The median as the script prints it: the middle value, the upper of the two for an even count.
 * @param {number[]} xs
 */
export function median(xs) {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1];
}

/**
 * The median of per-round ratios ours / theirs (rounds where both ran), or undefined when they share none.
 * @param {number[]} ours
 * @param {number[]} theirs
 */
export function medianRatio(ours, theirs) {
  const ratios = [];
  for (let i = 0; i < Math.min(ours.length, theirs.length); i++) ratios.push(ours[i] / theirs[i]);
  return ratios.length ? median(ratios) : undefined;
}

/**
 * One run's record.
 *
 * @param {{
 *   machine: { date: string } & Record<string, unknown>, cpuPinned: string, commit: string, rounds: number, sizes: number[],
 *   contestants: { name: string, ours?: boolean }[], seconds: Map<string, number[]>, totals: Map<number, bigint>,
 *   loadAverage?: number[],
 * }} run `seconds` maps `${name}/${n}` to the seconds of each round, in round order.
 * @returns {PeersRecord}
 */
export function interleavedRecord({ machine, cpuPinned, commit, rounds, sizes, contestants, seconds, totals, loadAverage }) {
  const peers = contestants.filter((c) => !c.ours);
  return {
    kind: 'interleaved',
    date: machine.date,
    machine,
    cpuPinned,
    commit,
    rounds,
    ...(loadAverage ? { loadAverage } : {}),
    counts: sizes
      .filter((n) => totals.has(n))
      .map((n) => {
        /** @type {Record<string, number[]>} */
        const perRound = {};
        /** @type {Record<string, number>} */
        const medianSeconds = {};
        for (const c of contestants) {
          const s = seconds.get(`${c.name}/${n}`);
          if (!s) continue;
          perRound[c.name] = s;
          medianSeconds[c.name] = median(s);
        }
        /** @type {Record<string, Record<string, number>>} */
        const ratios = {};
        for (const c of contestants) {
          if (!c.ours || !perRound[c.name]) continue;
          for (const p of peers) {
            if (!perRound[p.name]) continue;
            (ratios[c.name] ??= {})[p.name] = medianRatio(perRound[c.name], perRound[p.name]);
          }
        }
        return { n, total: String(totals.get(n)), medianSeconds, medianOfRoundRatios: ratios, seconds: perRound };
      }),
  };
}

/**
 * Appends a run's record as one line.
 * @param {PeersRecord} record
 * @param {URL | string} [file]
 */
export function recordInterleavedRun(record, file = PEERS_FILE) {
  appendFileSync(file, JSON.stringify(record) + '\n');
}
