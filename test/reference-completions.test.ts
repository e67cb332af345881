// countCompletions() with engine 'reference' counts on the calling thread,
// as count() with 'reference' does: in slices that let the event loop run,
// so its signal can stop it and the process stays responsive. It once ran
// the whole backtracking in one synchronous call: an abort was never seen
// (the count resolved with its total) and no timer or message ran meanwhile.
import { describe, expect, it } from 'vitest';
import { countCompletions, countCompletionsSync, type CompletionsProgress, type Queen } from '../dist/index.js';

// Well over one 20 ms slice of the reference backtracking (about 0.3 s here), exact on every engine.
const N = 15;
const PLACED: Queen[] = [
  [3, 4],
  [9, 2],
];
const TOTAL = 14057n;

describe("countCompletions with engine 'reference'", () => {
  it('agrees with the fast engines (the sync reference too)', () => {
    expect(countCompletionsSync(N, PLACED, { engine: 'wasm' }).total).toBe(TOTAL);
    expect(countCompletionsSync(N, PLACED, { engine: 'js' }).total).toBe(TOTAL);
    expect(countCompletionsSync(N, PLACED, { engine: 'reference' }).total).toBe(TOTAL);
  });

  it('an abort from the event loop during the count rejects with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const running = countCompletions(N, PLACED, { engine: 'reference', signal: controller.signal });
    // Runs at the event loop's first turn after the call: only while the count lets it run.
    setImmediate(() => controller.abort(reason));
    await expect(running).rejects.toBe(reason);
  });

  it('lets the event loop run while it counts, and reports up to exactly 1 with the total', async () => {
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const reports: CompletionsProgress[] = [];
    const r = await countCompletions(N, PLACED, { engine: 'reference', onProgress: (p) => reports.push(p) });
    counting = false;
    expect(r).toMatchObject({ n: N, total: TOTAL, engine: 'reference', threads: 1 });
    expect(turns).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ finished: 0, units: 1, fraction: 0, total: 0n });
    expect(reports.at(-1)).toMatchObject({ finished: 1, units: 1, fraction: 1, total: TOTAL });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i].fraction).toBeGreaterThanOrEqual(reports[i - 1].fraction);
      expect(reports[i].total).toBeGreaterThanOrEqual(reports[i - 1].total);
    }
    expect(reports.slice(0, -1).every((p) => p.fraction < 1)).toBe(true);
  });
});
