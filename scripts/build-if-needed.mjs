// Builds only the steps whose inputs changed since they were last built
// (scripts/build-stamp.mjs): `prepare` (npm install in a clone, and npx
// running this clone's CLI), `npm test`, the demo and the benchmarks run it,
// so a second run on an unchanged tree starts at once instead of rebuilding
// for a minute. `npm run build` always rebuilds everything.
import { execFileSync } from 'node:child_process';
import { isCurrent, root, STEPS } from './build-stamp.mjs';

// --check: only say whether a build is due (the tests ask, and must never start one).
if (process.argv.includes('--check')) {
  const fresh = Object.keys(STEPS).every(isCurrent);
  console.log(fresh ? 'up to date' : 'stale');
  process.exit(fresh ? 0 : 1);
}
// In order: the wasm step writes sources the TypeScript step reads.
for (const [step, { script, output }] of Object.entries(STEPS)) {
  if (isCurrent(step)) {
    console.log(`nqueens-wasm: ${output} is current (its inputs are unchanged); skipping npm run ${script}`);
    continue;
  }
  execFileSync('npm', ['run', script], { cwd: root, stdio: 'inherit' });
}
