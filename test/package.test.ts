// The package as published: what the tarball holds, that dist/ loads without
// a bundler or an import map (no bare specifiers), publint and
// are-the-types-wrong clean, and the bin working through `npx nqueens-wasm`
// from an installed tarball.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBundled } from '../scripts/assert-bundled.mjs';
import { packList, packTarball, ROOT, type PackedFile } from './pack.js';

const BIN = join(ROOT, 'node_modules/.bin');

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Files under dir, as paths relative to ROOT with forward slashes. */
function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'));
}

describe('npm pack', () => {
  let files: PackedFile[];
  let paths: Set<string>;
  beforeAll(() => {
    files = packList();
    paths = new Set(files.map((f) => f.path));
  });

  // What ships: the compiled package, its sources (the source maps point at
  // them), the vendored loader with its licence, and the usual documents.
  const ALLOWED = [
    /^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/,
    /^dist\/.+\.(js|d\.ts|js\.map)$/,
    /^dist\/vendor\/assemblyscript-loader\.(LICENSE|NOTICE)$/,
    /^src\/.+\.ts$/,
    /^docs\/[^/]+\.md$/,
    // The benchmarks' documents and chart, which README and docs/ link to (the benchmarks themselves stay out).
    /^bench\/(README\.md|peers\/README\.md|results\/latest\.svg)$/,
  ];

  it('holds only what consumers use', () => {
    const unexpected = [...paths].filter((p) => !ALLOWED.some((re) => re.test(p)));
    expect(unexpected).toEqual([]);
    const documents = /^bench\/(README\.md|peers\/README\.md|results\/latest\.svg)$/;
    for (const p of [...paths].filter((path) => !documents.test(path)))
      expect(p).not.toMatch(/(^|\/)(test|bench|examples|web|build|assembly|node_modules|scripts)\//);
  });

  it('holds the entry points, the worker, the CLI, the vendored loader and the documents', () => {
    for (const p of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/run/worker.js',
      'dist/cli/main.js',
      'dist/node/index.js',
      'dist/node/worker.js',
      'dist/engines/wasm-bytes.generated.js',
      'dist/vendor/assemblyscript-loader.js',
      'dist/vendor/assemblyscript-loader.LICENSE',
      'dist/vendor/assemblyscript-loader.NOTICE',
    ]) {
      expect(paths.has(p), p).toBe(true);
    }
  });

  it('holds every document README links to, so that its links work in node_modules too', () => {
    const linked = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(10);
    expect(linked.filter((p) => !paths.has(p))).toEqual([]);
  });

  // Before, six links to bench/ (README's chart, docs/benchmarks.md, join.md, threads.md) were dead in node_modules.
  it('resolves every relative link of every document it ships, within the package', () => {
    const dead: string[] = [];
    for (const doc of [...paths].filter((p) => p.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^([a-z]+:|#|\/)/i.test(target)) continue; // a URL, an anchor in the same page, or a site path
        const path = join(doc, '..', target.split('#')[0]).split('\\').join('/');
        if (!paths.has(path) && !paths.has(`${path}/README.md`)) dead.push(`${doc} -> ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  // The command's modules ship only in its bundle (dist/cli/main.js), whose map leads to their sources.
  it('has the compiled files of every source (the command: its bundle), and the sources of every source map', () => {
    for (const source of walk('src').filter((p) => p.endsWith('.ts'))) {
      const base = source.replace(/^src\//, 'dist/').replace(/\.ts$/, '');
      const compiled = source.startsWith('src/cli/') ? [] : [`${base}.js`, `${base}.d.ts`, `${base}.js.map`];
      for (const p of [source, ...compiled]) expect(paths.has(p), p).toBe(true);
    }
    expect([...paths].filter((p) => p.startsWith('dist/cli/'))).toEqual(['dist/cli/main.js', 'dist/cli/main.js.map']);
    for (const map of [...paths].filter((p) => p.endsWith('.js.map'))) {
      const { sources } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as { sources: string[] };
      for (const s of sources) {
        const target = join(map, '..', s).split('\\').join('/');
        expect(paths.has(target), `${map} -> ${target}`).toBe(true);
      }
    }
  });

  it('has nothing stale: every compiled file comes from a source of this tree (or is the vendored loader or a bundle)', () => {
    const stale = [...paths]
      .filter((p) => p.startsWith('dist/') && !p.startsWith('dist/vendor/') && !/^dist\/node\/(index|worker)\.js(\.map)?$/.test(p))
      .filter((p) => !paths.has(p.replace(/^dist\//, 'src/').replace(/(\.d\.ts|\.js\.map|\.js)$/, '.ts')));
    expect(stale).toEqual([]);
  });

  // scripts/bundle.mjs: Node 20 loads a graph of ES modules file by file (the CLI's 93 files, the library's 70, a
  // worker's 33: about 50, 50 and 35 ms of every run, import or worker's start).
  it.each([
    ['the CLI', 'dist/cli/main.js', '#!/usr/bin/env node\n', '../node/worker.js'],
    ["Node's entry", 'dist/node/index.js', '', './worker.js'],
  ])('%s is one file: it imports only Node built-ins, and starts the worker bundled for Node', (_, file, shebang, worker) => {
    const code = readFileSync(join(ROOT, file), 'utf8');
    // The browser's two paths to the worker (spawn.js), which Node never takes, lead to tsc's, one folder up.
    expect(specifiers(code).filter((s) => !s.startsWith('node:'))).toEqual(['../run/worker.js', '../run/worker.js']);
    expect(code.match(/\bconst file = "[^"]*";/g)).toEqual([`const file = ${JSON.stringify(worker)};`]);
    expect(code.startsWith(`${shebang}// Generated by scripts/bundle.mjs from dist/`)).toBe(true);
  });

  // Stack traces under --enable-source-maps name src/ files and lines; each bundle's two banner lines are written
  // by scripts/bundle.mjs, so their map is shifted by hand.
  it.each(['dist/cli/main.js', 'dist/node/index.js', 'dist/node/worker.js'])(
    '%s: its source map leads each function it declares to its line in src/',
    (file) => {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      const map = new SourceMap(JSON.parse(readFileSync(join(ROOT, `${file}.map`), 'utf8')) as SourceMapPayload);
      const wrong: string[] = [];
      let checked = 0;
      lines.forEach((text, line) => {
        const name = /^(?:async )?function\*? (\w+)\(/.exec(text)?.[1];
        if (!name) return;
        const entry = map.findEntry(line, text.indexOf(name));
        // Sources are src/ (through tsc's maps) or the vendored loader, which has no map of its own.
        const at =
          'originalSource' in entry ? { source: resolve(ROOT, dirname(file), entry.originalSource), line: entry.originalLine } : undefined;
        const ours = at && (at.source.startsWith(join(ROOT, 'src/')) || at.source.startsWith(join(ROOT, 'dist/vendor/')));
        const original = ours ? readFileSync(at.source, 'utf8').split('\n')[at.line] : undefined;
        if (!original?.includes(name))
          wrong.push(`${name} (line ${line + 1}) -> ${at ? `${relative(ROOT, at.source)}:${at.line + 1}` : 'nothing'}`);
        checked++;
      });
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(100);
    },
  );

  it("Node's worker is one file: it imports only Node built-ins, and starts no worker itself", () => {
    const code = readFileSync(join(ROOT, 'dist/node/worker.js'), 'utf8');
    expect(code.startsWith('// Generated by scripts/bundle.mjs from dist/run/worker.js ')).toBe(true);
    expect(specifiers(code).filter((s) => !s.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/\bconst file = /);
  });

  it('the CLI is executable and starts with a node shebang', () => {
    expect(readFileSync(join(ROOT, 'dist/cli/main.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; dependencies?: object };
    expect(pkg.bin).toEqual({ nqueens: 'dist/cli/main.js', 'nqueens-wasm': 'dist/cli/main.js' });
    // The loader is vendored into dist/: installing the package fetches nothing else.
    expect(pkg.dependencies ?? {}).toEqual({});
  });
});

/** Every module specifier a compiled file names: static imports and exports, literal import(), new URL(). */
function specifiers(code: string): string[] {
  const found: string[] = [];
  for (const re of [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    // Not a flag that names the keyword (the worker's '--import' option).
    /(?<![-\w.])import\s*['"]([^'"]+)['"]/g,
    /(?<![-\w.])import\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bnew URL\(\s*['"]([^'"]+)['"]/g,
  ]) {
    for (const m of code.matchAll(re)) found.push(m[1]);
  }
  return found;
}

describe('dist/ loads in a browser without a bundler or an import map', () => {
  it("imports nothing but relative paths (and node: built-ins in the CLI and Node's entry, which browsers never load)", () => {
    const bad: string[] = [];
    const files = walk('dist').filter((p) => p.endsWith('.js'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      for (const s of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
        const nodeOnly = file.startsWith('dist/cli/') || file.startsWith('dist/node/');
        const ok = s.startsWith('./') || s.startsWith('../') || (nodeOnly && s.startsWith('node:'));
        if (!ok) bad.push(`${file}: ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the worker and the API import the vendored loader, whose copy names its licence', () => {
    expect(readFileSync(join(ROOT, 'dist/engines/wasm-loader.js'), 'utf8')).toContain(`from '../vendor/assemblyscript-loader.js'`);
    const vendored = readFileSync(join(ROOT, 'dist/vendor/assemblyscript-loader.js'), 'utf8');
    expect(vendored).toMatch(/^\/\/ @assemblyscript\/loader \d+\.\d+\.\d+,/);
    expect(vendored).toContain('Apache License, Version 2.0');
    expect(vendored).toContain('export function instantiateSync');
    expect(readFileSync(join(ROOT, 'dist/vendor/assemblyscript-loader.LICENSE'), 'utf8')).toContain('Apache License');
  });
});

describe('the tarball', () => {
  let tarball: string;
  let dispose: () => void;
  beforeAll(() => {
    ({ tarball, dispose } = packTarball());
  });
  afterAll(() => dispose?.());

  it('publint finds nothing, not even a suggestion (--strict)', async () => {
    const r = await run(join(BIN, 'publint'), ['run', tarball, '--strict', '--level', 'suggestion'], ROOT);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('All good!');
  });

  it('are-the-types-wrong finds no problem (profile esm-only: the package is ESM-only)', async () => {
    const r = await run(join(BIN, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], ROOT);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { analysis: { problems: { kind: string; resolutionKind?: string }[] } };
    const problems = report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs');
    expect(problems).toEqual([]);
  });

  describe('installed into a project', () => {
    let project: string;
    beforeAll(() => {
      project = mkdtempSync(join(tmpdir(), 'nqueens-install-'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
      // No dependencies, so this needs no network.
      execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'ignore' });
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it.each(['nqueens-wasm', 'nqueens'])('npx %s count 8 runs the bin', async (bin) => {
      const r = await run('npx', ['--no-install', bin, 'count', '8', '--json'], project);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ n: 8, total: '92', unique: '12' });
    });

    // The `node` condition of its exports: one file, the library's 70 modules bundled, whose workers (at n = 16 both
    // count) start from dist/run/worker.js. Browsers and bundlers take `default`, tsc's files (test/browser/).
    it("Node imports dist/node/index.js, whose workers count: tsc's dist/index.js is what the others import", async () => {
      writeFileSync(
        join(project, 'resolve.mjs'),
        `const { count } = await import('nqueens-wasm');
        const r = await count(16, { threads: 2, engine: 'wasm', algorithm: 'search' });
        console.log(import.meta.resolve('nqueens-wasm'), String(r.total), r.threads);`,
      );
      const r = await run(process.execPath, ['resolve.mjs'], project);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(`${pathToFileURL(join(project, 'node_modules/nqueens-wasm/dist/node/index.js')).href} 14772512 2`);
      const pkg = JSON.parse(readFileSync(join(project, 'node_modules/nqueens-wasm/package.json'), 'utf8')) as { exports: object };
      expect(pkg.exports).toEqual({
        '.': { types: './dist/index.d.ts', node: './dist/node/index.js', default: './dist/index.js' },
        './package.json': './package.json',
      });
    });

    // docs/browser.md, "Bundling for Node": a server build inlines the node condition's file; its workers start from
    // worker.js beside the output, which the app copies there (one file, only Node's built-ins).
    it('bundled into a Node program, its workers need dist/node/worker.js beside the output, and count with it', async () => {
      const { rolldown } = await import('rolldown');
      writeFileSync(
        join(project, 'server.mjs'),
        `import { count } from 'nqueens-wasm';
        const r = await count(16, { threads: 2, engine: 'wasm', algorithm: 'search' }).catch((e) => e);
        console.log(r instanceof Error ? r.code : String(r.total));`,
      );
      const bundle = await rolldown({ input: join(project, 'server.mjs'), cwd: project, platform: 'node', logLevel: 'silent' });
      await bundle.write({ file: join(project, 'out/server.js'), format: 'esm', codeSplitting: false });
      await bundle.close();
      const without = await run(process.execPath, ['out/server.js'], project);
      expect([without.code, without.stdout.trim()]).toEqual([0, 'ERR_NQUEENS_WORKER_FAILED']);
      copyFileSync(join(project, 'node_modules/nqueens-wasm/dist/node/worker.js'), join(project, 'out/worker.js'));
      const withWorker = await run(process.execPath, ['out/server.js'], project);
      expect([withWorker.code, withWorker.stdout.trim()]).toEqual([0, '14772512']);
    });

    it('a CommonJS module loads it with await import()', async () => {
      writeFileSync(
        join(project, 'use.cjs'),
        `(async () => { const { count } = await import('nqueens-wasm'); const r = await count(8, { threads: 2 }); console.log(String(r.total), r.threads); })();`,
      );
      const r = await run(process.execPath, ['use.cjs'], project);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('92 2');
    });

    const NODES = [
      ['this Node', process.execPath],
      ['Node 22', join(ROOT, 'test/runtimes/node_modules/node22/bin/node')],
      ['Node 24', join(ROOT, 'test/runtimes/node_modules/node24/bin/node')],
    ].filter(([, path]) => existsSync(path));
    it.each(NODES)('on %s (20.19+, 22.12+), require() loads it too (require(esm))', async (_, node) => {
      writeFileSync(
        join(project, 'require.cjs'),
        `const { countSync } = require('nqueens-wasm'); console.log(String(countSync(8).total));`,
      );
      const r = await run(node, ['require.cjs'], project);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('92');
    });
  });
});

// package.json's files ship only the command's bundle of dist/cli/: tsc's main.js, left where rolldown did not load,
// would ship without the modules it imports. npm pack (prepack) and the staged release refuse such a dist/.
describe('packing refuses a dist/ that rolldown did not bundle', () => {
  const BUNDLES = ['dist/cli/main.js', 'dist/node/index.js', 'dist/node/worker.js'];
  function tree(unbundled?: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-bundled-'));
    for (const file of BUNDLES) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), file === unbundled ? "import './commands.js';\n" : '// Generated by scripts/bundle.mjs from dist/\n');
    }
    return dir;
  }

  it('passes the three bundles', () => {
    const dir = tree();
    try {
      expect(() => assertBundled(dir)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(BUNDLES)('refuses %s as tsc wrote it, naming it', (file) => {
    const dir = tree(file);
    try {
      expect(() => assertBundled(dir)).toThrow(`${file} is not rolldown's bundle`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what npm pack runs first (prepack) and what stages the release', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepack).toBe('node scripts/assert-bundled.mjs');
    expect(readFileSync(join(ROOT, 'scripts/stage-package.mjs'), 'utf8')).toMatch(/^\s+assertBundled\(\);$/m);
  });
});

describe('installing, as a user meets it', () => {
  it('the tarball installs silently: its manifest has no scripts, so npm reports no install script', () => {
    const { tarball, dispose } = packTarball();
    const project = mkdtempSync(join(tmpdir(), 'nqueens-install-'));
    try {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
      const r = spawnSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stderr).not.toMatch(/install-scripts|prepare/);
      const installed = JSON.parse(readFileSync(join(project, 'node_modules/nqueens-wasm/package.json'), 'utf8'));
      expect([installed.scripts, installed.devDependencies]).toEqual([undefined, undefined]);
    } finally {
      dispose();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("the staged package (npm run pack:release) is left out of the repository's lint, as it is of git", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const dir = /stage-package\.mjs (\S+)/.exec(pkg.scripts['pack:release'])![1];
    // Before: `npm run lint` after `npm run pack:release` failed on the staged copy of dist/ (19 errors).
    const { ESLint } = await import('eslint');
    const eslint = new ESLint({ cwd: ROOT });
    for (const file of ['dist/index.js', 'dist/vendor/assemblyscript-loader.js', 'src/index.ts']) {
      expect(await eslint.isPathIgnored(join(ROOT, dir, file)), `${dir}/${file}`).toBe(true);
    }
  });

  it("a clone's prepare builds only when the sources changed, so the first npx count after npm install starts at once", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toBe('node scripts/build-if-needed.mjs');
    // The suite runs after `npm run build`: nothing is newer than dist/, so prepare would skip the build.
    // (--check only reports: a test must never start a build under the other tests.)
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build-if-needed.mjs'), '--check'], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([0, 'up to date\n']);
  });
});
