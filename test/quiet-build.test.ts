// Install and build print only what a user can act on, and a release's
// tarball never shows up as an untracked file.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { withoutNoise } from '../scripts/quiet-asc.mjs';
import { ROOT } from './pack.js';

describe('the wasm build', () => {
  it("drops binaryen's 'Last converge was suboptimal.' and keeps every other line", () => {
    const asc =
      'Last converge was suboptimal.\nWARNING AS201: Conversion from type i64 to i32\nLast converge was suboptimal.\r\nERROR TS2304\n';
    expect(withoutNoise(asc)).toBe('WARNING AS201: Conversion from type i64 to i32\nERROR TS2304\n');
    expect(withoutNoise('')).toBe('');
  });
});

describe('release tarballs', () => {
  it.each(['nqueens-wasm-0.1.0.tgz', 'nqueens-wasm-1.2.3-beta.1.tgz', '.release/package.json'])('git ignores %s', (path) => {
    const r = spawnSync('git', ['check-ignore', '--no-index', '-q', path], { cwd: ROOT });
    expect(r.status).toBe(0);
  });

  it('but not the tarballs of other packages (test fixtures may hold some)', () => {
    const r = spawnSync('git', ['check-ignore', '--no-index', '-q', 'test/fixtures/other-1.0.0.tgz'], { cwd: ROOT });
    expect(r.status).toBe(1);
  });
});
