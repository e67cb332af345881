// The published types compile in a consumer's strictest setting: no DOM lib
// and no @types (lib ES2022, types []), strict, exactOptionalPropertyTypes,
// skipLibCheck: false, under moduleResolution node16, nodenext and bundler;
// and a real AbortSignal (DOM lib, Node's types, or both) fits
// CountOptions.signal. The fixtures in test/types/ are compiled by tsc
// against the package's tarball, unpacked into a temporary node_modules.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from './pack.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

describe('the published .d.ts compile with tsc', () => {
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'nqueens-types-'));
    cpSync(join(ROOT, 'test/types'), project, { recursive: true });
    installPacked(project);
    // Only the configurations that ask for them ("types": ["node"]) see Node's types.
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules/@types'), join(project, 'node_modules/@types'), 'dir');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it.each([
    ['node16', 'no DOM lib, no @types; an ESM and a CommonJS file'],
    ['nodenext', 'no DOM lib, no @types; an ESM and a CommonJS file'],
    ['bundler', 'no DOM lib, no @types'],
    ['dom', 'the DOM lib: a real AbortSignal fits'],
    ['node-types', "Node's types: its AbortSignal fits"],
    ['dom-and-node', 'the DOM lib and Node types together'],
  ])('tsconfig.%s.json (%s)', async (name) => {
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [TSC, '-p', `tsconfig.${name}.json`, '--pretty', 'false'],
        { cwd: project, encoding: 'utf8', timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
      );
    });
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  });
});
