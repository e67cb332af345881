// Files and names a user did not write with this program: a checkpoint with
// something appended after its last line, and file names or file contents
// that hold control characters (a terminal's escape codes, a newline), and
// an output file that stdout or stderr is redirected to. And the API at its
// edges: boards too small for a solution, and boards already full.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliInTempDir } from './cli-in-dir.js';
import { count, countCompletions, countCompletionsSync, countSync, planSubproblems, planUnits, solutions, toBoard } from 'nqueens-wasm';

const { dir, nqueens } = cliInTempDir('nqueens-adversarial-');

describe('a checkpoint whose text after its last newline is no torn unit line', () => {
  const good = join(dir, 'n10-good.ckpt');

  it('is refused naming the line, never cut off as torn; a real torn line still runs again', () => {
    expect(nqueens('count', '10', '--checkpoint', good).code).toBe(0);
    const text = readFileSync(good, 'utf8');
    const lines = text.trim().split('\n');
    const last = lines.at(-1)!;
    const line = lines.length + 1;
    const refused: [string, string][] = [
      ['a note, not a unit line', 'not the beginning of a unit line'],
      [last.replace(/"check":"[0-9a-f]{8}"/, '"check":"00000000"'), 'a unit line that fails its check'],
      [last.replace(/"check":"([0-9a-f]{8})"/, '"check":"$1" '), 'not the beginning of a unit line'],
      [last.replace(/"check":"([0-9a-f]{3})[0-9a-f]{5}"/, '"check":"$1"'), 'not the beginning of a unit line'],
      ['{"count":"1"', 'not the beginning of a unit line'],
    ];
    for (const [tail, why] of refused) {
      const file = join(dir, 'n10-tail.ckpt');
      writeFileSync(file, text + tail);
      const r = nqueens('count', '10', '--checkpoint', file);
      expect([tail, r.code, r.stdout, r.stderr.trim()]).toEqual([
        tail,
        1,
        '',
        `nqueens: ${file}, line ${line}: damaged (${why}, without a newline); only a torn last line can be dropped [ERR_NQUEENS_BAD_CHECKPOINT]`,
      ]);
      // Left as it was: the appended text is not cut off.
      expect(readFileSync(file, 'utf8')).toBe(text + tail);
    }
    // What a crash leaves: a beginning of a unit line (zeros after it, as a power cut may leave), or a whole one without its newline.
    for (const tail of ['{', '{"unit":4', last.slice(0, -5), `${last.slice(0, 20)}\0\0\0`, last]) {
      const file = join(dir, 'n10-torn.ckpt');
      copyFileSync(good, file);
      writeFileSync(file, text + tail);
      const r = nqueens('count', '10', '--checkpoint', file);
      expect([tail, r.code, r.stderr]).toEqual([tail, 0, expect.stringContaining(`line ${line} was torn (cut short by a crash)`)]);
      expect(r.stdout).toMatch(/^total\s+724$/m);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });
});

describe('control characters in file names and in the fields of a refused file', () => {
  it('are written as escapes on stderr: one line, no escape codes for the terminal', () => {
    const shard = join(dir, 'n8-shard.json');
    expect(nqueens('count', '8', '--shard', '0/2', '--out', shard).code).toBe(0);
    const forged = join(dir, 'forged.json');
    writeFileSync(forged, JSON.stringify({ ...JSON.parse(readFileSync(shard, 'utf8')), version: '\u001b]0;owned\u0007\u001b[2J\u009b1m' }));
    const missing = join(dir, 'no\nsuch\u001b[31m.json');
    for (const [file, says] of [
      [forged, 'was made by nqueens-wasm \\u001b]0;owned\\u0007\\u001b[2J\\u009b1m (shard format 2)'],
      [missing, `cannot read ${dir}/no\\nsuch\\u001b[31m.json: ENOENT`],
    ]) {
      const r = nqueens('merge', file);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(says);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      // eslint-disable-next-line no-control-regex -- what must not reach the terminal
      expect(r.stderr.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });
  it("are written as escapes in the shard's summary on stdout, the file itself named as given", () => {
    const out = join(dir, 'shard\nwith\u001b[31m.json');
    const r = nqueens('count', '8', '--shard', '0/2', '--out', out);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^shard 0\/2 of n = 8: .*, written to .*\/shard\\nwith\\u001b\[31m\.json\n$/);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ n: 8, shard: 0, of: 2 });
  });
});

describe('an --out or --subtotals file that stdout or stderr is redirected to', () => {
  it.each([
    ['count 10 --shard 0/3 --out FILE', '>', 'the shard result', 'stdout', ' (or use --out - for the result on stdout)'],
    ['count 10 --shard 0/3 --out FILE', '>>', 'the shard result', 'stdout', ' (or use --out - for the result on stdout)'],
    ['count 10 --subtotals FILE', '>', 'the subtotals', 'stdout', ''],
    ['count 10 --subtotals FILE', '2>', 'the subtotals', 'stderr', ''],
  ])(
    '%s %s FILE is refused before counting (exit 1), not renamed over the file the output goes to',
    (args, redirect, what, stream, hint) => {
      const file = join(dir, `redirected-${stream}-${redirect.length}.out`);
      const command = args.replace('FILE', `"${file}"`);
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${cli}" ${command} ${redirect} "${file}"; echo $? > "${file}.status"`], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(0);
      // Before: exit 0, FILE replaced by a rename, and the summary or the count written into the file it replaced (lost).
      expect(readFileSync(`${file}.status`, 'utf8')).toBe('1\n');
      expect(r.stderr + readFileSync(file, 'utf8')).toBe(
        `nqueens: cannot write ${what} to ${file}: ${stream} is redirected to it, and what the command writes there would be lost with the file it replaces; send ${stream} elsewhere${hint} [ERR_NQUEENS_WRITE_FAILED]\n`,
      );
      expect(existsSync(`${file}.partial`)).toBe(false);
    },
  );
});

describe('the API at its edges', () => {
  const ENGINES = ['wasm', 'js', 'reference'] as const;
  it.each([
    [1, 1n, [[0]]],
    [2, 0n, []],
    [3, 0n, []],
  ] as const)('n = %i in every function, on every engine', async (n, total, all) => {
    for (const engine of ENGINES) {
      expect([countSync(n, { engine }).total, (await count(n, { engine })).total]).toEqual([total, total]);
      expect([[...solutions(n, { engine })], [...solutions(n, { engine, unique: true })]]).toEqual([all, all]);
      expect([...solutions(n, { engine, after: new Array<number>(n).fill(0) })]).toEqual([]);
      expect(countCompletionsSync(n, [[0, 0]], { engine }).total).toBe(total);
      expect((await countCompletions(n, [], { engine })).total).toBe(total);
    }
    const plan = planUnits(n);
    expect([plan.units, [...plan.unitsIn()].length, plan.shard(0, 1), planSubproblems(n).length]).toEqual([
      n === 1 ? 2 : 0,
      n === 1 ? 2 : 0,
      { from: 0, to: n === 1 ? 2 : 0 },
      n === 1 ? 1 : 0,
    ]);
    expect(toBoard(new Array<number>(n).fill(0))).toEqual(new Array(n).fill('Q' + '.'.repeat(n - 1)));
  });

  it('a full board: a solution completes only to itself, an attacking one is refused naming two queens', async () => {
    const solution = [0, 4, 7, 5, 2, 6, 1, 3];
    const placed = solution.map((c, r) => [r, c] as const);
    for (const engine of ENGINES) {
      expect(countCompletionsSync(8, placed, { engine }).total).toBe(1n);
      expect((await countCompletions(8, placed, { engine })).total).toBe(1n);
      expect([...solutions(8, { engine, placed })]).toEqual([solution]);
      expect([...solutions(8, { engine, placed, after: solution })]).toEqual([]);
    }
    const diagonal = solution.map((_c, r) => [r, r] as const);
    expect(() => countCompletionsSync(8, diagonal)).toThrow('placed: the queens [0, 0] and [1, 1] attack each other (same diagonal)');
    // A queen after n others is read, not dropped: it shares a row with one of them.
    const beyond = [...placed, [0, 7]] as const;
    expect(() => [...solutions(8, { placed: beyond })]).toThrow(
      'options.placed: the queens [0, 0] and [0, 7] attack each other (same row)',
    );
    expect(() => countCompletionsSync(8, beyond)).toThrow('the queens [0, 0] and [0, 7] attack each other (same row)');
  });

  it('queens on an anti-diagonal (row + col equal) are refused, near and far, in every entry point and --placed', async () => {
    const why = 'the queens [0, 1] and [1, 0] attack each other (same diagonal)';
    const placed = [
      [0, 1],
      [1, 0],
    ] as const;
    expect(() => countCompletionsSync(6, placed)).toThrow(why);
    await expect(countCompletions(6, placed)).rejects.toThrow(why);
    expect(() => [...solutions(6, { placed })]).toThrow(why);
    const far = [
      [2, 5],
      [5, 2],
    ] as const;
    expect(() => countCompletionsSync(8, far)).toThrow('the queens [2, 5] and [5, 2] attack each other (same diagonal)');
    const r = spawnSync(process.execPath, [cli, 'count', '6', '--placed', '0:1,1:0'], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain('the queens "0:1" and "1:0" attack each other (same diagonal)');
  });
});
