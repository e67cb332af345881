import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { VERSION } from '../dist/shared/version.js';

it('VERSION (stamped into shards and checkpoints) matches package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(VERSION).toBe(pkg.version);
});
