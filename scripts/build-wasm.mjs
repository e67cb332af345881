// Builds every wasm module of scripts/wasm-modules.mjs with asc, each with
// the shared options of asconfig.json and its own target, then inlines the
// shipped ones (scripts/embed-wasm.mjs).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { WASM_MODULES } from './wasm-modules.mjs';

const asc = createRequire(import.meta.url).resolve('assemblyscript/bin/asc.js');
const root = new URL('..', import.meta.url);
for (const m of WASM_MODULES) {
  const out = `build/${m.file}`;
  execFileSync(
    process.execPath,
    [asc, m.entry, '--config', 'asconfig.json', '--target', m.target, '--outFile', out, '--textFile', out.replace(/\.wasm$/, '.wat')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
await import('./embed-wasm.mjs');
