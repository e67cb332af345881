// Smoke tests of the nqueens command, run as a user would.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shortCheck } from '../dist/shared/digest.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
/** Holds stdout's reader back until the CLI finds the pipe full (it says `stdout full` on stderr). */
const stdoutFull = fileURLToPath(new URL('fixtures/stdout-full-then-blocking.mjs', import.meta.url));

function nqueens(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('nqueens CLI', () => {
  it('count <n> prints N, total, unique, engine, time and rate', () => {
    const r = nqueens('count', '10');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^N\s+10$/m);
    expect(r.stdout).toMatch(/^total\s+724$/m);
    expect(r.stdout).toMatch(/^unique\s+92$/m);
    expect(r.stdout).toMatch(/^engine\s+wasm$/m);
    expect(r.stdout).toMatch(/^time\s+[\d.]+ m?s$/m);
    expect(r.stdout).toMatch(/^rate\s+[\d.]+ [kMG]? ?solutions\/s$/m);
  });

  it('count <a>..<b> prints a table', () => {
    const r = nqueens('count', '4..8', '--engine', 'js');
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatch(/N\s+total\s+unique\s+engine\s+algorithm\s+threads\s+time\s+rate/);
    expect(rows.slice(1).map((row) => row.trim().split(/\s+/).slice(0, 6))).toEqual([
      ['4', '2', '1', 'js', 'search', '1'],
      ['5', '10', '2', 'js', 'search', '1'],
      ['6', '4', '1', 'js', 'search', '1'],
      ['7', '40', '6', 'js', 'search', '1'],
      ['8', '92', '12', 'js', 'search', '1'],
    ]);
  });

  it('count --json prints one object per size with exact counts', () => {
    const r = nqueens('count', '11..12', '--json');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.n, l.total, l.unique])).toEqual([
      [11, '2680', '341'],
      [12, '14200', '1787'],
    ]);
  });

  it('solve prints boards', () => {
    const r = nqueens('solve', '4', '--limit', '2');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.Q..\n...Q\nQ...\n..Q.\n');
    expect(r.stdout).toContain('..Q.\nQ...\n...Q\n.Q..\n');
  });

  it('solve writes every board through a pipe whose reader stalls (the pipe fills), then exits 0', async () => {
    const whole = nqueens('solve', '11', '--limit', 'all');
    expect(whole.code).toBe(0);
    expect(whole.stdout.length).toBeGreaterThan(4 * 65_536); // more than a pipe holds: the writer must wait
    // The reader takes nothing until the CLI has found the pipe full (the fixture says so on stderr, then lets that
    // write wait for the reader, as on any blocking pipe): whatever the machine's speed, the writer waits for it.
    const child = spawn(process.execPath, ['--import', stdoutFull, cli, 'solve', '11', '--limit', 'all'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    let stderr = '';
    const full = new Promise((resolve) =>
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk).includes('stdout full') && resolve(true)),
    );
    // Or its exit, should the pipe never fill (it did not wait: the check below fails).
    await Promise.race([full, new Promise((resolve) => child.on('exit', resolve))]);
    expect(stderr).toBe('stdout full\n');
    child.stdout.resume();
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toBe('stdout full\n');
    expect(Buffer.concat(chunks).toString('utf8')).toBe(whole.stdout);
  });

  it('solve --format json prints placements', () => {
    const r = nqueens('solve', '8', '--limit', '2', '--format', 'json', '--engine', 'reference');
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      [0, 4, 7, 5, 2, 6, 1, 3],
      [0, 5, 7, 2, 6, 3, 1, 4],
    ]);
  });

  it('--help explains the commands', () => {
    const r = nqueens('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/nqueens count <n>/);
    expect(r.stdout).toMatch(/--engine/);
    // The statuses of a second signal, as docs/cli.md gives them: before, the help said only that it stops at once.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      "Ctrl-C, SIGTERM and SIGHUP stop a count cleanly (with --checkpoint its finished units are kept; a second signal stops at once, with the first one's exit status).",
    );
  });

  it.each([
    [['count', '33'], /n must be an integer from 1 to 32; got "33"/],
    [['count', 'abc'], /n must be an integer from 1 to 32; got "abc"/],
    [['count', '2.5'], /n must be an integer from 1 to 32; got "2.5"/],
    [['count', '-3'], /n must be an integer from 1 to 32; got "-3"/],
    [['solve', '0'], /n must be an integer from 1 to 32; got "0"/],
    [['solve', '33'], /n must be an integer from 1 to 32; got "33"/],
    [['solve', '-1'], /n must be an integer from 1 to 32; got "-1"/],
    [['count', '0..3'], /the start of the range "0\.\.3" must be an integer from 1 to 32; got "0"/],
    [['count', '8', '--threads', '-1'], /--threads must be an integer from 1 to 256; got "-1"/],
    [['solve', '8', '--limit', '-2'], /--limit must be a whole number from 0 to 9007199254740991 \(2\^53 - 1\), or all; got "-2"/],
    [['count', '8', '--threads'], /--threads needs a value/],
    [['count', '8', '--engine', '--json'], /--engine needs a value/],
    [['count', '9..4'], /the range "9..4" is empty/],
    [['count'], /count needs a board size/],
    [['count', '8', '--engine', 'gpu'], /--engine must be auto, wasm, js, reference or webgpu; got "gpu" \(see/],
    // Where an engine cannot run, an unknown name's message lists only those that can, and a known one says why not.
    [['solve', '8', '--engine', 'gpu'], /^nqueens: --engine must be auto, wasm, js or reference; got "gpu" \(see/],
    [['count', '8', '--placed', '0:0', '--engine', 'gpu'], /^nqueens: --engine must be auto, wasm, js or reference; got "gpu" \(see/],
    [['merge', 'a.json', '--verify', '1', '--engine', 'gpu'], /^nqueens: --engine must be auto, wasm or js; got "gpu" \(see/],
    [
      ['merge', 'a.json', '--verify', '1', '--engine', 'wsam'],
      /^nqueens: --engine must be auto, wasm or js; got "wsam"; did you mean wasm\?/,
    ],
    [
      ['solve', '8', '--engine', 'webgpu'],
      /^nqueens: --engine webgpu counts whole boards only; solve runs on auto, wasm, js or reference \(see/,
    ],
    [
      ['count', '8', '--placed', '0:0', '--engine', 'webgpu'],
      /^nqueens: --engine webgpu counts whole boards only; count --placed runs on auto, wasm, js or reference \(see/,
    ],
    [
      ['merge', 'a.json', '--verify', '1', '--engine', 'reference'],
      /^nqueens: --engine reference cannot recount units; merge --verify runs on auto, wasm or js \(see/,
    ],
    [
      ['merge', 'a.json', '--verify', '1', '--engine', 'webgpu'],
      /^nqueens: --engine webgpu counts whole boards only; merge --verify runs on/,
    ],
    [['count', '8', '--frobnicate'], /nqueens: unknown option --frobnicate \(see nqueens --help\)/],
    [['count', '8', '--=x'], /^nqueens: unknown option --=x \(see nqueens --help\)/], // it said "unknown option --"
    [['count', '8', '-=x'], /^nqueens: unknown option -=x \(see nqueens --help\)/],
    [['solve', '8', '--limit', 'x'], /--limit must be a whole number from 0 to 9007199254740991 \(2\^53 - 1\), or all; got "x"/],
    [['solve', '8', '--format', 'xml'], /--format must be board or json; got "xml" \(see/],
    [['fly'], /unknown command "fly"/],
    [['count', '8', '--limit', '3'], /--limit does not apply to count; count takes --engine, --algorithm, --threads/],
    [['solve', '8', '--threads', '2'], /--threads does not apply to solve; solve takes --engine, --limit, --format/],
    [['count', '8', '--threads', '1', '--threads', '2'], /--threads is given twice \("1" and "2"\); give it once/],
    [['count', '8', '--engine=js', '--engine', 'js'], /--engine is given twice \("js" and "js"\); give it once/],
    [['solve', '8', '--unique', '--limit', '1', '--unique'], /--unique is given twice; give it once/],
    [['merge', 'a.json', '--seed', '1', '--seed', '1'], /--seed is given twice \("1" and "1"\); give it once/],
  ])('%j is a usage error: one line, exit 2', (args, message) => {
    const r = nqueens(...args);
    // Each is a usage error (docs/cli.md: status 2, the message ending with the pointer to --help); "not 0" took a
    // refusal coded as a failure (status 1, its code in brackets) as well.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/ \(see nqueens --help\)\n$/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});

describe('nqueens count --algorithm', () => {
  it('join prints the exact counts and the method that ran', () => {
    const r = nqueens('count', '12', '--algorithm', 'join');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^total\s+14200$/m);
    expect(r.stdout).toMatch(/^unique\s+1787$/m);
    expect(r.stdout).toMatch(/^algorithm\s+join$/m);
  });

  it('an unknown method is a usage error', () => {
    const r = nqueens('count', '12', '--algorithm', 'fast');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--algorithm must be auto, join or search; got "fast" \(see/);
  });

  // Every command, the short and long names of one option, and --name=value beside --name value.
  it.each([
    [['count', '8', '--threads=1', '--threads', '2'], '--threads is given twice ("1" and "2")'],
    [['solve', '6', '--limit=1', '--limit=1'], '--limit is given twice ("1" and "1")'],
    [['merge', '--json', 'a.json', '--json'], '--json is given twice'],
    [['-h', '--help'], '--help is given twice (-h and --help)'],
    [['help', '-h', '-h'], '-h is given twice'],
    [['version', '-v', '--version'], '--version is given twice (-v and --version)'],
    [['version', '-v', '-v'], '-v is given twice'],
  ])('%j: an option given twice is a usage error (exit 2), before anything runs', (args, message) => {
    const r = nqueens(...args);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`nqueens: ${message}; give it once (see nqueens --help)\n`);
  });

  it('after --, a repeated --json is a positional, never an option', () => {
    const r = nqueens('count', '8', '--', '--json', '--json');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^nqueens: count takes one size or range; unexpected "--json"/);
  });

  it('--help says that help <command> and <command> --help exist, and they print the same page', () => {
    const page = nqueens('--help').stdout;
    expect(page).toMatch(/^ {2}nqueens help \[<command>\] +this page \(also --help, <command> --help\)$/m);
    for (const args of [
      ['help', 'merge'],
      ['merge', '--help'],
      ['solve', '--help'],
    ])
      expect(nqueens(...args).stdout, args.join(' ')).toBe(page);
  });

  it.each([[[]], [['help']], [['help', 'count']], [['help', 'merge']], [['help', 'version']], [['help', 'help']]])(
    '%j: the usage on stdout, exit 0',
    (args) => {
      const r = nqueens(...args);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toMatch(/^Usage:\n {2}nqueens count <n> \[options\]/m);
    },
  );

  it.each([
    ['--thread', '--threads'],
    ['--algoritm', '--algorithm'],
    ['--engin', '--engine'],
    ['--chekpoint', '--checkpoint'],
    ['--jsn', '--json'],
  ])('a typo (%s) names the nearest option, in one clean line', (typo, nearest) => {
    const r = nqueens('count', '8', typo, '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`nqueens: unknown option ${typo}; did you mean ${nearest}? (see nqueens --help)\n`);
  });

  it('help followed by no command is a usage error that does not suggest help itself', () => {
    const r = nqueens('help', 'cont');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      'nqueens: help takes a command name, count, solve, merge or version; got "cont"; did you mean count? (see nqueens --help)\n',
    );
  });

  it('help takes one command name: a second one is a usage error, not ignored', () => {
    expect(nqueens('help', 'count', 'merge')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'nqueens: help takes one command name; unexpected "merge" (see nqueens --help)\n',
    });
  });

  // `--` after an option that takes a value ends the options (it is not the value); a value that
  // begins with a dash is given with `=`. The message says which, whatever comes after.
  it.each([
    [
      ['count', '8', '--out', '--', '--out', 'x'],
      '--out needs a value; "--" after it ends the options (for the value "--", write --out=--)',
    ],
    [
      ['count', '8', '--shard', '0/2', '--out', '-x.json'],
      '--out needs a value; "-x.json" after it reads as an option (for a value that begins with "-", write --out=-x.json)',
    ],
    [
      ['count', '8', '--engine', '-x'],
      '--engine needs a value; "-x" after it reads as an option (for a value that begins with "-", write --engine=-x)',
    ],
    [['count', '8', '--threads', '--json'], '--threads needs a value before --json'],
    [['count', '8', '--threads'], '--threads needs a value'],
  ])('%j: a missing value says what came instead', (args, message) => {
    const r = nqueens(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`nqueens: ${message} (see nqueens --help)\n`);
  });

  it('a value that begins with a dash, given with =, is taken', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-dash-'));
    const r = spawnSync(process.execPath, [cli, 'count', '8', '--shard', '0/1', '--out=-x.json'], { cwd: dir, encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(join(dir, '-x.json'), 'utf8'))).toMatchObject({ n: 8, total: '92' });
  });

  it.each([
    [['count', '8', '--json=1'], '--json takes no value; got "1"'],
    [['count', '8', '--json='], '--json takes no value; got ""'],
    [['--help=yes'], '--help takes no value; got "yes"'],
    [['-v=1'], '-v takes no value; got "1"'],
    [['-hv=1'], '-v takes no value; got "1" (in -hv=1)'],
  ])("%j: a value given to a switch is refused in the command line's words", (args, message) => {
    const r = nqueens(...args);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`nqueens: ${message} (see nqueens --help)\n`);
  });

  it('a short unknown option gets no guess', () => {
    expect(nqueens('count', '8', '-t', '2').stderr).toBe('nqueens: unknown option -t (see nqueens --help)\n');
  });

  // getopt's bundles: the short options, -h and -v, are switches, so -hv is -h -v (where --help wins, as apart).
  it.each([[['-hv']], [['-vh']], [['count', '8', '-hv']], [['version', '-vh']]])('%j: a bundle of -h and -v is both', (args) => {
    const r = nqueens(...args);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^Usage:\n {2}nqueens count <n> \[options\]/m);
    expect(r.stdout).toBe(nqueens('-h', '-v').stdout);
  });

  it.each([
    [['-hx'], 'unknown option -x in -hx'],
    [['count', '8', '-ht', '2'], 'unknown option -t in -ht'],
    [['count', '8', '-json'], 'unknown option -j in -json; did you mean --json?'],
    [['count', '8', '-thread', '2'], 'unknown option -t in -thread; did you mean --threads?'],
    [['-vv'], '-v is given twice; give it once'],
  ])('%j: a bundle with a letter that is no short switch is a usage error naming it', (args, message) => {
    const { code, stdout, stderr } = nqueens(...args);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `nqueens: ${message} (see nqueens --help)\n` });
  });

  it('solve --limit 0 prints nothing (not "no solutions"); --limit all prints every solution', () => {
    expect(nqueens('solve', '4', '--limit', '0')).toMatchObject({ code: 0, stdout: '' });
    const all = nqueens('solve', '8', '--limit', 'all', '--format', 'json');
    expect(all.stdout.trim().split('\n')).toHaveLength(92);
    expect(nqueens('solve', '3', '--limit', 'all').stdout).toBe('# no solutions for n = 3\n');
  });

  it('solve lists one solution without --limit, the first in lexicographic order', () => {
    expect(nqueens('solve', '6', '--format', 'json')).toEqual({ code: 0, stdout: '[1,3,5,0,2,4]\n', stderr: '' });
    expect(nqueens('solve', '4')).toEqual({ code: 0, stdout: '# solution 1: [1,3,0,2]\n.Q..\n...Q\nQ...\n..Q.\n', stderr: '' });
  });

  it('solve 1..3 says solve takes one size and names count for a range', () => {
    // Before: "n must be an integer from 1 to 32; got "1..3"", as if the size were mistyped.
    expect(nqueens('solve', '1..3')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'nqueens: solve takes one size, not a range ("1..3"); list each, or count the range: nqueens count 1..3 (see nqueens --help)\n',
    });
  });

  it('solve takes one size: a second one is a usage error, not ignored', () => {
    // `solve 4 5` listed the solution for n = 4 (exit 0), the 5 ignored.
    expect(nqueens('solve', '4', '5')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'nqueens: solve takes one size; unexpected "5" (see nqueens --help)\n',
    });
  });

  it.each([
    [['solve', '2', '--unique'], '# no solutions for n = 2\n'],
    [['solve', '3', '--after', '0,0,0'], '# no solutions for n = 3\n'],
    [['solve', '3', '--placed', '1:1'], '# no solutions for n = 3\n'],
    [['solve', '4', '--after', '2,0,3,1'], '# no solutions for n = 4 with these options\n'],
    [['solve', '6', '--placed', '0:0'], '# no solutions for n = 6 with these options\n'],
  ])('%j: "with these options" only where they are why there is none', (args, stdout) => {
    // Before, n = 2 and 3 said "with these options" too, as if an option had left them without a solution.
    expect(nqueens(...args)).toEqual({ code: 0, stdout, stderr: '' });
  });

  it.each([
    '99999999999999999999',
    '9007199254740992',
    '1e30',
    '1E3',
    '0x10',
    '0b1',
    '-1',
    '-0',
    '1.5',
    '2.0',
    '',
    ' 5',
    '5 ',
    '+5',
    '1_000',
    'Infinity',
    'ALL',
    '\u0661\u0666',
    '\uff15',
  ])('solve --limit=%j is a usage error naming the range (a huge one was taken for all)', (limit) => {
    const { code, stdout, stderr } = nqueens('solve', '4', `--limit=${limit}`);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `nqueens: --limit must be a whole number from 0 to 9007199254740991 (2^53 - 1), or all; got ${JSON.stringify(limit)} (see nqueens --help)\n`,
    });
  });

  it('solve --limit takes every whole number up to 2^53 - 1, leading zeros too', () => {
    const json = (limit: string) => nqueens('solve', '6', '--limit', limit, '--format', 'json');
    expect(json('9007199254740991')).toMatchObject({ code: 0, stdout: '[1,3,5,0,2,4]\n[2,5,1,4,0,3]\n[3,0,4,1,5,2]\n[4,2,0,5,3,1]\n' });
    expect(json('002')).toMatchObject({ code: 0, stdout: '[1,3,5,0,2,4]\n[2,5,1,4,0,3]\n' });
  });

  it('human output, --json and the API share one vocabulary: algorithm', () => {
    expect(nqueens('count', '10').stdout).toMatch(/^algorithm\s+search$/m);
    expect(nqueens('count', '10').stdout).not.toMatch(/^method/m);
    expect(JSON.parse(nqueens('count', '10', '--json').stdout)).toMatchObject({ algorithm: 'search' });
  });

  it('--help names every engine the CLI takes, webgpu included', () => {
    const help = nqueens('--help').stdout;
    for (const engine of ['auto', 'wasm', 'js', 'reference', 'webgpu']) expect(help).toContain(engine);
    expect(nqueens('solve', '8', '--engine', 'webgpu')).toMatchObject({ code: 2 });
  });
});

