// The Dawn instance's lifetime (issue 43), without a GPU: a child Node
// process counts with engine 'webgpu' against a stand-in `webgpu` package
// (test/fixtures/webgpu/fake-webgpu.mjs) that crashes when a device
// outlives its instance, as Dawn does, keeps Node running while the instance
// is referenced (stricter than Dawn over lavapipe, which exits: so one left
// held shows), and collects garbage before every GPU operation. The package must
// hold the instance through each count and let it go after, so the child
// exits by itself.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CRASH_EXIT_CODE } from './fixtures/webgpu/fake-webgpu.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs lifetime-child.mjs; a child that never exits is killed (and fails the test) after a minute. */
function runChild(
  mode: string,
  env: Record<string, string> = {},
): { status: number | null; lines: Record<string, unknown>[]; stderr: string } {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', './test/fixtures/webgpu/use-fake-webgpu.mjs', 'test/fixtures/webgpu/lifetime-child.mjs', mode],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
  );
  const lines = child.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { status: child.status, lines, stderr: child.stderr };
}

describe('the Dawn instance of the webgpu package', () => {
  it('is held through every count while garbage is collected, shared by counts at once, then released so Node exits by itself', () => {
    const { status, lines, stderr } = runChild('count');
    expect(stderr).toBe('');
    // A count may reuse the instance of the one before it while that one's device is being destroyed.
    const { created, collected } = (lines.at(-1)?.exited ?? {}) as { created?: number; collected?: number };
    expect(lines.slice(0, 3)).toEqual([
      { n: 8, total: '92', unique: '12', engine: 'webgpu', heldDuring: true },
      { n: 10, total: '724', unique: '92', engine: 'webgpu', heldDuring: true },
      { n: 12, total: '14200', unique: '1787', engine: 'webgpu', heldDuring: true },
    ]);
    expect(lines[3]).toEqual({ devicesForThree: 1, idleAfterThree: true }); // each count reused the device the one before it left waiting
    expect(lines[4]).toEqual({ afterLoss: '352', devices: 2 }); // the lost one was not reused
    expect(lines[5]).toMatchObject({ together: ['352', '2680'] });
    expect(lines[5].newInstances).toBeLessThanOrEqual(1); // the two counts at once share one
    expect(lines[6]).toEqual({ aborted: 'AbortError', idleAfterAbort: false });
    expect(lines[7]).toEqual({ heldAfter: false, idleAfter: false });
    // Node exits only once every instance is collected (each keeps it running, as Dawn's does).
    expect(created).toBeGreaterThanOrEqual(1);
    expect(collected).toBe(created);
    expect(lines).toHaveLength(9);
    expect(status).toBe(0);
  });

  // Before, a device lost while it waited between counts, which had not yet said so, failed the next count.
  it('a waiting device lost unreported: the next count runs again on a new device; a new device lost fails the count', () => {
    const { status, lines, stderr } = runChild('lost-unreported');
    expect(stderr).toBe('');
    expect(lines).toEqual([
      { retried: '724', starts: 2, devices: 2 }, // started on the lost device, then on a new one: exact
      { fresh: 'ERR_NQUEENS_WEBGPU_FAILED', starts: 1, devices: 1 }, // its own device lost: coded, not run again
    ]);
    expect(status).toBe(0);
  });

  it('a waiting device lost after the count read a dispatch back: the count fails, coded, and is not run again', () => {
    // A 4 KiB storage binding holds 256 branches: the plan cuts n = 10's 889 units into 4 dispatches.
    const { status, lines, stderr } = runChild('lost-after-read-back', { FAKE_WEBGPU_BINDING_BYTES: '4096' });
    expect(stderr).toBe('');
    // Two dispatches ran: the one read back, and the one queued behind it, which the loss stopped.
    expect(lines).toEqual([{ outcome: 'ERR_NQUEENS_WEBGPU_FAILED', devicesOpened: 0, dispatches: 2 }]);
    expect(status).toBe(0);
  });

  // The second run makes every wait of a second or more end at once: as if the queued dispatches outlasted any cap on
  // the wait (a slow GPU, lavapipe).
  it.each([
    ['rejects at once; its device is destroyed once they have ended, not under them', {}],
    ['its device waits for them however long they run, never destroyed under them', { LONG_WAITS_AT_ONCE: '1' }],
    // Before, a navigator.gpu the program made from the package was taken for a browser's: destroyed at once, under them.
    ["on the program's own navigator.gpu from the package: the same", { NAVIGATOR_GPU: '1' }],
    // The program lets its navigator.gpu go once the count has rejected: its device, still draining, holds it.
    ["on the program's own navigator.gpu, let go as the count rejects: the same, no crash", { NAVIGATOR_GPU: '1', DROP_NAVIGATOR: '1' }],
  ])('a count aborted with dispatches queued: %s', (_, env) => {
    const { status, lines, stderr } = runChild('abort-drains', { FAKE_WEBGPU_HOLD: '1', ...env });
    expect(stderr).toBe('');
    expect(lines).toEqual([
      { aborted: 'AbortError', queued: true, destroyedBeforeDrained: false },
      { destroyed: true, queuedAtDestroy: 0 },
    ]);
    expect(status).toBe(0);
  });

  it('a count aborted while its device opens rejects at once; the device, once open, is closed unused and Node exits', () => {
    const { status, lines, stderr } = runChild('abort-opening');
    expect(stderr).toBe('');
    expect(lines.slice(0, 2)).toEqual([
      { aborted: 'AbortError', devicesOpen: 0 }, // rejected before the device opened
      { heldAfter: false, destroyed: [true], dispatches: [0] },
    ]);
    expect(lines[2]).toEqual({ exited: { created: 1, collected: 1, devices: 1 } });
    expect(status).toBe(0);
  });

  it('the stand-in does crash when a device outlives its instance (the bug this guards against)', () => {
    const { status, lines, stderr } = runChild('dropped');
    expect(lines).toEqual([]);
    expect(stderr).toMatch(/CRASH: the instance was collected while its device was in use/);
    expect(status).toBe(CRASH_EXIT_CODE);
  });
});
