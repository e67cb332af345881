// Rewrites tsc's output for Node as single files: the `nqueens` command
// (dist/cli/main.js, in place), the library as Node imports it
// (dist/node/index.js, the `node` condition of package.json's exports) and
// the worker both start (dist/node/worker.js). Node 20 loads a graph of ES
// modules one file at a time (resolve, read, compile, link): the command's
// 93 files took about 50 ms of each run, the library's 70 about as much of
// each program's import, a worker's 33 about 40 ms of its start, where one
// file takes a few (docs/benchmarks.md, "The command's and the library's
// start"). tsc's files stay beside them: browsers and bundlers import
// dist/index.js and dist/run/worker.js, whose files they load, split and
// tree-shake themselves.
//
// The bundles run one folder below dist/: spawn.js's Node line ('./worker.js',
// next to itself) is rewritten to name dist/node/worker.js, and its browser
// paths (which Node never takes) to name '../run/worker.js'. The build
// fails if that line is not found once where expected, or if a bundle
// still imports a file of the package. Where rolldown cannot load (its
// native binding is missing for this platform), the command stays tsc's
// main.js and dist/node/index.js re-exports tsc's dist/index.js, with tsc's
// worker: the same code, slower to start (test/package.test.ts fails on
// it, so CI cannot).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_BANNER as BANNER } from './assert-bundled.mjs';

let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch (error) {
  console.warn(`bundle: rolldown did not load (${error.message}); dist/ stays unbundled`);
  mkdirSync(new URL('../dist/node/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../dist/node/index.js', import.meta.url), "export * from '../index.js';\n");
  process.exit(0);
}

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
// spawn.js's Node path, and any worker.js named next to spawn.js, as the bundler prints them.
const NODE_WORKER_LINE = /\bconst file = (["'])\.\/worker\.js\1;/g;
const WORKER_FILE = /(["'])\.\/worker\.js\1/g;

// rolldown's runtime builds the namespace of each import() it inlines with a
// `for...in` (which walks Object.prototype's enumerable keys too) and
// descriptor literals (which inherit `get`, `set`): with either set on
// Object.prototype by other code before the import, loading the bundle threw.
// Own keys and descriptors without a prototype, as tsc's modules need none.
const RUNTIME_FIXES = [
  {
    pattern: /^var __defProp = Object\.defineProperty;$/gm,
    replacement: 'var __defProp = (o, k, d) => Object.defineProperty(o, k, { __proto__: null, ...d });',
  },
  { pattern: /\bfor \(var name in all\)/g, replacement: 'for (var name of Object.keys(all))' },
];

/** The bundle's code with RUNTIME_FIXES applied; fails where rolldown's runtime is not the one they fit. */
function fixRuntime(code, output) {
  if (!code.includes('__defProp')) return code;
  for (const { pattern, replacement } of RUNTIME_FIXES) {
    const found = code.match(pattern)?.length ?? 0;
    if (found !== 1) throw new Error(`bundle: rolldown's runtime in dist/${output} has ${pattern} ${found} times, not once`);
    code = code.replace(pattern, replacement);
  }
  return code;
}

/** Each file with tsc's source map, so that a bundle's map leads to src/. */
const withTscMaps = {
  name: 'with-tsc-maps',
  load(id) {
    if (!id.startsWith(dist) || !id.endsWith('.js') || !existsSync(`${id}.map`)) return undefined;
    return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
  },
};

/**
 * Bundles dist/`input` and every module it imports into dist/`output`, keeping `input`'s #! line. `nodeWorker`: the
 * file spawn.js's Node line names instead, relative to `output` (undefined: a bundle without spawn.js).
 */
async function bundleInto(input, output, nodeWorker) {
  const compiled = readFileSync(`${dist}${input}`, 'utf8');
  if (compiled.includes(BANNER)) throw new Error(`bundle: dist/${input} is bundled already (npm run build:ts makes it again)`);
  const file = `${dist}${output}`;
  const bundle = await rolldown({ input: `${dist}${input}`, platform: 'node', plugins: [withTscMaps], logLevel: 'warn' });
  const { output: files } = await bundle.generate({
    file, // the map's sources relative to it
    format: 'esm',
    codeSplitting: false, // what the library loads with import() (the WebGPU engine, the join's shared build) inlined too
    sourcemap: true,
    sourcemapExcludeSources: true, // src/ ships beside it
  });
  await bundle.close();
  const chunks = files.filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`bundle: expected one file for dist/${output}, got ${chunks.map((o) => o.fileName).join(', ')}`);
  const [chunk] = chunks;
  // Each import() inlined is listed as one of the bundle itself.
  const imported = [...chunk.imports, ...chunk.dynamicImports].filter((s) => !s.startsWith('node:') && s !== chunk.fileName);
  if (imported.length > 0) throw new Error(`bundle: dist/${output} still imports ${imported.join(', ')}`);
  const found = chunk.code.match(NODE_WORKER_LINE)?.length ?? 0;
  if (found !== (nodeWorker === undefined ? 0 : 1))
    throw new Error(`bundle: dist/run/spawn.js's "const file = './worker.js';" is in dist/${output} ${found} times`);
  // Every path spawn.js names leads to tsc's worker (browsers' paths, which Node never takes), but Node's: to Node's own.
  const paths = chunk.code
    .replace(WORKER_FILE, '"../run/worker.js"')
    .replace('const file = "../run/worker.js";', `const file = ${JSON.stringify(nodeWorker)};`);
  // The banner below the #! line that rolldown keeps first; written here, as rolldown left its `banner` out of one
  // bundle (the worker's). Each line of it is an empty line of mappings in the map.
  const banner = [
    `${BANNER} from dist/${input} and every module it imports (do not edit).`,
    '// It includes @assemblyscript/loader, Apache-2.0: see ../vendor/assemblyscript-loader.LICENSE and .NOTICE.',
  ];
  const body = fixRuntime(paths, output);
  const shebang = body.match(/^#!.*\n/)?.[0] ?? '';
  const code = shebang + banner.map((line) => `${line}\n`).join('') + body.slice(shebang.length);
  const map = JSON.parse(chunk.map.toString());
  const lines = map.mappings.split(';');
  if (shebang && lines[0] !== '') throw new Error(`bundle: dist/${output}'s #! line has mappings`);
  lines.splice(shebang ? 1 : 0, 0, ...banner.map(() => ''));
  map.mappings = lines.join(';');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, code);
  writeFileSync(`${file}.map`, JSON.stringify(map));
  console.log(`bundle: dist/${output}, ${chunk.moduleIds.length} modules in one file (${Math.round(code.length / 1024)} KB)`);
}

await bundleInto('cli/main.js', 'cli/main.js', '../node/worker.js');
await bundleInto('index.js', 'node/index.js', './worker.js');
await bundleInto('run/worker.js', 'node/worker.js', undefined);
