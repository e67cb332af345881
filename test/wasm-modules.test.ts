// scripts/wasm-modules.mjs is the one table of the package's wasm modules:
// each row's build exists, stays within its budget, is SIMD exactly when its
// asconfig.json target enables SIMD, and a shipped row is inlined byte for
// byte under its constant.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as inlined from '../dist/engines/wasm-bytes.generated.js';
import * as inlinedLazily from '../dist/engines/wasm-shared-bytes.generated.js';
import { WASM_MODULES } from '../scripts/wasm-modules.mjs';
import { ROOT } from './pack.js';

const asconfig = JSON.parse(readFileSync(join(ROOT, 'asconfig.json'), 'utf8')) as {
  targets: Record<string, { enable?: string[] }>;
};

describe('scripts/wasm-modules.mjs', () => {
  it.each(WASM_MODULES.map((m) => [m.file, m] as const))('%s: built, within budget, SIMD as its target says', (_file, m) => {
    const bytes = readFileSync(join(ROOT, 'build', m.file));
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.length).toBeLessThanOrEqual(m.budget);
    expect(asconfig.targets[m.target]?.enable?.includes('simd') ?? false).toBe(m.simd);
    if (m.simd) expect(WebAssembly.validate(bytes)).toBe(true);
  });

  it('inlines every shipped module under its constant, and nothing else: the lazy ones in a file of their own', () => {
    const shipped = WASM_MODULES.filter((m) => m.constant !== null);
    expect(Object.keys(inlined).sort()).toEqual(
      shipped
        .filter((m) => !m.lazy)
        .map((m) => m.constant)
        .sort(),
    );
    expect(Object.keys(inlinedLazily).sort()).toEqual(
      shipped
        .filter((m) => m.lazy)
        .map((m) => m.constant)
        .sort(),
    );
    expect(Object.keys(inlinedLazily)).toEqual(['JOIN_WASM_SHARED_BASE64']);
    for (const m of shipped) {
      const text = ({ ...inlined, ...inlinedLazily } as Record<string, string>)[m.constant!];
      expect(Buffer.from(text, 'base64').equals(readFileSync(join(ROOT, 'build', m.file))), m.file).toBe(true);
    }
  });
});
