// docs/ARCHITECTURE.md is the map of the code: every path its layout table
// names exists, every source file lies under a path it names, and no two
// source files share a name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
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
});
