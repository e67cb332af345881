// tsc drops the executable bit; npm links bins on install, but `node dist/cli/main.js`
// and direct runs from a clone need it too.
import { chmodSync, existsSync } from 'node:fs';

const cli = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(cli)) chmodSync(cli, 0o755);
