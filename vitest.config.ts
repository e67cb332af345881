import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { QuickFirstSequencer } from './test/quick-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long checks (n >= 17) run with `npm run test:long`.
    exclude: ['test/long/**', '**/node_modules/**'],
    // A file mostly waits on the processes and workers it starts, so one file per core (vitest's
    // default leaves one core idle: a single file at a time on 2 cores).
    maxWorkers: availableParallelism(),
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // The quickest file first, then the longest: a second run shows a result within seconds.
    sequence: { sequencer: QuickFirstSequencer },
  },
});
