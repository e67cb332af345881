// A file name or a refused file's field of any length gives a message of a
// few hundred bytes: shown, as a long argument value is, by its first 60
// characters and its length. Before, a name of 100 KB was printed whole,
// twice (Node's own error text repeats the path): 200 KB of stderr; a shard
// whose field was a 1 MB string, 1 MB.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shortCheck } from '../../dist/shared/digest.js';
import { cliInTempDir } from '../cli-in-dir.js';

const { dir, nqueens } = cliInTempDir('nqueens-long-names-');

/** How a long text is shown: its first 60 characters, unquoted, and its length. */
const start = (text: string) => `${text.slice(0, 60)}… (${text.length.toLocaleString('en-US')} characters)`;
/** `text` as a regular expression that matches it alone. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The most a message of these may take: a line, not the name. */
const SHORT = 500;

/** `nqueens ...args`, which must fail with `status` in one short line that says `what`. */
function refusedShortly(status: number, what: RegExp, ...args: string[]): string {
  const r = nqueens(...args);
  expect([r.code, r.stdout]).toEqual([status, '']);
  expect(r.stderr.length).toBeLessThan(SHORT);
  expect(r.stderr).toMatch(/^nqueens: [^\n]*\n$/);
  expect(r.stderr).toMatch(what);
  return r.stderr;
}

describe('a name of 100,000 characters, which no file can have', () => {
  const name = 'a'.repeat(100_000);
  const shown = start(name);
  it.each([
    ['--checkpoint', ['count', '8', '--checkpoint', name], 'cannot use the checkpoint', 'stat', 'ERR_NQUEENS_WRITE_FAILED'],
    ['merge', ['merge', name], 'cannot read', 'open', 'ERR_NQUEENS_BAD_SHARD'],
    ['--subtotals', ['count', '8', '--subtotals', name], 'cannot write the subtotals to', 'lstat', 'ERR_NQUEENS_WRITE_FAILED'],
    ['--out', ['count', '8', '--shard', '0/2', '--out', name], 'cannot write the shard result to', 'lstat', 'ERR_NQUEENS_WRITE_FAILED'],
    ['merge --subtotals', ['merge', 'x.json', '--subtotals', name], 'cannot write the subtotals to', 'lstat', 'ERR_NQUEENS_WRITE_FAILED'],
  ])('%s: exit 1, ENAMETOOLONG naming it by its start, in a line', (_option, args, doing, call, code) => {
    const stderr = refusedShortly(1, /ENAMETOOLONG/, ...args);
    expect(stderr).toBe(`nqueens: ${doing} ${shown}: ENAMETOOLONG (name too long, ${call} '${shown}') [${code}]\n`);
  });
});

describe('long paths to files that can exist (under PATH_MAX, each name under NAME_MAX)', () => {
  // 10 directories of 200 characters: a path of some 2,000, which the file system takes.
  const deep = Array.from({ length: 10 }, (_, k) => `${k}${'d'.repeat(199)}`).join('/');
  mkdirSync(join(dir, deep), { recursive: true });
  const inDeep = (file: string) => `${deep}/${file}`;
  writeFileSync(join(dir, inDeep('not-json.json')), 'not json');
  writeFileSync(join(dir, inDeep('someones.txt')), "someone's notes\n");
  mkdirSync(join(dir, inDeep('a-directory')));

  it('merge of a missing shard: ENOENT, the path shown by its start', () => {
    const missing = inDeep('missing.json');
    const stderr = refusedShortly(1, /ENOENT/, 'merge', missing);
    expect(stderr).toBe(
      `nqueens: cannot read ${start(missing)}: ENOENT (no such file or directory, open '${start(missing)}') [ERR_NQUEENS_BAD_SHARD]\n`,
    );
  });

  it('merge of a file that is no shard, or of a directory: refused naming it by its start', () => {
    const notJson = inDeep('not-json.json');
    expect(refusedShortly(1, /not JSON/, 'merge', notJson)).toBe(
      `nqueens: ${start(notJson)} is not a shard result (not JSON) [ERR_NQUEENS_BAD_SHARD]\n`,
    );
    const directory = inDeep('a-directory');
    expect(refusedShortly(1, /a directory/, 'merge', directory)).toBe(
      `nqueens: ${start(directory)} is not a regular file (a directory); refusing to read it [ERR_NQUEENS_BAD_SHARD]\n`,
    );
  });

  it('--checkpoint onto a file that is no checkpoint: refused naming it by its start, the file left', () => {
    const file = inDeep('someones.txt');
    expect(refusedShortly(1, /is not a checkpoint/, 'count', '8', '--checkpoint', file)).toBe(
      `nqueens: ${start(file)} is not a checkpoint (line 1 is not JSON) [ERR_NQUEENS_BAD_CHECKPOINT]\n`,
    );
    expect(readFileSync(join(dir, file), 'utf8')).toBe("someone's notes\n");
  });

  it('--out, --subtotals and --checkpoint under a directory that does not exist: the directory, by its start', () => {
    // Before: ENOENT naming FILE.partial (for a checkpoint, FILE.lock, absolute), which was never typed.
    for (const [option, extra, what] of [
      ['--out', ['--shard', '0/1'], 'the shard result to'],
      ['--subtotals', [], 'the subtotals to'],
      ['--checkpoint', [], 'the checkpoint'],
    ] as const) {
      const file = inDeep('gone/x.out');
      const stderr = refusedShortly(1, /does not exist/, 'count', '8', ...extra, option, file);
      expect(stderr).toBe(
        `nqueens: cannot write ${what} ${start(file)}: its directory ${start(dirname(file))} does not exist; create it first [ERR_NQUEENS_WRITE_FAILED]\n`,
      );
    }
  });

  it('shards that do not add up are named by their starts, and --checkpoint resumes naming it so', () => {
    const shard = inDeep('s0.json');
    expect(nqueens('count', '8', '--shard', '0/2', '--out', shard).code).toBe(0);
    expect(refusedShortly(1, /missing/, 'merge', shard)).toMatch(
      new RegExp(`: units \\d+\\.\\.\\d+ are missing: no shard after ${literally(start(shard))} \\(the plan has`),
    );
    const checkpoint = inDeep('c.ckpt');
    expect(nqueens('count', '8', '--checkpoint', checkpoint).code).toBe(0);
    const resumed = nqueens('count', '8', '--checkpoint', checkpoint);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`^resumed from ${literally(start(checkpoint))}: (\\d+) of \\1 units were already done\n$`));
  });
});

