// A plain webpack 5 production build: no loaders, plugins or polyfills. The
// package's worker comes along because webpack bundles
// new Worker(new URL('./worker.js', import.meta.url)) as its own chunk.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './src/main.js',
  output: {
    path: fileURLToPath(new URL('./dist', import.meta.url)),
    filename: 'main.js',
    clean: true,
  },
};
