// The CLI on a terminal that holds its output (Ctrl-S, or a reader that
// stops reading): a stop signal still ends it, with its message and status.
// Node writes a terminal blocking, so before, the command sat in write(2)
// and no signal's handler ran until the terminal took output again. Run on
// a pseudo-terminal by test/fixtures/held-terminal.py, which signals only
// once the command has met the held terminal (the fixture held-terminal.mjs
// says so), and reports a command still running after the signal as hung.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The pty harness needs python3: CI installs it (.ci/run); elsewhere these tests are skipped without it. */
const HAVE_PYTHON = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const harness = fileURLToPath(new URL('fixtures/held-terminal.py', import.meta.url));
const sayBlocked = fileURLToPath(new URL('fixtures/held-terminal.mjs', import.meta.url));

interface Held {
  status: number | 'hung';
  stderr: string;
  held: boolean;
  terminal: string;
}

/** `args` run on a terminal held by `hold`, then stopped by `signal`; stderr to a pipe or to the held terminal. */
function onHeldTerminal(hold: 'xoff' | 'unread' | 'none', signal: string, stderr: 'pipe' | 'terminal', ...args: string[]): Held {
  const r = spawnSync('python3', [harness, hold, signal, stderr, '--', process.execPath, '--import', sayBlocked, cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HELD_DEADLINE: '30' },
  });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Held;
}

describe.skipIf(process.platform !== 'linux' || !HAVE_PYTHON)('a terminal that holds output', () => {
  it('Ctrl-S: SIGINT ends --help, whose page the terminal has not taken, with exit 130 and its message', () => {
    const { status, stderr, held } = onHeldTerminal('xoff', 'SIGINT', 'pipe', '--help');
    expect({ status, stderr, held }).toEqual({ status: 130, stderr: 'nqueens: interrupted\n', held: true });
  });

  it('Ctrl-S: SIGTERM ends a count whose result the terminal holds, exit 143', () => {
    const { status, stderr, held } = onHeldTerminal('xoff', 'SIGTERM', 'pipe', 'count', '6', '--threads', '1');
    expect({ status, stderr, held }).toEqual({ status: 143, stderr: 'nqueens: interrupted (SIGTERM)\n', held: true });
  });

  it('a reader that stops reading: SIGTERM ends a listing that filled the terminal, exit 143', () => {
    const { status, stderr, held, terminal } = onHeldTerminal('unread', 'SIGTERM', 'pipe', 'solve', '12', '--limit', 'all');
    expect({ status, stderr, held }).toEqual({ status: 143, stderr: 'nqueens: interrupted (SIGTERM)\n', held: true });
    expect(terminal.startsWith('# solution 1: [0,2,4,7,9,11,5,10,1,6,8,3]\r\n')).toBe(true);
  });

  it('stderr on the held terminal too (the progress bar and the message held): SIGTERM still exits 143', () => {
    const { status, held } = onHeldTerminal('xoff', 'SIGTERM', 'terminal', 'count', '16', '--threads', '1');
    expect({ status, held }).toEqual({ status: 143, held: true });
  });

  it('a terminal that takes its output gets all of it, in order, stdout and stderr alike', () => {
    const listing = onHeldTerminal('none', '-', 'terminal', 'solve', '6', '--limit', 'all', '--format', 'json');
    expect(listing).toEqual({
      status: 0,
      stderr: '',
      held: false,
      terminal: '[1,3,5,0,2,4]\r\n[2,5,1,4,0,3]\r\n[3,0,4,1,5,2]\r\n[4,2,0,5,3,1]\r\n',
    });
    const refused = onHeldTerminal('none', '-', 'terminal', 'count', '4..5', '--threads', '1', '--json', '--engine', 'gpu');
    expect(refused.status).toBe(2);
    expect(refused.terminal).toMatch(
      /^nqueens: --engine must be auto, wasm, js, reference or webgpu; got "gpu" \(see nqueens --help\)\r\n$/,
    );
    const table = onHeldTerminal('none', '-', 'pipe', 'count', '4..5', '--threads', '1', '--json');
    expect(table.terminal.split('\r\n').map((line) => line && JSON.parse(line).total)).toEqual(['2', '10', '']);
  });
});
