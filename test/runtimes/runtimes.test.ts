// The package under every runtime it supports: Node 20 (the one running
// this), Node 22 and 24, Deno and Bun each run test/runtimes/smoke.mjs
// (count with defaults, countSync, solutions, a count on two workers, abort)
// in a project where the package's tarball is installed, importing it by
// name as a user would.
// The other runtimes are prebuilt binaries from the npm registry, installed
// by `npm ci --prefix test/runtimes` (.ci/run does it); where one is missing
// its test is skipped with a message, unless NQUEENS_REQUIRE_RUNTIMES=1
// (set by .ci/run) makes that a failure.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked } from '../pack.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SMOKE = 'smoke.mjs'; // copied into the project, run from there
const ARGS = [SMOKE, 'nqueens-wasm'];
const REQUIRED = process.env.NQUEENS_REQUIRE_RUNTIMES === '1';
const bin = (path: string) => `${HERE}node_modules/${path}`;

const RUNTIMES: { name: string; command: string; args: string[]; version: RegExp }[] = [
  { name: 'Node 20 (this one)', command: process.execPath, args: ARGS, version: /^node v\d+\./ },
  { name: 'Node 22', command: bin('node22/bin/node'), args: ARGS, version: /^node v22\./ },
  { name: 'Node 24', command: bin('node24/bin/node'), args: ARGS, version: /^node v24\./ },
  // Deno: reading the package's files (and its worker file) is all it needs.
  { name: 'Deno', command: bin('@deno/linux-x64-glibc/deno'), args: ['run', '--allow-read', ...ARGS], version: /^deno 2\./ },
  { name: 'Bun', command: bin('@oven/bun-linux-x64/bin/bun'), args: ARGS, version: /^bun 1\./ },
];

let project: string;
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'nqueens-runtimes-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'runtimes-smoke', private: true, type: 'module', dependencies: { 'nqueens-wasm': '*' } }),
  );
  installPacked(project);
  copyFileSync(fileURLToPath(new URL('smoke.mjs', import.meta.url)), join(project, SMOKE));
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: project, encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe.each(RUNTIMES)('$name', ({ command, args, version }) => {
  const present = existsSync(command);
  if (!present && !REQUIRED) console.warn(`Skipping ${command}: not installed (npm ci --prefix test/runtimes).`);
  it.runIf(present || REQUIRED)('runs count, countSync, solutions and a threaded count', async () => {
    expect(existsSync(command), `${command} is missing: run npm ci --prefix test/runtimes`).toBe(true);
    const { code, stdout, stderr } = await run(command, args);
    const line = stdout.trim().split('\n').at(-1) ?? '';
    const report = JSON.parse(line || '{}') as { runtime?: string; ok?: boolean; failed?: unknown[] };
    expect({ code, failed: report.failed, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, failed: [], stderr: '' });
    expect(report.runtime).toMatch(version);
    expect(report.ok).toBe(true);
  });
});
