import { defineConfig } from 'vite';

export default defineConfig({
  // Pre-bundling would move dist/index.js into .vite/deps and break its
  // new URL('./worker.js', import.meta.url) (vite issue #8427).
  optimizeDeps: { exclude: ['nqueens-wasm'] },
});
