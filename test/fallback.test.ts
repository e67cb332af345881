// Without WebAssembly, 'auto' falls back to the TypeScript kernel. Each case
// runs in a fresh Node process so the module cache cannot hide anything.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOTAL } from './oeis.js';

const index = fileURLToPath(new URL('../dist/node/index.js', import.meta.url));
const breakCompile = fileURLToPath(new URL('./fixtures/break-wasm-compile.mjs', import.meta.url));
const joinSimd = fileURLToPath(new URL('../build/nqueens-join-simd.wasm', import.meta.url));
const refuseLarge = fileURLToPath(new URL('./fixtures/refuse-large-sync-compile.mjs', import.meta.url));

function run(nodeArgs: string[], script: string): unknown {
  const source = `import * as q from ${JSON.stringify(index)};\n${script}`;
  const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', source], { encoding: 'utf8' });
  return JSON.parse(out);
}

const COUNT_AND_LIST = `
const r = await q.count(12);
const s = q.countSync(9);
let wasmError = null;
try { q.countSync(6, { engine: 'wasm' }); } catch (e) { wasmError = e.message; }
console.log(JSON.stringify({
  hasWebAssembly: typeof WebAssembly,
  engine: r.engine, total: String(r.total), unique: String(r.unique),
  syncEngine: s.engine, syncTotal: String(s.total),
  first: [...q.solutions(6, { limit: 1 })][0],
  wasmError,
}));`;

describe('fallback to the TypeScript kernel', () => {
  it('when WebAssembly is missing (node --no-expose-wasm)', () => {
    const r = run(['--no-expose-wasm'], COUNT_AND_LIST) as Record<string, unknown>;
    expect(r).toMatchObject({
      hasWebAssembly: 'undefined',
      engine: 'js',
      total: '14200',
      unique: '1787',
      syncEngine: 'js',
      syncTotal: '352',
      first: [1, 3, 5, 0, 2, 4],
    });
    expect(r.wasmError).toMatch(/engine 'wasm' is unavailable here \(WebAssembly is not available\)/);
  });

  it('when WebAssembly refuses to compile (as under a strict CSP)', () => {
    const r = run(['--import', breakCompile], COUNT_AND_LIST) as Record<string, unknown>;
    expect(r).toMatchObject({ hasWebAssembly: 'object', engine: 'js', total: '14200', unique: '1787', syncEngine: 'js' });
    expect(r.wasmError).toMatch(/engine 'wasm' is unavailable here \(.*Refused to compile/);
  });

  it('control: the same script uses wasm when nothing is removed', () => {
    const r = run([], COUNT_AND_LIST) as Record<string, unknown>;
    expect(r).toMatchObject({ engine: 'wasm', total: '14200', wasmError: null });
  });
});

describe('a runtime that compiles at most 4 KB synchronously (Chrome before 114, on a page)', () => {
  it('counts the join with its build without SIMD, exact at n = 1..16, and the search with SIMD', () => {
    const r = run(
      ['--import', refuseLarge],
      `const totals = [];
for (let n = 1; n <= 16; n++) totals.push(String(q.countSync(n, { algorithm: 'join', engine: 'wasm' }).total));
const search = q.countSync(12, { algorithm: 'search', engine: 'wasm' });
console.log(JSON.stringify({ totals, search: [search.engine, String(search.total)], sizes: globalThis.compiledSizes, refused: globalThis.refusedSizes }));`,
    ) as { totals: string[]; search: string[]; sizes: number[]; refused: number[] };
    expect(r.totals).toEqual(Array.from({ length: 16 }, (_, i) => String(TOTAL[i + 1])));
    expect(r.search).toEqual(['wasm', '14200']);
    // Every module it compiled fits in 4 KB: the join's SIMD build (over 4 KB) was refused and its plain build used.
    expect(r.sizes.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...r.sizes)).toBeLessThanOrEqual(4096);
    expect(r.refused).toEqual([statSync(joinSimd).size]);
  });
});
