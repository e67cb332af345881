// Takaken's N-Queens program (bitmask backtracking with his symmetry pruning:
// Backtrack1/Backtrack2, BOUND1/BOUND2, SIDEMASK/LASTMASK, the rotation check),
// as kept in suzukiiichiro/N-Queens: 06OpenCL/07_15NQueen_t.c is his ver3.2
// (2011), 06OpenCL/07_10NQueen.c his ver3.1 (2003). Both print the same table.
//
//   NQUEENS_PEER_TAKAKEN_BIN  path of the user's binary of either (build: README.md here)
//
// The program takes no arguments: it counts N = 2, 3, ... up to its MAXSIZE (27
// for ver3.2, 24 for ver3.1) and prints one line per N with the CPU time of that
// N alone (clock(), shown to 0.01 s). We run it under `stdbuf -oL` (GNU coreutils)
// so each line arrives as printed, and kill it as soon as the line for n is in:
// `seconds` is the program's own time for n (CPU time); the smaller sizes run
// before it (about a sixth more wall time) but are not counted. `wallSeconds` is
// the wall time between the lines for n - 1 and n arriving, i.e. n alone: on a
// busy host CPU time understates what the others' wall times would show.
import { execFileSync, spawnSync } from 'node:child_process';

// Runs in a child node process so that the contestant stays synchronous.
const watcher = `
const { spawn } = require('node:child_process');
const readline = require('node:readline');
const [binary, n] = process.argv.slice(1);
const child = spawn('stdbuf', ['-oL', binary], { stdio: ['ignore', 'pipe', 'inherit'] });
let found = null;
let previous = performance.now();
readline.createInterface({ input: child.stdout }).on('line', (line) => {
  const m = /^\\s*(\\d+):\\s+(\\d+)\\s+(\\d+)\\s+(.+?)\\s*$/.exec(line);
  const now = performance.now();
  if (found || !m) return;
  if (m[1] !== n) { previous = now; return; }
  found = { total: m[2], time: m[4], wall: (now - previous) / 1000 };
  child.kill('SIGKILL');
});
child.on('close', () => process.stdout.write(JSON.stringify(found)));
`;

/** "1.39", "2:05.33", "1:02:05.33" or "3 01:02:05.33" (days hh:mm:ss.--) to seconds. */
function parseTime(text) {
  const parts = text.trim().split(/\s+/);
  const days = parts.length > 1 ? Number(parts[0]) : 0;
  const clock = parts[parts.length - 1].split(':').reduce((s, x) => s * 60 + Number(x), 0);
  return days * 86400 + clock;
}

export function contestant(binary) {
  if (spawnSync('stdbuf', ['--version']).status !== 0) {
    throw new Error('Takaken peer: needs stdbuf (GNU coreutils) to read its lines as they are printed');
  }
  return (n) => {
    if (n < 5 || n > 27) return undefined; // ver3.2 prints 0 for N = 4; MAXSIZE is 27 (ver3.1: 24)
    const out = execFileSync(process.execPath, ['-e', watcher, binary, String(n)], { encoding: 'utf8' });
    const found = JSON.parse(out);
    if (found === null) return undefined; // past the program's MAXSIZE
    return { total: BigInt(found.total), seconds: parseTime(found.time), wallSeconds: found.wall };
  };
}
