import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:unit`: the fast loop while changing src/, the library's own
// tests by name. A new test file joins it only when added here; `npm test`
// runs every file, including the end-to-end ones left out of this list
// (browsers, other runtimes, the packed tarball and bundlers, the command in
// child processes, fault injection) and the join's long exact counts and
// shared-table stress (join.test.ts, join-share.test.ts).
// (Spread, not mergeConfig: that would add this list to the base's test/**.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/abort-reason.test.ts',
      'test/algorithm.test.ts',
      'test/architecture.test.ts',
      'test/bench-history.test.ts',
      'test/beyond.test.ts',
      'test/board.test.ts',
      'test/chart.test.ts',
      'test/cli-words.test.ts',
      'test/constellations.test.ts',
      'test/count.test.ts',
      'test/docs-examples.test.ts',
      'test/docs-references.test.ts',
      'test/error-codes.test.ts',
      'test/errors.test.ts',
      'test/every-path.test.ts',
      'test/fallback.test.ts',
      'test/join-memory.test.ts',
      'test/join-progress.test.ts',
      'test/join-slices.test.ts',
      'test/join-units.test.ts',
      'test/kernels.test.ts',
      'test/plan-labels.test.ts',
      'test/plan-units.test.ts',
      'test/progress-final.test.ts',
      'test/quiet-build.test.ts',
      'test/solutions.test.ts',
      'test/terminal-writes.test.ts',
      'test/threads.test.ts',
      'test/trust.test.ts',
      'test/version.test.ts',
      'test/wasm-modules.test.ts',
      'test/webgpu.test.ts',
    ],
  },
});
