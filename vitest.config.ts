import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long checks (n >= 17) run with `npm run test:long`.
    exclude: ['test/long/**', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
