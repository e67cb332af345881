// The CLI's --placed, --unique and --after, run as a user would.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

function nqueens(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const json = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('nqueens CLI beyond counting', () => {
  it('count <n> --placed prints the total of the completions, no unique', () => {
    const r = nqueens('count', '12', '--placed', '0:3,5:7');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^N\s+12$/m);
    expect(r.stdout).toMatch(/^placed\s+0:3,5:7$/m);
    expect(r.stdout).toMatch(/^total\s+102$/m);
    expect(r.stdout).not.toMatch(/unique/);
    expect(json(nqueens('count', '8', '--placed', '0:0', '--json', '--engine', 'js').stdout)[0]).toMatchObject({
      n: 8,
      total: '4',
      engine: 'js',
      placed: [[0, 0]],
    });
  });

  it('solve --placed lists the solutions containing the queens', () => {
    const r = nqueens('solve', '8', '--placed', '0:0', '--limit', '10', '--format', 'json');
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual([
      [0, 4, 7, 5, 2, 6, 1, 3],
      [0, 5, 7, 2, 6, 3, 1, 4],
      [0, 6, 3, 5, 7, 1, 4, 2],
      [0, 6, 4, 7, 1, 3, 5, 2],
    ]);
    const board = nqueens('solve', '8', '--placed', '0:0');
    expect(board.stdout).toContain('# solution 1: [0,4,7,5,2,6,1,3]');
  });

  it('solve --unique lists the fundamental solutions', () => {
    const r = nqueens('solve', '10', '--unique', '--limit', '100', '--format', 'json');
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toHaveLength(92);
  });

  it('solve --after pages on', () => {
    const r = nqueens('solve', '8', '--after', '0,6,3,5,7,1,4,2', '--limit', '2', '--format', 'json');
    expect(json(r.stdout)).toEqual([
      [0, 6, 4, 7, 1, 3, 5, 2],
      [1, 3, 5, 7, 2, 0, 6, 4],
    ]);
    expect(nqueens('solve', '4', '--after', '3,3,3,3').stdout).toContain('# no solutions');
  });

  // Before, the boards after --after were headed `# solution 1`, `# solution 2`: the first and second of all.
  it('solve --after heads its boards by their place after the one given, in every n where a next page exists', () => {
    for (let n = 4; n <= 10; n++) {
      const all = json(nqueens('solve', String(n), '--limit', 'all', '--format', 'json').stdout) as number[][];
      const from = Math.floor(all.length / 2);
      const page = nqueens('solve', String(n), '--after', all[from - 1].join(','), '--limit', '3');
      expect(page.code).toBe(0);
      const heads = page.stdout.match(/^# .*$/gm);
      expect(heads).toEqual(all.slice(from, from + 3).map((p, k) => `# next ${k + 1}: ${JSON.stringify(p)}`));
    }
  });

  it.each([
    [['count', '8', '--placed', '0:0,1:1'], /--placed "0:0,1:1": the queens "0:0" and "1:1" attack each other \(same diagonal\)/],
    [['solve', '8', '--placed', '2:3,2:5'], /--placed "2:3,2:5": the queens "2:3" and "2:5" attack each other \(same row\)/],
    [['count', '8', '--placed', '0:8'], /--placed "0:8": column 8 is outside 0..7/],
    [['count', '8', '--placed', '0-1'], /--placed takes row:col pairs.*; got "0-1" \(see/],
    [['count', '8', '--placed', '0:3,'], /--placed takes row:col pairs.*; got "0:3," \(an empty pair\)/],
    [['count', '8', '--placed', '0:3,,1:5'], /--placed takes row:col pairs.*; got "0:3,,1:5" \(an empty pair\)/],
    [['count', '8..9', '--placed', '0:1'], /single n/],
    [['count', '8', '--placed', '0:1', '--shard', '0/2'], /--placed does not go with --checkpoint, --shard/],
    [['solve', '8', '--after', '0,1'], /--after "0,1": 2 columns for 8 rows/],
    [['solve', '8', '--after', '0,1,2,3,4,5,6,x'], /--after takes one column per row/],
    [['solve', '8', '--unique', '--placed', '0:0'], /--unique does not go with --placed/],
    [['count', '8', '--unique'], /--unique does not apply to count/],
    [['count', '8', '--after', '0,1,2,3,4,5,6,7'], /--after does not apply to count/],
  ])('%j: a message and exit status 2', (args, message) => {
    const r = nqueens(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
