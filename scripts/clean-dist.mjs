// tsc never deletes outputs of files that were moved or removed, so every
// build starts from an empty dist/: nothing stale can ship.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
