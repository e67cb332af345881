// docs/ARCHITECTURE.md is the map of the code: every path its layout table
// names exists, every source file lies under a path it names, no two
// source files share a name, and every import runs down its layers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './pack.js';

const map = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
const layout = map.slice(map.indexOf('## Layout'));
const paths = [...layout.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const sources = filesUnder('src').filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts'));

describe('docs/ARCHITECTURE.md', () => {
  it('names paths in its layout table, each of which exists', () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('places every source file under a path of its layout table', () => {
    const placed = (file: string) => paths.some((p) => file === p || file.startsWith(p.endsWith('/') ? p : `${p}/`));
    expect(sources.filter((f) => !placed(f))).toEqual([]);
  });

  it('a layout row that lists its folder file by file lists every file there', () => {
    // These rows name each file (src/cli/ left out unit-counts.ts once; src/shared/, src/baseline/ and
    // scripts/ left out eleven files, and scripts/ every build tool but three); the others describe their folder.
    const enumerated = ['src/cli/', 'src/shared/', 'src/baseline/', 'scripts/', 'assembly/search/', 'assembly/join/', 'assembly/baseline/'];
    const unnamed = enumerated.flatMap((folder) => {
      const row = new RegExp(`^\\| \`${folder}\` \\|(.*)$`, 'm').exec(layout)?.[1] ?? '';
      expect(row, folder).not.toBe('');
      return readdirSync(join(ROOT, folder))
        .filter((name) => /\.(ts|mts|mjs|sh)$/.test(name) && !row.includes(`\`${name}\``))
        .map((name) => folder + name);
    });
    expect(unnamed).toEqual([]);
  });

  it('no two source files share a name', () => {
    const byName = new Map<string, string[]>();
    for (const f of sources) byName.set(basename(f), [...(byName.get(basename(f)) ?? []), relative('src', f)]);
    expect([...byName.values()].filter((list) => list.length > 1)).toEqual([]);
  });

  it('the public API file imports no CLI and the CLI reaches the run layer through two modules only', () => {
    const cli = filesUnder('src/cli').map((f) => readFileSync(join(ROOT, f), 'utf8'));
    const runImports = new Set(cli.flatMap((text) => [...text.matchAll(/from '\.\.\/run\/([\w-]+)\.js'/g)].map((m) => m[1])));
    expect([...runImports].sort()).toEqual(['methods', 'runner']);
    const methodImports = cli.flatMap((text) => [...text.matchAll(/from '\.\.\/(search|join|completions|engines)\//g)].map((m) => m[0]));
    expect(methodImports).toEqual([]);
    expect(readFileSync(join(ROOT, 'src/index.ts'), 'utf8')).not.toMatch(/from '\.\/cli\//);
  });

  it('the peers benchmark counts ours through the public API or the registry, never a method folder', () => {
    const peers = filesUnder('bench/peers').filter((f) => f.endsWith('.mjs'));
    const text = peers.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    expect(text.match(/dist\/(search|join|completions)\//g) ?? []).toEqual([]);
    expect(readFileSync(join(ROOT, 'bench/peers/run.mjs'), 'utf8')).toMatch(/import \{ count, countSync \} from 'nqueens-wasm'/);
  });
});

/**
 * The layers of docs/ARCHITECTURE.md, from the bottom: a file imports from
 * its own folder (its layer's entry here) or from a lower layer, never from
 * a peer's folder or above. The methods are peers: none imports another.
 */
const LAYERS: readonly (readonly [string, number])[] = [
  ['src/shared/', 0],
  ['src/engines/', 1],
  ['src/baseline/', 1],
  ['src/contract/', 2],
  ['src/search/', 3],
  ['src/join/', 3],
  ['src/completions/', 3],
  ['src/run/', 4],
  ['src/index.ts', 5],
  ['src/cli/', 6],
];

function layerOf(file: string): { place: string; rank: number } {
  const found = LAYERS.find(([place]) => file === place || file.startsWith(place));
  if (!found) throw new Error(`${file} lies in no layer of docs/ARCHITECTURE.md`);
  return { place: found[0], rank: found[1] };
}

/** Every relative module a file imports or re-exports, statically or with import(), as a path under the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((s) => join(dirname(file), s).replace(/\.js$/, '.ts'));
}

describe('layers', () => {
  it('every source file lies in a layer, and each of its imports in its own folder or a lower layer', () => {
    const upward: string[] = [];
    for (const file of sources) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to.place !== from.place && to.rank >= from.rank) upward.push(`${file} imports ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the check sees imports: the run layer imports the contract, a method and itself', () => {
    const runner = importsOf('src/run/runner.ts');
    expect(runner).toContain('src/contract/method.ts');
    expect(runner).toContain('src/run/pool.ts');
    expect(importsOf('src/run/dispatch.ts')).toContain('src/search/webgpu/webgpu.ts'); // the lazy import() too
    expect(() => layerOf('src/elsewhere/x.ts')).toThrow(/no layer/);
  });
});

/** The value names a file imports, by module: `import { a, type B }` gives a (type imports and re-exports left out). */
function valueImportsOf(file: string): { target: string; names: string[] }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found = [...text.matchAll(/^import (?!type )(?:\{([^}]*)\}|\* as \w+|\w+)[^']*'(\.{1,2}\/[^']+)'/gm)];
  const dynamic = [...text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({ list: '*', spec: m[1] }));
  return [...found.map((m) => ({ list: m[1] ?? '*', spec: m[2] })), ...dynamic].map(({ list, spec }) => ({
    target: join(dirname(file), spec).replace(/\.js$/, '.ts'),
    names: list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '' && !name.startsWith('type ')),
  }));
}

describe('the public API file', () => {
  it('uses no method folder and no engine: only run/, contract/ and shared/ (constants and types aside)', () => {
    const own = ['src/run/', 'src/contract/', 'src/shared/'];
    const elsewhere = valueImportsOf('src/index.ts')
      .filter(({ target }) => !own.some((place) => target.startsWith(place)))
      .flatMap(({ target, names }) => names.filter((name) => !/^[A-Z][A-Z0-9_]*$/.test(name)).map((name) => `${name} from ${target}`));
    expect(elsewhere).toEqual([]);
  });

  it('compares no engine name', () => {
    const text = readFileSync(join(ROOT, 'src/index.ts'), 'utf8');
    expect(text.match(/=== '(reference|webgpu|wasm|js)'|'(reference|webgpu|wasm|js)' ===/g) ?? []).toEqual([]);
  });

  it('the check sees value imports, and leaves out types and constants', () => {
    const imports = valueImportsOf('src/index.ts');
    expect(imports.find((i) => i.target === 'src/run/dispatch.ts')?.names).toContain('countByEngine');
    expect(imports.find((i) => i.target === 'src/search/search-plan.ts')?.names).toEqual(['MAX_DEPTH']);
  });
});

describe('exports', () => {
  const usersOf = [...sources, ...['test', 'bench', 'web', 'scripts'].flatMap((dir) => filesUnder(dir))]
    .filter((f) => /\.(ts|mts|mjs|js|html)$/.test(f) && !f.includes('/node_modules/') && !f.includes('/dist/'))
    .map((f) => ({ file: f, text: readFileSync(join(ROOT, f), 'utf8') }));

  it('every export of src/ is used outside its file (the public API, src/index.ts, aside)', () => {
    const unused: string[] = [];
    for (const file of sources.filter((f) => f !== 'src/index.ts')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, name] of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class|interface|type|enum) (\w+)/gm)) {
        const used = usersOf.some((u) => u.file !== file && new RegExp(`\\b${name}\\b`).test(u.text));
        if (!used) unused.push(`${file}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
