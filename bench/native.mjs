// Builds and runs the native C anchor (bench/native/mirror-halved.c) when a
// C compiler is present; the benchmark skips it otherwise.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('./native/mirror-halved.c', import.meta.url));
const binary = fileURLToPath(new URL('../build/mirror-halved', import.meta.url));

/** Compiles the anchor; returns a description of the compiler, or undefined if none works. */
export function buildNative() {
  for (const cc of ['cc', 'gcc', 'clang']) {
    mkdirSync(fileURLToPath(new URL('../build', import.meta.url)), { recursive: true });
    const r = spawnSync(cc, ['-O3', '-march=native', '-o', binary, source], { encoding: 'utf8' });
    if (r.status === 0) {
      const version = execFileSync(cc, ['--version'], { encoding: 'utf8' }).split('\n')[0];
      return `${version} -O3 -march=native`;
    }
  }
  return undefined;
}

/** Runs the anchor once: { total: bigint, ms } with the count timed inside the process. */
export function runNative(n) {
  const out = execFileSync(binary, [String(n)], { encoding: 'utf8' })
    .trim()
    .split(' ');
  return { total: BigInt(out[0]), ms: Number(out[1]) };
}
