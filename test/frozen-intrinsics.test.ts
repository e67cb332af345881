// Frozen built-ins (`node --frozen-intrinsics`, SES lockdown): the package
// assigns none, so it loads and counts there, on workers too, and so does
// the CLI. The vendored loader is the one place that used to assign one
// (Object.hasOwn): scripts/loader-without-globals.mjs rewrites it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withoutGlobalAssignments } from '../scripts/loader-without-globals.mjs';

const ROOT = new URL('..', import.meta.url);
const frozen = (args: string[]) =>
  spawnSync(process.execPath, ['--frozen-intrinsics', '--no-warnings', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('under node --frozen-intrinsics', () => {
  it('the library imports and counts, on this thread and on workers, with both engines', () => {
    // On workers: a completion count, whose units the calling thread never counts (count(12, { threads: 2 }) could end
    // there before a worker was up), with each engine; and count(16).
    const script = `import { count, countCompletions, countSync } from './dist/index.js';
const onWorkers = (engine) => countCompletions(12, [[0, 1]], { engine, threads: 2 }).then((r) => r.total + ' ' + r.engine + ' ' + r.threads);
const out = [countSync(10).total, countSync(10, { engine: 'js' }).total, await onWorkers('wasm'), await onWorkers('js'), (await count(16)).total];
console.log(out.join(', '));`;
    const r = frozen(['--input-type=module', '-e', script]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('724, 724, 806 wasm 2, 806 js 2, 14772512');
    expect(r.status).toBe(0);
  });

  it('the CLI counts', () => {
    const r = frozen(['dist/cli/main.js', 'count', '13', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 13, total: '73712', unique: '9233' });
  });
});

describe('the vendored loader', () => {
  it('assigns no built-in: its Object.hasOwn fallback is a local function', () => {
    const vendored = readFileSync(new URL('../dist/vendor/assemblyscript-loader.js', import.meta.url), 'utf8');
    expect(vendored).not.toMatch(/Object\.hasOwn\s*=[^=]/);
    expect(vendored).toContain('const hasOwn = Object.hasOwn || function(obj, prop) {');
    expect(vendored).not.toContain('Object.hasOwn(');
  });

  it('the rewrite refuses a loader that assigns a built-in some other way, or whose polyfill changed', () => {
    const source = readFileSync(new URL('../node_modules/@assemblyscript/loader/index.js', import.meta.url), 'utf8');
    expect(withoutGlobalAssignments(source)).not.toMatch(/^Object\.hasOwn =/m);
    expect(() => withoutGlobalAssignments(`${source}\nArray.prototype.at = function () {};\n`)).toThrow(
      /assigns a built-in: Array\.prototype\.at =/,
    );
    expect(() => withoutGlobalAssignments(source.replace('Object.hasOwn = Object.hasOwn ||', 'Object.hasOwn ??='))).toThrow(
      /polyfill changed/,
    );
  });
});
