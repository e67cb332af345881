// Counts on workers under the Node flags real deployments set: a worker
// inherits them as a plain `new Worker` does, instead of rejecting the count
// with "invalid execArgv flags".
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli-in-dir.js';

const index = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const script = `const { count } = await import(${JSON.stringify(index)});
const a = await count(12, { threads: 2 });
const b = await count(12, { threads: 2, algorithm: 'join' });
console.log([a.total, a.unique, a.threads, b.total, b.unique, b.threads].join(" "));`;

describe('Node flags', () => {
  it.each([
    ['--max-old-space-size=4096'],
    ['--expose-gc'],
    ['--stack-size=2000'],
    ['--title=nqueens-test'],
    ['--max-old-space-size=4096', '--expose-gc', '--no-warnings'],
  ])('node %s: count on 2 workers is exact, by both algorithms', (...flags) => {
    const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect([r.status, r.stderr, r.stdout.trim()]).toEqual([0, '', '14200 1787 2 14200 1787 2']);
  });

  it('the CLI under --max-old-space-size counts on workers', () => {
    const r = spawnSync(process.execPath, ['--max-old-space-size=4096', cli, 'count', '12', '--threads', '2', '--json'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 12, total: '14200', unique: '1787', threads: 2 });
  });
});
