// Vitest runs the test files that took longest last time first (the best
// order for the whole run's time), so a second `npm test` printed nothing
// until its slowest file ended, 19 s in. This order starts the quickest file
// known from last time first, then the rest longest first: a result shows
// within seconds and the run's length barely changes.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const durations = sorted.map((spec) => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      return this.ctx.cache.getFileTestResults(key)?.duration;
    });
    return quickestFirst(sorted, durations);
  }
}

/** `items` with the one of least known duration (above 0: a skipped file says nothing) moved to the front. */
export function quickestFirst<T>(items: T[], durations: (number | undefined)[]): T[] {
  let best = -1;
  durations.forEach((ms, i) => {
    if (ms !== undefined && ms > 0 && (best < 0 || ms < (durations[best] as number))) best = i;
  });
  if (best <= 0) return items;
  return [items[best] as T, ...items.slice(0, best), ...items.slice(best + 1)];
}
