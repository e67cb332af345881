import { defineConfig } from 'vitest/config';

// `npm run test:long`: the checks past n = 16, too slow for `npm test`.
export default defineConfig({
  test: {
    include: ['test/long/**/*.test.ts'],
    testTimeout: 1_800_000,
  },
});
