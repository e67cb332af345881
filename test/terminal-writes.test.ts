// The CLI's terminal writer (src/cli/terminal.ts) against a stand-in
// terminal: node:fs and node:tty replaced, so that a write can be taken in
// part, as a pty whose buffer is nearly full takes it. A real pty rarely
// does this on demand (test/held-terminal.test.ts holds one whole).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** What the stand-in terminal took, write by write, and how much of the next writes it takes. */
const tty = vi.hoisted(() => ({ taken: [] as string[], takes: [] as number[], opened: 0 }));

vi.mock('node:tty', () => ({ isatty: () => true }));
vi.mock('node:fs', async (original) => ({
  ...(await original<typeof import('node:fs')>()),
  fstatSync: () => ({ rdev: 34816 }), // stdout, stderr and the terminal opened anew: one device
  readlinkSync: () => '/dev/pts/3',
  openSync: () => 100 + tty.opened++,
  closeSync: () => undefined,
  writeSync: (_fd: number, buffer: Buffer) => {
    const n = Math.min(buffer.length, tty.takes.shift() ?? buffer.length);
    tty.taken.push(buffer.subarray(0, n).toString('utf8'));
    return n;
  },
}));

const { terminalOf } = await import('../dist/cli/terminal.js');

beforeEach(() => {
  vi.useFakeTimers();
  tty.taken = [];
  tty.takes = [];
});
afterEach(() => vi.useRealTimers());

describe('a terminal that takes a write in part', () => {
  it('a progress frame cut short is finished by the next writes, never left half drawn', async () => {
    const terminal = terminalOf(1)!;
    tty.takes = [5]; // "\r 42%" now, the rest once it takes more
    terminal.writeIfFree('\r 42% counted');
    expect(tty.taken).toEqual(['\r 42%']);
    await vi.runAllTimersAsync();
    expect(tty.taken).toEqual(['\r 42%', ' counted']);
    await expect(terminal.drained()).resolves.toBeUndefined();
  });

  it('a message written while a frame waits comes after the frame, whole', async () => {
    const terminal = terminalOf(1)!;
    tty.takes = [3, 0];
    terminal.writeIfFree('\r 7% of 12');
    terminal.write('done\n'); // behind the frame's rest: not tried now
    expect(tty.taken).toEqual(['\r 7']);
    await vi.runAllTimersAsync();
    expect(tty.taken.join('')).toBe('\r 7% of 12done\n');
    expect(tty.taken.filter((s) => s !== '')).toEqual(['\r 7', '% of 12', 'done\n']);
  });

  it("a frame offered while the last frame's rest waits is dropped, not drawn into the middle of it", async () => {
    const terminal = terminalOf(1)!;
    tty.takes = [3];
    terminal.writeIfFree('\r 7% of 12');
    terminal.writeIfFree('\r 8% of 12'); // the terminal has not taken the rest of the last one
    expect(tty.taken).toEqual(['\r 7']);
    await vi.runAllTimersAsync();
    expect(tty.taken).toEqual(['\r 7', '% of 12']);
    await expect(terminal.drained()).resolves.toBeUndefined();
  });

  it('stdout and stderr on one terminal share one writer, so their output keeps its order', async () => {
    const out = terminalOf(1)!;
    const err = terminalOf(2)!;
    expect(err).toBe(out);
    tty.takes = [4];
    out.write('N    16\n');
    err.write('nqueens: interrupted\n'); // waits behind stdout's rest
    await vi.runAllTimersAsync();
    expect(tty.taken.join('')).toBe('N    16\nnqueens: interrupted\n');
  });
});
