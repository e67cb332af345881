// Builds every wasm module of scripts/wasm-modules.mjs with asc, each with
// the shared options of asconfig.json and its own target, then inlines the
// shipped ones (scripts/embed-wasm.mjs). asc's stdout and stderr pass
// through, less binaryen's noise (scripts/quiet-asc.mjs).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { withoutNoise } from './quiet-asc.mjs';
import { WASM_MODULES } from './wasm-modules.mjs';

const asc = createRequire(import.meta.url).resolve('assemblyscript/bin/asc.js');
const root = new URL('..', import.meta.url);
for (const m of WASM_MODULES) {
  const out = `build/${m.file}`;
  const args = [
    asc,
    m.entry,
    '--config',
    'asconfig.json',
    '--target',
    m.target,
    '--outFile',
    out,
    '--textFile',
    out.replace(/\.wasm$/, '.wat'),
  ];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  process.stdout.write(withoutNoise(r.stdout ?? ''));
  process.stderr.write(withoutNoise(r.stderr ?? ''));
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(`asc failed on ${m.entry} (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
await import('./embed-wasm.mjs');
