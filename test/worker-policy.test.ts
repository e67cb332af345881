// Where a page has Trusted Types, workers start with their URL passed through
// the package's own policy, 'nqueens-wasm' (src/run/spawn.ts, withPolicy):
// the global Worker is swapped for the call. A page whose Worker cannot be
// reassigned (frozen) still gets its workers tried, with the plain URL. A
// file of its own: the policy is made once per module instance.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { count } from '../dist/index.js';
import { closeIdleWorkers } from '../dist/run/pool.js';
import { startWorkersAsPage } from '../dist/run/spawn.js';
import { TOTAL } from './oeis.js';

/** A worker a CSP refuses (an error event before its first message), recording the URL it was given. */
class Recording {
  static urls: unknown[] = [];
  onmessage: unknown = null;
  onmessageerror: unknown = null;
  constructor(url: unknown) {
    Recording.urls.push(url);
  }
  set onerror(handler: (event: unknown) => void) {
    queueMicrotask(() => handler({ message: '', preventDefault: () => undefined }));
  }
  postMessage(): void {}
  terminate(): void {}
}

const scope = globalThis as { Worker?: unknown; trustedTypes?: unknown };
const policies: string[] = [];

beforeAll(() => {
  scope.trustedTypes = {
    createPolicy(name: string, rules: { createScriptURL(url: string): string }) {
      policies.push(name);
      return { createScriptURL: (url: string) => ({ policy: name, url: rules.createScriptURL(url) }) };
    },
  };
});
beforeEach(() => {
  Recording.urls = [];
  startWorkersAsPage(true); // and forget the refusal of the test before
});
afterAll(async () => {
  startWorkersAsPage(false);
  delete scope.Worker;
  delete scope.trustedTypes;
  await closeIdleWorkers();
});

it("a worker's URL goes through the package's policy, made once, and the page's Worker is put back", async () => {
  scope.Worker = Recording;
  expect(await count(12, { threads: 2 })).toMatchObject({ total: TOTAL[12], threads: 1 });
  expect(Recording.urls.length).toBeGreaterThan(0); // each worker the count started before the refusal came
  for (const url of Recording.urls) expect(url).toEqual({ policy: 'nqueens-wasm', url: expect.stringMatching(/\/worker\.js$/) });
  expect(scope.Worker).toBe(Recording);
  startWorkersAsPage(true);
  await count(12, { threads: 2 });
  expect(policies).toEqual(['nqueens-wasm']);
});

it('a page whose Worker cannot be reassigned still has its worker tried, with the plain URL', async () => {
  Object.defineProperty(scope, 'Worker', { value: Recording, writable: false, configurable: true });
  expect(await count(12, { threads: 2 })).toMatchObject({ total: TOTAL[12], threads: 1 });
  expect(Recording.urls.length).toBeGreaterThan(0);
  for (const url of Recording.urls) expect(String(url)).toMatch(/\/worker\.js$/);
});
