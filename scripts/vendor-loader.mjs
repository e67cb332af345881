// Copies @assemblyscript/loader's ES module into dist/vendor/ and points the
// compiled imports at it, so dist/ imports no bare specifier: a browser page
// without a bundler or an import map (and a module worker, which never sees
// the page's import map) can load every file by its path, and the published
// package has no runtime dependency. The loader is Apache-2.0: the copy keeps
// a header naming it, and its licence and notice ship beside it.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutGlobalAssignments } from './loader-without-globals.mjs';

const SPECIFIER = '@assemblyscript/loader';
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const vendor = join(dist, 'vendor');
const source = fileURLToPath(import.meta.resolve(SPECIFIER)); // its ESM entry, index.js
const loaderPackage = JSON.parse(readFileSync(join(dirname(source), 'package.json'), 'utf8'));
// The loader's npm package ships no licence file; the compiler's, from the same repository and release, does.
const compilerDir = dirname(fileURLToPath(import.meta.resolve('assemblyscript/package.json')));
const target = join(vendor, 'assemblyscript-loader.js');

mkdirSync(vendor, { recursive: true });
const header = `// ${SPECIFIER} ${loaderPackage.version}, copied below this header from its package's
// index.js by scripts/vendor-loader.mjs when nqueens-wasm was built, with one change:
// its Object.hasOwn polyfill is a local function, not an assignment to Object
// (so the package loads where built-ins are frozen).
// Copyright the AssemblyScript authors (see assemblyscript-loader.NOTICE).
// Licensed under the Apache License, Version 2.0 (see assemblyscript-loader.LICENSE).
// ${loaderPackage.homepage}  ${loaderPackage.repository.url}
`;
writeFileSync(target, header + withoutGlobalAssignments(readFileSync(source, 'utf8')));
copyFileSync(join(compilerDir, 'LICENSE'), join(vendor, 'assemblyscript-loader.LICENSE'));
copyFileSync(join(compilerDir, 'NOTICE'), join(vendor, 'assemblyscript-loader.NOTICE'));

let rewritten = 0;
function visit(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== vendor) visit(path);
    } else if (entry.name.endsWith('.js')) {
      const text = readFileSync(path, 'utf8');
      let to = relative(dirname(path), target).split(sep).join('/');
      if (!to.startsWith('.')) to = `./${to}`;
      const next = text.replaceAll(`from '${SPECIFIER}'`, `from '${to}'`);
      if (next !== text) {
        writeFileSync(path, next);
        rewritten++;
      }
    }
  }
}
visit(dist);
if (rewritten === 0) {
  console.error(`scripts/vendor-loader.mjs: no compiled file imports ${SPECIFIER}; nothing was rewritten`);
  process.exit(1);
}
console.log(`vendored ${SPECIFIER} ${loaderPackage.version} into dist/vendor/ (${rewritten} import rewritten)`);
