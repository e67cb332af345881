// What `--json` prints, command by command: the keys of each object, in
// their order, are those docs/cli.md lists, so a script that reads them can
// rely on the page (before, only the shard summary's keys were written down).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliInTempDir } from './cli-in-dir.js';

const { nqueens } = cliInTempDir('nqueens-json-shapes-');
const docs = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

/** `{"n","total",…}`: keys as docs/cli.md writes them. */
const documented = (keys: string[]): string => `{${keys.map((k) => JSON.stringify(k)).join(',')}}`;

const COUNT = ['n', 'total', 'unique', 'engine', 'algorithm', 'threads', 'elapsedMs'];
const PLACED = ['n', 'total', 'engine', 'threads', 'elapsedMs', 'placed'];
const MERGE = ['n', 'total', 'unique', 'shards', 'units', 'method', 'depth', 'plan', 'elapsedMs'];

/** The key lists of every line of a command's stdout, which must succeed (merge --verify says what it verifies on stderr). */
function keysOf(...args: string[]): string[][] {
  const r = nqueens(...args);
  expect([r.code, r.stderr.includes('nqueens:')]).toEqual([0, false]);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => Object.keys(JSON.parse(line) as object));
}

describe('--json prints the keys docs/cli.md lists, in its order', () => {
  it.each([
    ['count', ['count', '8', '--json'], [COUNT]],
    ['a range', ['count', '4..6', '--json'], [COUNT, COUNT, COUNT]],
    ['a count with --checkpoint', ['count', '9', '--checkpoint', 'n9.ckpt', '--json'], [COUNT]],
    ['count --placed', ['count', '8', '--placed', '0:0', '--json'], [PLACED]],
  ])('%s', (_what, args, lines) => {
    expect(keysOf(...args)).toEqual(lines);
    for (const keys of lines) expect(docs.includes(documented(keys)), documented(keys)).toBe(true);
  });

  it('merge, and merge --verify with verified and seed after them', () => {
    expect(nqueens('count', '9', '--shard', '0/1', '--out', 's.json').code).toBe(0);
    expect(keysOf('merge', 's.json', '--json')).toEqual([MERGE]);
    expect(keysOf('merge', 's.json', '--json', '--verify', '2', '--seed', '1')).toEqual([[...MERGE, 'verified', 'seed']]);
    // --verify 0 too, with its seed: before, 0 dropped both keys, and the --seed given with it.
    const zero = nqueens('merge', 's.json', '--json', '--verify', '0', '--seed', '7');
    expect(JSON.parse(zero.stdout)).toMatchObject({ verified: 0, seed: 7 });
    // In words: none recounted is no match claimed, and one unit is one.
    expect(nqueens('merge', 's.json', '--verify', '0').stdout).toMatch(/^verify\s+no unit recounted \(--verify 0\)$/m);
    expect(nqueens('merge', 's.json', '--verify', '1', '--seed', '3').stdout).toMatch(
      /^verify\s+1 random unit recounted, all match \(seed 3\)$/m,
    );
    const merge = `${documented(MERGE)}\`, then \`"verified","seed"\` with \`--verify\``;
    expect(docs.includes(merge), merge).toBe(true);
  });

  it('solve takes --format json, not --json', () => {
    expect(nqueens('solve', '4', '--format', 'json', '--limit', 'all').stdout).toBe('[1,3,0,2]\n[2,0,3,1]\n');
    const r = nqueens('solve', '4', '--json');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^nqueens: --json does not apply to solve; /);
  });
});
