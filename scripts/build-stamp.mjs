// The build in two steps, each current when a hash of what it reads matches
// the stamp it wrote last time (build/<step>.stamp) and its output exists.
// Content, not times: a checkout or rebase that touches files without
// changing them rebuilds nothing, and an edit always rebuilds its step.
// `node scripts/build-stamp.mjs write STEP` records a step just built.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Each step: what it reads, the file it writes last, and the npm script that runs it. */
export const STEPS = {
  wasm: {
    inputs: [
      'assembly',
      'asconfig.json',
      'scripts/build-wasm.mjs',
      'scripts/wasm-modules.mjs',
      'scripts/embed-wasm.mjs',
      'node_modules/assemblyscript/package.json',
    ],
    output: 'src/engines/wasm-bytes.generated.ts',
    script: 'build:wasm',
  },
  ts: {
    // src/ includes the wasm step's generated files, so a changed kernel rebuilds dist/ too.
    inputs: [
      'src',
      'tsconfig.json',
      'package.json',
      'scripts/clean-dist.mjs',
      'scripts/vendor-loader.mjs',
      'scripts/bundle.mjs',
      'scripts/assert-bundled.mjs', // its banner
      'scripts/make-cli-executable.mjs',
      'node_modules/@assemblyscript/loader/package.json',
      'node_modules/typescript/package.json',
      'node_modules/rolldown/package.json',
    ],
    // Written last by scripts/bundle.mjs, and not where rolldown did not load: that build stays stale, so it is made
    // again, bundled, once rolldown loads (its native binding is no input here).
    output: 'dist/node/worker.js',
    script: 'build:ts',
  },
};

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** A hash of a step's inputs: every file's path and bytes. */
export function inputsHash(step) {
  const hash = createHash('sha256');
  for (const file of STEPS[step].inputs.flatMap(files)) {
    hash.update(relative(root, join(root, file)).split(sep).join('/') + '\0');
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (step) => join(root, 'build', `${step}.stamp`);

/** Whether a step's output exists and was built from its inputs as they are now. */
export function isCurrent(step) {
  const stamp = stampFile(step);
  if (!existsSync(join(root, STEPS[step].output)) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === inputsHash(step);
}

export function writeStamp(step) {
  mkdirSync(join(root, 'build'), { recursive: true });
  writeFileSync(stampFile(step), inputsHash(step) + '\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, step] = process.argv.slice(2);
  if (command !== 'write' || !(step in STEPS)) {
    console.error(`usage: node scripts/build-stamp.mjs write ${Object.keys(STEPS).join('|')}`);
    process.exit(2);
  }
  writeStamp(step);
}
