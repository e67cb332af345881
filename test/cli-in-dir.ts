// Runs the built CLI as a child process in a fresh temporary directory, for
// the tests of shards and checkpoints (files land in that directory).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** A run that outlasts this is killed (status null): a hang fails its test instead of blocking the whole suite. */
const HANG_MS = 100_000;

/** A new temporary directory, and `nqueens(...args)` running the CLI there to completion. */
export function cliInTempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const nqueens = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: HANG_MS, killSignal: 'SIGKILL' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { dir, nqueens };
}

/** A JSON file, parsed. */
export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * Node's arguments that make a CLI run print its peak resident memory (all
 * its threads: workers live in the same process) on stderr as it exits:
 * `peak-rss-kb N`, read back with peakRssKb.
 */
export const REPORT_PEAK_RSS = [
  '--import',
  `data:text/javascript,${encodeURIComponent(
    "import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => process.stderr.write('peak-rss-kb ' + process.resourceUsage().maxRSS + '\\n'));",
  )}`,
];

/** The peak resident memory a REPORT_PEAK_RSS run printed, in KB. */
export function peakRssKb(stderr: string): number {
  const match = /^peak-rss-kb (\d+)$/m.exec(stderr);
  if (!match) throw new Error(`no peak-rss-kb line in: ${stderr}`);
  return Number(match[1]);
}
