// Runs the built CLI as a child process in a fresh temporary directory, for
// the tests of shards and checkpoints (files land in that directory).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** A new temporary directory, and `nqueens(...args)` running the CLI there to completion. */
export function cliInTempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const nqueens = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { dir, nqueens };
}

/** A JSON file, parsed. */
export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
