import { mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:unit`: the fast loop while changing src/: the library's own
// tests, without the end-to-end ones (browsers, other runtimes, the packed
// tarball and bundlers, the command in child processes, fault injection),
// and the join's long exact counts and shared-table stress (join.test.ts,
// join-share.test.ts: half a minute each on 2 cores), which `npm test` runs.
export default mergeConfig(base, {
  test: {
    exclude: [
      'test/browser/**',
      'test/runtimes/**',
      'test/faults/**',
      'test/package.test.ts',
      'test/types.test.ts',
      'test/bundle-size.test.ts',
      'test/cli.test.ts',
      'test/beyond-cli.test.ts',
      'test/shards-and-checkpoints.test.ts',
      'test/join.test.ts',
      'test/join-share.test.ts',
    ],
  },
});
