// Stages the package as it is published into a folder: the files package.json
// lists, README, LICENSE, and a package.json without the development scripts
// and devDependencies. Publishing the repository root would ship `prepare`
// (the clone's build), which npm reports as an install script to everyone who
// installs the package. Usage: node scripts/stage-package.mjs DIR, then
// `npm pack DIR` or `npm publish DIR` (`npm run pack:release` does both steps).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertBundled } from './assert-bundled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Stages into `dir` (emptied first); returns its absolute path. */
export function stagePackage(dir) {
  const target = resolve(dir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run npm run build first');
  assertBundled();
  // A `!` entry leaves files out (tsc's dist/cli/ but the command's bundle): `npm pack` of the staged folder applies it.
  for (const entry of [...manifest.files, 'README.md', 'LICENSE']) {
    if (!entry.startsWith('!')) cpSync(join(root, entry), join(target, entry), { recursive: true });
  }
  delete manifest.scripts;
  delete manifest.devDependencies;
  writeFileSync(join(target, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/stage-package.mjs DIR');
    process.exit(2);
  }
  console.log(`staged the package in ${stagePackage(dir)}`);
}
