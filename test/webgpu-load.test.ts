// The `webgpu` package in Node, as the engine loads it: not installed, or installed but failing to load (a native
// binary built for another platform or glibc). Each is ERR_NQUEENS_WEBGPU_UNAVAILABLE saying which; the second with
// the load's own error as the cause, not as if the package were missing.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = `
const { count } = await import(${JSON.stringify(new URL('../dist/node/index.js', import.meta.url).href)});
for (const key of (process.env.POLLUTE ?? '').split(',').filter(Boolean)) Object.prototype[key] = 1; // other code's keys
const error = await count(8, { engine: 'webgpu' }).then((r) => ({ total: String(r.total) }), (e) => e);
console.log(JSON.stringify({ code: error?.code, message: error?.message, cause: error?.cause?.message ?? null, total: error?.total }));
`;

/** count(8, { engine: 'webgpu' }) with the stand-in package `fake` (undefined: one that works), keys `pollute` set on Object.prototype. */
function countWith(fake: string | undefined, pollute = '') {
  const env: NodeJS.ProcessEnv = { ...process.env, FAKE_WEBGPU: fake, POLLUTE: pollute };
  if (fake === undefined) delete env.FAKE_WEBGPU;
  const child = spawnSync(
    process.execPath,
    ['--import', './test/fixtures/webgpu/use-fake-webgpu.mjs', '--input-type=module', '-e', SCRIPT],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env,
    },
  );
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout.trim()) as { code: string; message: string; cause: string | null; total?: string };
}

describe("the 'webgpu' package in Node", () => {
  it('not installed: unavailable, saying it is not installed', () => {
    expect(countWith('missing')).toEqual({
      code: 'ERR_NQUEENS_WEBGPU_UNAVAILABLE',
      message:
        "engine 'webgpu' is unavailable here: Node has no navigator.gpu, and the optional 'webgpu' package (Dawn) is not installed. Use engine 'wasm' or 'js' to count on the CPU.",
      cause: null,
    });
  });

  it('installed without a binary for this platform (its require() of it is MODULE_NOT_FOUND): installed, not missing', () => {
    const r = countWith('no-binary');
    expect(r.code).toBe('ERR_NQUEENS_WEBGPU_UNAVAILABLE');
    expect(r.message).toMatch(
      /^engine 'webgpu' is unavailable here: the optional 'webgpu' package \(Dawn\) is installed but does not load here \(Cannot find module '[^'\n]*no-such-platform\/dawn\.node'\)\. Use engine 'wasm' or 'js' to count on the CPU\.$/,
    );
    expect(r.cause).toMatch(/^Cannot find module '[^']*no-such-platform\/dawn\.node'/);
  });

  it('installed but failing to load: unavailable, saying so, with the load error as the cause', () => {
    const why = "stand-in: dawn.node: version `GLIBC_9.99' not found";
    expect(countWith('broken')).toEqual({
      code: 'ERR_NQUEENS_WEBGPU_UNAVAILABLE',
      message: `engine 'webgpu' is unavailable here: the optional 'webgpu' package (Dawn) is installed but does not load here (${why}). Use engine 'wasm' or 'js' to count on the CPU.`,
      cause: why,
    });
  });

  // The package's state was read with `in`: a key set on Object.prototype made a missing package "broken", and a
  // working one refused.
  it('reads its state of the package through no key of Object.prototype (broken, missing, gpu)', () => {
    expect(countWith('missing', 'broken,gpu')).toMatchObject({ code: 'ERR_NQUEENS_WEBGPU_UNAVAILABLE', cause: null });
    expect(countWith('missing', 'broken').message).toMatch(/the optional 'webgpu' package \(Dawn\) is not installed\./);
    expect(countWith(undefined, 'broken,missing')).toEqual({ code: undefined, message: undefined, cause: null, total: '92' });
  });
});
