// `prepare` (npm install in a clone, and npx running this clone's CLI): builds
// only when something the build reads is newer than what it wrote, so a
// second install, or the first `npx nqueens-wasm count 16` after
// `npm install`, starts at once instead of rebuilding for 20 s.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'assembly', 'scripts', 'asconfig.json', 'package.json', 'tsconfig.json'];
/** Written last by `npm run build` (scripts/make-cli-executable.mjs). */
const OUTPUT = 'dist/cli/main.js';

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newest(join(path, name))));
}

const built = existsSync(join(root, OUTPUT)) ? statSync(join(root, OUTPUT)).mtimeMs : 0;
const fresh = INPUTS.every((input) => newest(input) <= built);
// --check: only say whether a build is due (the tests ask, and must never start one).
if (process.argv.includes('--check')) {
  console.log(fresh ? 'up to date' : 'stale');
  process.exit(fresh ? 0 : 1);
}
if (fresh) {
  console.log(`nqueens-wasm: ${OUTPUT} is newer than its sources; skipping the build (npm run build forces one)`);
  process.exit(0);
}
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