describe("a refused file's fields of any length", () => {
  const big = 'x'.repeat(1_000_000);
  expect(nqueens('count', '10', '--shard', '0/1', '--out', 's.json').code).toBe(0);
  const shard = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));

  /** A copy of the shard with its text edited by `edit`, as `name`. */
  function editedShard(name: string, edit: (text: string) => string): string {
    writeFileSync(join(dir, name), edit(JSON.stringify(shard)));
    return name;
  }

  it.each([
    [
      '"of" a 1 MB string',
      (t: string) => t.replace('"of":1,', `"of":"${big}",`),
      `"of": "${'x'.repeat(60)}"… (1,000,000 characters) is not`,
    ],
    [
      '"threads" a 1 MB string',
      (t: string) => t.replace(/"threads":\d+/, `"threads":"${big}"`),
      `"threads": "${'x'.repeat(60)}"… (1,000,000`,
    ],
    [
      '"engine" a 1 MB array',
      (t: string) => t.replace(/"engine":"\w+"/, `"engine":["${big}"]`),
      `"engine": ["${'x'.repeat(58)}… (1,000,004`,
    ],
    [
      'a 1 MB field name added',
      (t: string) => t.replace('{', `{"${big}":1,`),
      `it has a field no shard file has ("${'x'.repeat(60)}"… (1,000,000`,
    ],
    [
      'a 1 MB field name written twice',
      (t: string) => t.replace('{', `{"${big}":1,"${big}":2,`),
      `the field "${'x'.repeat(60)}"… (1,000,000`,
    ],
  ])('a shard with %s: refused in a line, the field shown by its start', (_what, edit, shown) => {
    const file = editedShard('edited.json', edit);
    expect(readFileSync(join(dir, file), 'utf8').length).toBeGreaterThan(1_000_000);
    expect(refusedShortly(1, /\[ERR_NQUEENS_BAD_SHARD\]\n$/, 'merge', file)).toContain(`nqueens: ${file}: ${shown}`);
  });

  it('a checkpoint whose header has a long field (its check recomputed): refused in a line, the field shown by its start', () => {
    expect(nqueens('count', '10', '--checkpoint', 'whole.ckpt').code).toBe(0);
    const [header, ...units] = readFileSync(join(dir, 'whole.ckpt'), 'utf8').split('\n');
    // A checkpoint's line is at most 4 KB (a longer one is damage): the longest field a header can hold.
    const { check: _check, ...body } = JSON.parse(header);
    for (const [field, value, shown] of [
      ['n', '9'.repeat(3_600), `is a checkpoint for n = ${start('9'.repeat(3_600))}, not n = 10`],
      ['version', 'v'.repeat(3_600), `was written by nqueens-wasm ${start('v'.repeat(3_600))} (checkpoint format 2)`],
    ] as const) {
      const forged = { ...body, [field]: value };
      writeFileSync(
        join(dir, 'forged.ckpt'),
        [JSON.stringify({ ...forged, check: shortCheck(JSON.stringify(forged)) }), ...units].join('\n'),
      );
      expect(refusedShortly(1, /\[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/, 'count', '10', '--checkpoint', 'forged.ckpt')).toContain(
        `nqueens: forged.ckpt ${shown}`,
      );
    }
  });
});
