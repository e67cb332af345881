// Many concurrent counts with random aborts, seeded so a failure repeats:
// each must end exact (OEIS) or with an AbortError after its abort, never
// wrong, failed or hung. test/faults runs a short soak, test/long a long one.
import { count } from 'nqueens-wasm';
import { TOTAL, UNIQUE } from './oeis.js';

/** A small seeded generator (mulberry32): the same cases every run. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `runs` counts at once, n = 8..maxN, 1-3 threads, both algorithms, half aborted; the outcomes that were neither exact nor aborted. */
export async function soak(runs: number, maxN: number, seed: number): Promise<[number, string][]> {
  const next = random(seed);
  const outcomes = await Promise.all(
    Array.from({ length: runs }, async (): Promise<[number, string]> => {
      const n = 8 + Math.floor(next() * (maxN - 7));
      const threads = 1 + Math.floor(next() * 3);
      const algorithm = next() < 0.5 ? 'join' : 'search';
      const controller = new AbortController();
      if (next() < 0.5) setTimeout(() => controller.abort(), Math.floor(next() * 30));
      try {
        const r = await count(n, { threads, algorithm, signal: controller.signal });
        return [n, r.total === TOTAL[n] && r.unique === UNIQUE[n] ? 'exact' : `wrong ${r.total}/${r.unique}`];
      } catch (error) {
        return [n, (error as Error).name === 'AbortError' && controller.signal.aborted ? 'aborted' : `failed: ${String(error)}`];
      }
    }),
  );
  return outcomes.filter(([, outcome]) => outcome !== 'exact' && outcome !== 'aborted');
}
