// Every reference in README.md, docs/ and bench/README.md (which ships too)
// points at something real: links and
// heading anchors, repository paths, the code names it mentions, the npm
// scripts it runs, the CLI options it names; and the statements that once
// went stale (the error codes, the join's range under 'auto') say what the
// code does. No network: web links are left to their owners.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, JOIN_AUTO_MAX_N, JOIN_AUTO_MIN_N } from '../dist/index.js';
import { OPTIONS } from '../dist/cli/args.js';
import { instantiate, wasmModuleOf, type WasmOpenRows } from '../dist/engines/wasm-loader.js';
import { DOCUMENTS, inlineCode, links, readDocument, type Document } from './docs/markdown.js';
import { ROOT } from './pack.js';

/**
 * README.md, docs/, and bench/README.md, which the package ships beside them
 * (bench/peers/README.md ships too, but names the peers' code, not this code).
 */
const REFERENCED = [...DOCUMENTS, 'bench/README.md'];
const documents: Document[] = REFERENCED.map(readDocument);
const byPath = new Map(documents.map((d) => [d.path, d]));

/** Every file of the repository's tracked folders (and build outputs: the tests run after the build), as paths. */
function filesUnder(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => !e.parentPath.includes('node_modules'))
    .map((e) => join(e.parentPath, e.name).slice(ROOT.length).replace(/^\//, '').split('\\').join('/'));
}
const FOLDERS = ['src', 'assembly', 'scripts', 'test', 'bench', 'web', 'examples', 'docs', 'dist', 'build'];
const FILES = new Set(FOLDERS.flatMap(filesUnder));

const SCRIPTS = filesUnder('scripts')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'))
  .join('\n');

/**
 * A path the docs name: a file or folder (trailing `/`), or a glob with `*`;
 * a build output (dist/, build/) may also be one the build scripts write.
 */
function exists(path: string): boolean {
  const clean = path.replace(/\/$/, '');
  if (/^(dist|build)\//.test(clean) && SCRIPTS.includes(clean.split('/').at(-1)!)) return true;
  if (!clean.includes('*')) return FILES.has(clean) || [...FILES].some((f) => f.startsWith(clean + '/'));
  const pattern = new RegExp(
    '^' +
      clean
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*') +
      '$',
  );
  return [...FILES].some((f) => pattern.test(f));
}

describe.each(documents.map((d) => [d.path, d] as const))('%s', (path, doc) => {
  it('every relative link names a file that exists, and every anchor a heading there', () => {
    const broken: string[] = [];
    for (const { target, line } of links(doc.prose)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const resolved =
        file === ''
          ? path
          : normalize(join(dirname(path), file))
              .split('\\')
              .join('/');
      if (!existsSync(join(ROOT, resolved))) broken.push(`${path}:${line}: ${target} (no file ${resolved})`);
      else if (anchor !== undefined) {
        const other = byPath.get(resolved) ?? (resolved.endsWith('.md') ? readDocument(resolved) : undefined);
        if (other && !other.anchors.has(anchor)) broken.push(`${path}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('says nothing twice: no ten words of its prose (tables and generated blocks aside) come again, as a merge that kept both sides leaves them', () => {
    const words = doc.prose
      .replace(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g, (block) => block.replace(/[^\n]/g, ' '))
      .split('\n')
      .flatMap((text, i) => (text.trimStart().startsWith('|') ? [] : text.split(/\s+/).map((word) => ({ word, line: i + 1 }))))
      .filter(({ word }) => word !== '');
    const firstAt = new Map<string, number>();
    const repeated: string[] = [];
    let previousRepeat = -2;
    for (let i = 0; i + 10 <= words.length; i++) {
      const run = words
        .slice(i, i + 10)
        .map((w) => w.word)
        .join(' ');
      const first = firstAt.get(run);
      if (first === undefined) firstAt.set(run, i);
      else if (i - first >= 10) {
        // One report for each repeated passage: its first ten words.
        if (previousRepeat !== i - 1) repeated.push(`${path}:${words[i].line}: "${run}" (also line ${words[first].line})`);
        previousRepeat = i;
      }
    }
    expect(repeated).toEqual([]);
  });

  it('every repository path it names (in prose and in code blocks) exists', () => {
    const blockLines = doc.blocks.flatMap((b) => b.text.split('\n').map((code, k) => ({ code, line: b.line + 1 + k })));
    const missing = [...inlineCode(doc.prose), ...blockLines]
      .flatMap(({ code, line }) =>
        [...code.matchAll(/(?<![\w/.-])((?:src|assembly|scripts|test|bench|web|examples|docs|dist|build)\/[\w./*-]*)/g)].map((m) => ({
          path: m[1].replace(/[.,]$/, ''),
          line,
        })),
      )
      .filter(({ path }) => !exists(path))
      .map(({ path: p, line }) => `${path}:${line}: ${p}`);
    expect(missing).toEqual([]);
  });
});

describe('code names', () => {
  // The code the docs describe, as one text to look words up in.
  const corpus = [...FILES]
    .filter((f) => /\.(ts|mts|mjs|js|json|wat)$/.test(f) && !f.startsWith('dist/') && !f.startsWith('docs/'))
    .map((f) => readFileSync(join(ROOT, f), 'utf8'))
    .concat(readFileSync(join(ROOT, 'package.json'), 'utf8'), readFileSync(join(ROOT, 'asconfig.json'), 'utf8'))
    .join('\n');
  const words = new Set(corpus.match(/[A-Za-z_$][\w$]*/g));
  /** Names of the platforms and tools the docs mention, not of this code. */
  const PLATFORM = new Set(
    'AbortController AbortSignal DOMException BigInt SharedArrayBuffer WebAssembly Worker crossOriginIsolated navigator fetch require strict exactOptionalPropertyTypes importmap optimizeDeps getRandomValues unref'.split(
      ' ',
    ),
  );

  it('every identifier in inline code (a function, constant or type of this package) is one the code has', () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      for (const { code, line } of inlineCode(doc.prose)) {
        // `name`, `name(…)`, `NAME`: camelCase or CONSTANT_CASE words only (plain words are prose).
        const m = /^([A-Za-z_$][\w$]*)(?:\(.*\))?$/.exec(code);
        if (!m || !/[a-z][A-Z]|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$|^[A-Z][a-z]+[A-Z]/.test(m[1])) continue;
        checked++;
        if (!words.has(m[1]) && !PLATFORM.has(m[1])) unknown.push(`${doc.path}:${line}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('a code name placed in a file (`NAME` in `path`, (`NAME`, path)) is declared in that file', () => {
    const misplaced: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      const prose = doc.prose.replace(/\s+/g, ' ');
      for (const m of prose.matchAll(
        /`([A-Za-z_$][\w$]*)(?:\(\))?`(?:,| in) \(?`?((?:src|assembly|scripts|bench|web)\/[\w./-]+\.\w+)`?/g,
      )) {
        const [, name, path] = m;
        const file = path.replace(/[.,]$/, '');
        if (!existsSync(join(ROOT, file))) continue; // the path test above reports it
        checked++;
        const source = readFileSync(join(ROOT, file), 'utf8');
        const declared = new RegExp(
          `(?:const|let|var|function\\*?|class|interface|type|enum)\\s+${name}\\b|^\\s*(?:(?:export|static|private|readonly|async)\\s+)*${name}\\s*[(:=<]|export\\s*\\{[^}]*\\b${name}\\b`,
          'm',
        );
        if (!declared.test(source)) misplaced.push(`${doc.path}: ${name} is not declared in ${file}`);
      }
    }
    expect(misplaced).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('every npm script the docs run (`npm run x`) is in package.json', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as object);
    const missing: string[] = [];
    for (const doc of documents) {
      const text = doc.prose + doc.blocks.map((b) => b.text).join('\n');
      for (const m of text.matchAll(/npm run ([\w:-]*[\w-])/g)) if (!scripts.includes(m[1])) missing.push(`${doc.path}: npm run ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every --option in an nqueens command line of the docs is one the CLI has', () => {
    const options = new Set(Object.keys(OPTIONS));
    const unknown: string[] = [];
    for (const doc of documents) {
      const text = doc.prose + doc.blocks.map((b) => b.text).join('\n');
      for (const command of text.match(/\bnqueens(?:-wasm)? (?:count|solve|merge|version)\b[^\n`]*/g) ?? []) {
        for (const m of command.matchAll(/(?<![\w-])--([a-z][\w-]*)/g))
          if (!options.has(m[1])) unknown.push(`${doc.path}: --${m[1]} in ${command}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

describe('statements that went stale once', () => {
  it.each(['README.md', 'docs/api-details.md'])('the error-code table of %s lists every code of src/shared/errors.ts', (path) => {
    const listed = [...byPath.get(path)!.prose.matchAll(/^\| `(ERR_NQUEENS_\w+)` \|/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual(Object.values(ERROR_CODES).sort());
  });

  it("docs/api-details.md's state block, which iterators save and load as they take turns, is the open-rows module's", () => {
    // It said 716 bytes while the module's block was 720.
    const stated = /its (\d+)-byte state block/.exec(byPath.get('docs/api-details.md')!.prose.replace(/\s+/g, ' '));
    expect(stated).not.toBeNull();
    expect(Number(stated![1])).toBe(instantiate<WasmOpenRows>(wasmModuleOf('open-rows')!).stateBytes());
  });

  it("every range given for the join under 'auto' is JOIN_AUTO_MIN_N to JOIN_AUTO_MAX_N", () => {
    const ranges: string[] = [];
    for (const doc of documents) {
      const prose = doc.prose.replace(/\s+/g, ' ');
      for (const m of prose.matchAll(/\bjoin\b[^.]{0,60}?from n = (\d+)(?: \(`JOIN_AUTO_MIN_N`\))? to (\d+)/g))
        ranges.push(`${doc.path}: ${m[1]} to ${m[2]}`);
    }
    expect(ranges.length).toBeGreaterThanOrEqual(3);
    expect(ranges.filter((r) => !r.endsWith(`: ${JOIN_AUTO_MIN_N} to ${JOIN_AUTO_MAX_N}`))).toEqual([]);
  });

  it('no document says shards split the join only with --algorithm join: from n = 16 to 24 they do by default', () => {
    const claims = documents.flatMap((d) =>
      [...d.prose.replace(/\s+/g, ' ').matchAll(/`--algorithm join`[^.]*\bsplit[^.]*\bjoin instead/g)].map((m) => `${d.path}: ${m[0]}`),
    );
    expect(claims).toEqual([]);
  });

  it('no document says result.threads is the workers started: the calling thread counts in it where it counts beside one', () => {
    const claims = documents.flatMap((d) =>
      [...d.prose.replace(/\s+/g, ' ').matchAll(/`result\.threads` says how many (?:it|were) started[^.;]*/g)].map(
        (m) => `${d.path}: ${m[0]}`,
      ),
    );
    expect(claims).toEqual([]);
  });

  it("no document says 'auto' is the search for slices or shards: they run count()'s method", () => {
    const claims = documents.flatMap((d) =>
      [...d.prose.replace(/\s+/g, ' ').matchAll(/`auto` is the search[^.)]*/g)].map((m) => `${d.path}: ${m[0]}`),
    );
    expect(claims).toEqual([]);
  });
});

describe("the package's exports", () => {
  it('every export of the package, value or type, is named in docs/api-details.md, constants with their values', async () => {
    const api = await import('../dist/index.js');
    const named = new Set(inlineCode(readDocument('docs/api-details.md').prose).flatMap(({ code }) => code.split(/[^\w$]+/)));
    // Type names from the published declarations: `export { A, type B }`, `export type { C }`, `export interface D`, ...
    const declarations = readFileSync(join(ROOT, 'dist/index.d.ts'), 'utf8');
    const types = [...declarations.matchAll(/^export (?:type )?\{([^}]*)\}|^export (?:declare )?(?:interface|type|function|const) (\w+)/gm)]
      .flatMap((m) => (m[2] ? [m[2]] : m[1].split(',')))
      .map((name) => name.replace(/^\s*type\s+/, '').trim());
    const missing = [...new Set([...Object.keys(api), ...types])].filter((name) => !named.has(name));
    expect(missing).toEqual([]);
    expect(types.length).toBeGreaterThan(40);
    // The constants' table states each value as it is.
    const text = readFileSync(join(ROOT, 'docs/api-details.md'), 'utf8');
    for (const [name, value] of Object.entries(api)) {
      if (typeof value !== 'number') continue;
      const row = text.split('\n').find((line) => line.startsWith('| `') && line.split('|')[1].includes(`\`${name}\``));
      expect(row, name).toBeDefined();
      const names = row!
        .split('|')[1]
        .match(/`(\w+)`/g)!
        .map((n) => n.slice(1, -1));
      const values = row!
        .split('|')[2]
        .split(',')
        .map((v) => Number(v.trim()));
      expect([name, values[names.indexOf(name)]]).toEqual([name, value]);
    }
    for (const list of ['ENGINES', 'ALGORITHMS'] as const)
      expect(text).toContain(`| \`${list}\` | \`${JSON.stringify(api[list]).replaceAll('"', "'").replaceAll(',', ', ')}\` |`);
  });
});