describe('messages that say what to do next', () => {
  it('a checkpoint resumed without --algorithm keeps the algorithm it was made with, and says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-hint-'));
    // The search at n = 16 (the default there is the join), its depth kept too; the join below 16 (the search's range).
    for (const [n, made, total] of [
      ['16', ['--algorithm', 'search', '--depth', '2'], '14772512'],
      ['8', ['--algorithm', 'join'], '92'],
      ['11', ['--algorithm', 'join'], '2680'],
      ['15', ['--algorithm', 'join'], '2279184'],
    ] as const) {
      const file = join(dir, `c${n}.ckpt`);
      expect(nqueens('count', n, ...made, '--checkpoint', file).code).toBe(0);
      const r = nqueens('count', n, '--checkpoint', file, '--json');
      const algorithm = made[1];
      const note = `nqueens: note: ${file} was made with the ${algorithm}, so it resumes with the ${algorithm}\n`;
      expect([n, r.code, r.stderr.slice(0, note.length)]).toEqual([n, 0, note]);
      // Every unit was recorded by the first run: none is counted again (a plan made anew would refuse the file).
      expect(r.stderr.slice(note.length)).toMatch(new RegExp(`^resumed from ${file}: (\\d+) of \\1 units were already done\\n$`));
      expect([n, JSON.parse(r.stdout)]).toEqual([n, expect.objectContaining({ total, algorithm })]);
      // Asked for the other algorithm: refused, naming the options that resume it.
      const other = nqueens('count', n, '--algorithm', algorithm === 'join' ? 'search' : 'join', '--checkpoint', file);
      const hint = algorithm === 'join' ? 'join and without --depth' : 'search --depth 2';
      expect([n, other.code, other.stderr]).toEqual([n, 1, expect.stringContaining(`; to resume it, run with --algorithm ${hint} [`)]);
      // One written by another version is refused, and no note promised a resume first.
      const older = join(dir, `old${n}.ckpt`);
      writeFileSync(older, readFileSync(file, 'utf8').replace(/"version":"[^"]*"/, '"version":"0.0.9"'));
      const refused = nqueens('count', n, '--checkpoint', older);
      expect([n, refused.code, refused.stderr]).toEqual([n, 1, expect.stringMatching(/^nqueens: [^\n]*0\.0\.9[^\n]*\n$/)]);
    }
  });

  it('a checkpoint naming the join past n = 24 (edited, its check made again) is refused as a checkpoint, not resumed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-hint-'));
    const made = join(dir, 'c10.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'search', '--checkpoint', made).code).toBe(0);
    const { check, ...header } = JSON.parse(readFileSync(made, 'utf8').split('\n', 1)[0]);
    expect(check).toBe(shortCheck(JSON.stringify(header)));
    const edited = { ...header, n: 25, plan: { ...header.plan, method: 'join', depth: 0 } };
    const file = join(dir, 'c25.ckpt');
    writeFileSync(file, JSON.stringify({ ...edited, check: shortCheck(JSON.stringify(edited)) }) + '\n');
    // The join makes no plan of n = 25: the default (the search) opens the file, which names another plan.
    const r = nqueens('count', '25', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^nqueens: \S+c25\.ckpt was made with another plan \(join, depth 0, [^\n]*\[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/);
    // And no hint to resume it with --algorithm join, which n = 25 refuses (exit 2).
    expect(r.stderr).not.toContain('to resume it');
  });

  it('a checkpoint of another depth names the depth that resumes it, whatever --depth was given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-hint-'));
    const file = join(dir, 'c.ckpt');
    expect(nqueens('count', '10', '--checkpoint', file).code).toBe(0);
    const r = nqueens('count', '10', '--depth', '1', '--checkpoint', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /made with another plan \(search, depth 0, .*; to resume it, run with --algorithm search --depth 0 \[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/,
    );
    // Following the hint resumes it: every unit was recorded, and the count is n = 10's.
    const resumed = nqueens('count', '10', '--algorithm', 'search', '--depth', '0', '--checkpoint', file);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^total\s+724$/m);
  });

  it('a checkpoint of the join says to drop --depth', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-hint-'));
    const file = join(dir, 'c.ckpt');
    expect(nqueens('count', '10', '--algorithm', 'join', '--checkpoint', file).code).toBe(0);
    const r = nqueens('count', '10', '--depth', '1', '--checkpoint', file);
    expect(r.stderr).toMatch(/; to resume it, run with --algorithm join and without --depth \[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/);
    expect(nqueens('count', '10', '--algorithm', 'join', '--checkpoint', file).stdout).toMatch(/^total\s+724$/m);
  });
});
