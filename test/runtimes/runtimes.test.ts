// The package under every runtime it supports: Node 20 (the one running
// this), Node 22 and 24, Deno and Bun each run test/runtimes/smoke.mjs
// (count with defaults, countSync, solutions, a count on two workers, abort).
// The other runtimes are prebuilt binaries from the npm registry, installed
// by `npm ci --prefix test/runtimes` (.ci/run does it); where one is missing
// its test is skipped with a message, unless NQUEENS_REQUIRE_RUNTIMES=1
// (set by .ci/run) makes that a failure.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SMOKE = fileURLToPath(new URL('smoke.mjs', import.meta.url));
const REQUIRED = process.env.NQUEENS_REQUIRE_RUNTIMES === '1';
const bin = (path: string) => `${HERE}node_modules/${path}`;

const RUNTIMES: { name: string; command: string; args: string[]; version: RegExp }[] = [
  { name: 'Node 20 (this one)', command: process.execPath, args: [SMOKE], version: /^node v\d+\./ },
  { name: 'Node 22', command: bin('node22/bin/node'), args: [SMOKE], version: /^node v22\./ },
  { name: 'Node 24', command: bin('node24/bin/node'), args: [SMOKE], version: /^node v24\./ },
  // Deno: reading the package's files (and its worker file) is all it needs.
  { name: 'Deno', command: bin('@deno/linux-x64-glibc/deno'), args: ['run', '--allow-read', SMOKE], version: /^deno 2\./ },
  { name: 'Bun', command: bin('@oven/bun-linux-x64/bin/bun'), args: [SMOKE], version: /^bun 1\./ },
];

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
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
