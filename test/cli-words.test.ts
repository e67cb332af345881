// The command line in its own words (issue 37): messages name flags and quote
// what was typed, typos and prefixes get a suggestion, defaults may be spelt
// out, a changed algorithm is noted, and outputs say what they are. Each is
// run as a user meets it: a child process.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inFlags, OPTIONS } from '../dist/cli/args.js';
import { quote } from '../dist/cli/shorten.js';
import { roundMs } from '../dist/cli/output.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function nqueens(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A usage error: exit 2, one line on stderr, nothing on stdout. */
function usageError(...args: string[]): string {
  const r = nqueens(...args);
  expect([r.code, r.stdout, r.stderr.trim().split('\n').length]).toEqual([2, '', 1]);
  return r.stderr.trim();
}

describe('messages name the flag', () => {
  it.each([
    [['count', '8', '--placed', '0:9'], 'nqueens: --placed "0:9": column 9 is outside 0..7'],
    [['solve', '8', '--placed', '9:0'], 'nqueens: --placed "9:0": row 9 is outside 0..7'],
    [['count', '8', '--placed', '0:0,1:1'], 'nqueens: --placed "0:0,1:1": the queens "0:0" and "1:1" attack each other (same diagonal)'],
    [['count', '8', '--placed', '3:3,3:3'], 'nqueens: --placed "3:3,3:3": the queens "3:3" and "3:3" are on the same square'],
    [['solve', '8', '--after', '0,2'], 'nqueens: --after "0,2": 2 columns for 8 rows; give one column per row'],
    [['solve', '8', '--after', '7'], 'nqueens: --after "7": 1 column for 8 rows; give one column per row'],
    [['solve', '4', '--after', '0,9,1,1'], 'nqueens: --after "0,9,1,1": column 9 (row 1) is outside 0..3'],
    // The bounds themselves: the first value outside, in the command line's words.
    [['count', '4', '--placed', '0:4'], 'nqueens: --placed "0:4": column 4 is outside 0..3'],
    [['solve', '4', '--placed', '4:0'], 'nqueens: --placed "4:0": row 4 is outside 0..3'],
    [['solve', '4', '--after', '0,4,1,1'], 'nqueens: --after "0,4,1,1": column 4 (row 1) is outside 0..3'],
    [['count', '5..4'], 'nqueens: the range "5..4" is empty; write it as <from>..<to> with from <= to'],
    // Each end's message names the whole range (before, `1...3` said only `got "1."`).
    [['count', '1...3'], 'nqueens: the start of the range "1...3" must be an integer from 1 to 32; got "1."'],
    [['count', '1..2..3'], 'nqueens: the start of the range "1..2..3" must be an integer from 1 to 32; got "1..2"'],
    [['count', '1..'], 'nqueens: the end of the range "1.." must be an integer from 1 to 32; got ""'],
    [['count', '1..99'], 'nqueens: the end of the range "1..99" must be an integer from 1 to 32; got "99"'],
    [['solve', '8', '--unique', '--placed', '0:0'], /^nqueens: --unique does not go with --placed: /],
    [['count', '16', '--algorithm', 'join', '--engine', 'reference'], /^nqueens: --algorithm join needs --engine auto, wasm or js; /],
    [['count', '25', '--algorithm', 'join'], /^nqueens: --algorithm join counts n up to 24 .*use --algorithm search/],
    [
      ['count', '8', '--engine', 'webgpu', '--threads', '2'],
      'nqueens: --threads must be 1 with --engine webgpu (the GPU runs the whole count); got "2"',
    ],
    [
      ['count', '8', '--placed', '0:0', '--engine', 'reference', '--threads', '3'],
      'nqueens: --threads must be 1 with --engine reference (it has no subproblems to share); got "3"',
    ],
  ])('%j', (args, message) => {
    const line = usageError(...args).replace(' (see nqueens --help)', '');
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
    expect(line).not.toMatch(/options\.|solutions\(\)|placed\[|\[\d+, \d+\]/);
  });

  it.each([
    ['count', 'abc'],
    ['count', '8', '--threads', 'x'],
    ['count', '8', '--engine', 'gpu'],
    ['count', '8', '--algorithm', 'fast'],
    ['count', '8', '--depth', 'deep'],
    ['solve', '8', '--limit', 'x'],
    ['solve', '8', '--format', 'xml'],
    ['solve', '8', 'extra'],
    ['fly'],
  ])('%j quotes the value without "(a string)": everything typed is a string', (...args) => {
    const line = usageError(...args);
    expect(line).toMatch(/"[^"]+"/);
    expect(line).not.toContain('(a string)');
  });
});

describe('an empty value (an unset variable: --checkpoint "$CKPT") is refused, never ignored', () => {
  // Before, an empty --checkpoint, --shard or --subtotals ran the whole count with none of them (exit 0).
  it.each([
    [['count', '8', '--checkpoint', ''], '--checkpoint'],
    [['count', '8', '--checkpoint='], '--checkpoint'],
    [['count', '8', '--subtotals', ''], '--subtotals'],
    [['count', '8', '--shard', '0/2', '--out', ''], '--out'],
    [['merge', 'shard.json', '--subtotals', ''], '--subtotals'],
  ])('%j: a usage error naming %s', (args, flag) => {
    expect(usageError(...args)).toBe(`nqueens: ${flag} needs a file name; got "" (see nqueens --help)`);
  });

  it.each([[['count', '8', '--checkpoint', '-']], [['count', '8', '--checkpoint=-', '--shard', '0/2', '--out', '-']]])(
    '%j: "-" is no checkpoint file (before, a file named "-" was written)',
    (args) => {
      expect(usageError(...args)).toMatch(/^nqueens: --checkpoint takes a file \(it is read back to resume\); name one/);
    },
  );

  it.each([[['count', '8', '--shard', '']], [['count', '8', '--shard=', '--out', 'shard.json']]])(
    '%j: a usage error naming --shard',
    (args) => {
      expect(usageError(...args)).toMatch(/^nqueens: --shard must be i\/m .*; got ""/);
    },
  );

  it('count 8 --placed 0:0 --shard "": a usage error (--placed takes no shard), not completions counted', () => {
    expect(usageError('count', '8', '--placed', '0:0', '--shard', '')).toMatch(/^nqueens: --placed does not go with .*--shard/);
  });
});

describe('"-" where a file must be named: a usage error, and ./- names a file "-"', () => {
  const dash = '(./- for a file named -) (see nqueens --help)';
  // Before, merge read a file named "-" (exit 1, ENOENT), and --subtotals - gave no way to name such a file.
  it.each([
    [['merge', '-'], `nqueens: merge reads shard files, not stdin ("-"); name them, e.g. \`nqueens merge shard-*.json\` ${dash}`],
    [
      ['merge', 'a.json', '-', '--verify', '1'],
      `nqueens: merge reads shard files, not stdin ("-"); name them, e.g. \`nqueens merge shard-*.json\` ${dash}`,
    ],
    [
      ['count', '8', '--subtotals', '-'],
      `nqueens: --subtotals takes a file (stdout has the result); name one, e.g. --subtotals subtotals.txt ${dash}`,
    ],
    [
      ['merge', 'a.json', '--subtotals=-'],
      `nqueens: --subtotals takes a file (stdout has the result); name one, e.g. --subtotals subtotals.txt ${dash}`,
    ],
    [
      ['count', '8', '--checkpoint', '-'],
      `nqueens: --checkpoint takes a file (it is read back to resume); name one, e.g. --checkpoint n18.ckpt ${dash}`,
    ],
  ])('%j', (args, message) => {
    expect(usageError(...args)).toBe(message);
  });

  it('./- is a file named "-": a shard written there merges, and subtotals are written there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-dash-'));
    try {
      const inDir = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
      expect(inDir('count', '8', '--shard', '0/1', '--out', './-').status).toBe(0);
      const merged = inDir('merge', './-', '--json');
      expect([merged.status, JSON.parse(merged.stdout)]).toMatchObject([0, { n: 8, total: '92', unique: '12' }]);
      expect(inDir('count', '8', '--subtotals', './-').status).toBe(0);
      expect(readFileSync(join(dir, '-'), 'utf8')).toMatch(/^# /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every value a message echoes is quoted, in every option', () => {
  // Before, a value that read as a number was shown bare where it was out of range (`--depth 99`: got 99) and
  // quoted where it was not one (`--depth -1`: got "-1"); --placed, --after and a range echoed theirs bare too.
  it.each([
    [['count', '99'], '99'],
    [['count', '9..8'], '9..8'],
    [['count', '8', '--depth', '99'], '99'],
    [['count', '8', '--threads', '999'], '999'],
    [['count', '8', '--engine', 'webgpu', '--threads', '2'], '2'],
    [['count', '8', '--shard', '9/8', '--out', '-'], '9/8'],
    [['count', '8', '--placed', '0:99'], '0:99'],
    [['count', '8', '--placed', '0:0,1:1'], '0:0,1:1'],
    [['solve', '8', '--after', '0,99'], '0,99'],
    [['solve', '8', '--limit', '99999999999999999999'], '99999999999999999999'],
    [['merge', 'x.json', '--verify', '99999999999999999999'], '99999999999999999999'],
    [['merge', 'x.json', '--verify', '1', '--seed', '99999999999'], '99999999999'],
  ])('%j', (args, value) => {
    const line = usageError(...args);
    expect(line).toContain(quote(value));
    // Nowhere bare: what is left once its quoted forms are taken out does not hold it.
    expect(line.split(quote(value)).join('')).not.toContain(value);
  });
});

describe('numbers take no spaces, in every option', () => {
  // Before, --placed and --after trimmed spaces around their numbers, while a size, --threads and the rest refused them.
  const placed = 'nqueens: --placed takes row:col pairs separated by commas, 0-based (e.g. 0:3,5:7); got';
  const after = 'nqueens: --after takes one column per row separated by commas, 0-based (e.g. 0,2,4,1,3); got';
  it.each([
    [['count', '8', '--placed', ' 0:1'], `${placed} " 0:1"`],
    [['count', '8', '--placed', '0:1 '], `${placed} "0:1 "`],
    [['solve', '8', '--placed', '0 : 1'], `${placed} "0 : 1"`],
    [['count', '8', '--placed', '0:1, 2:3'], `${placed} " 2:3"`],
    [['count', '8', '--placed', '0:1,\t2:3'], `${placed} "\\t2:3"`],
    [['solve', '4', '--after', ' 1,3,0,2'], `${after} " 1"`],
    [['solve', '4', '--after', '1,3,0,2\n'], `${after} "2\\n"`],
    [['solve', '4', '--after', '1, 3,0,2'], `${after} " 3"`],
    // The others, as they were: the same kind of message, the value quoted.
    [['count', ' 8'], 'nqueens: n must be an integer from 1 to 32; got " 8"'],
    [['count', '8', '--threads', '1 '], 'nqueens: --threads must be an integer from 1 to 256; got "1 "'],
    [['count', '8', '--depth', ' 1'], 'nqueens: --depth must be an integer from 0 to 4; got " 1"'],
  ])('%j', (args, message) => {
    expect(usageError(...args)).toBe(`${message} (see nqueens --help)`);
  });
});

describe('a long value is shown by its start and its length', () => {
  const x = 'x'.repeat(100_000);
  const nines = '9'.repeat(100_000);
  const start = (c: string) => c.repeat(60);
  // Before, each message held the whole value: 100 KB of stderr for one mistyped argument.
  it.each([
    [
      '--engine',
      ['count', '8', '--engine', x],
      `--engine must be auto, wasm, js, reference or webgpu; got "${start('x')}"… (100,000 characters)`,
    ],
    [
      '--placed, quoted',
      ['count', '8', '--placed', x],
      `--placed takes row:col pairs separated by commas, 0-based (e.g. 0:3,5:7); got "${start('x')}"… (100,000 characters)`,
    ],
    [
      'n, a number, quoted as every value is',
      ['count', nines],
      `n must be an integer from 1 to 32; got "${start('9')}"… (100,000 characters)`,
    ],
    [
      '--placed, the pair quoted',
      ['count', '8', '--placed', `0:${nines}`],
      `--placed "0:${'9'.repeat(58)}"… (100,002 characters): column ${start('9')}… (100,000 characters) is outside 0..7`,
    ],
    [
      '--after, quoted',
      ['solve', '8', '--after', `0,${nines}`],
      `--after "0,${'9'.repeat(58)}"… (100,002 characters): 2 columns for 8 rows; give one column per row`,
    ],
    [
      '--shard',
      ['count', '8', '--shard', x, '--out', 'x.json'],
      `--shard must be i/m with 0 <= i < m <= 1000000 (0-based, e.g. 0/8 ... 7/8); got "${start('x')}"… (100,000 characters)`,
    ],
    ['an unknown option', ['count', '8', `--${x}`], `unknown option --${'x'.repeat(58)}… (100,002 characters)`],
    ['an unknown command', [x], `unknown command "${start('x')}"… (100,000 characters), expected count, solve, merge or version`],
    [
      'an option given twice',
      ['count', '8', '--threads', '1', '--threads', x],
      `--threads is given twice ("1" and "${start('x')}"… (100,000 characters)); give it once`,
    ],
  ])('%s', (_what, args, message) => {
    expect(usageError(...args)).toBe(`nqueens: ${message} (see nqueens --help)`);
  });

  it('a value of 60 characters is shown whole; a longer one never ends in half a surrogate pair', () => {
    expect(quote('x'.repeat(60))).toBe(JSON.stringify('x'.repeat(60)));
    expect(quote('x'.repeat(61))).toBe(`"${'x'.repeat(60)}"… (61 characters)`);
    // U+1F600 is two UTF-16 units, the 60th and 61st: the cut drops the first rather than show "\ud83d".
    expect(quote(`${'x'.repeat(59)}\u{1F600}yy`)).toBe(`"${'x'.repeat(59)}"… (63 characters)`);
  });
});

it('a library message that reaches the command line anyway is put in its terms', () => {
  expect(inFlags('solutions(): options.unique and options.placed cannot be combined')).toBe('--unique and --placed cannot be combined');
  expect(inFlags("options.engine must be one of 'auto', 'wasm'; got \"gpu\" (a string)")).toBe(
    "--engine must be one of 'auto', 'wasm'; got \"gpu\"",
  );
  // An engine that cannot run here (no GPU, no WebAssembly): the message names the option as typed.
  expect(inFlags("engine 'webgpu' is unavailable here: Node has no navigator.gpu. Use engine 'wasm' or 'js' to count on the CPU.")).toBe(
    '--engine webgpu is unavailable here: Node has no navigator.gpu. Use --engine wasm or js to count on the CPU.',
  );
});

describe('suggestions', () => {
  // The shortest prefix of at least 3 letters that begins only this option,
  // and the option with one inner letter dropped.
  const options = Object.keys(OPTIONS);
  const prefixOf = (option: string): string => {
    for (let k = 3; k < option.length; k++) {
      const prefix = option.slice(0, k);
      if (options.filter((o) => o.startsWith(prefix)).length === 1) return prefix;
    }
    return option.slice(0, -1);
  };
  const typoOf = (option: string): string => option.slice(0, 2) + option.slice(3);

  it.each(options.filter((o) => o.length > 3))('--%s: a prefix and a typo of it name it', (option) => {
    for (const wrong of [prefixOf(option), typoOf(option)]) {
      expect(usageError('count', '8', `--${wrong}`)).toBe(
        `nqueens: unknown option --${wrong}; did you mean --${option}? (see nqueens --help)`,
      );
    }
  });

  it('--algo names --algorithm (a prefix too far for a typo)', () => {
    expect(usageError('count', '8', '--algo', 'join')).toContain('did you mean --algorithm?');
  });

  it.each([
    ['cont', 'count'],
    ['coutn', 'count'],
    ['sol', 'solve'],
    ['slove', 'solve'],
    ['merg', 'merge'],
    ['ver', 'version'],
    ['verison', 'version'],
  ])('the command %s: did you mean %s?', (typo, command) => {
    expect(usageError(typo, '8')).toBe(
      `nqueens: unknown command "${typo}", expected count, solve, merge or version; did you mean ${command}? (see nqueens --help)`,
    );
  });

  it.each([
    [['count', '8', '--engine', 'wsm'], 'wasm'],
    [['count', '8', '--engine', 'ref'], 'reference'],
    [['count', '8', '--algorithm', 'joni'], 'join'],
    [['solve', '8', '--format', 'jsno'], 'json'],
  ])('a value: %j, did you mean %s?', (args, value) => {
    expect(usageError(...args)).toMatch(new RegExp(`; did you mean ${value}\\? \\(see`));
  });

  it.each([
    ['--s', '--shard, --subtotals or --seed'],
    ['--ver', '--verify or --version'],
    // A short option's letter after two dashes is no option: it was read as -h and left to parseArgs's words.
    ['--h', '--help'],
    ['--v', '--verify or --version'],
  ])('a prefix of several (%s) names them all', (prefix, options) => {
    expect(usageError('count', '8', prefix)).toBe(`nqueens: unknown option ${prefix}; did you mean ${options}? (see nqueens --help)`);
  });

  // Before, case counted as typing: `COUNT` was five edits from count and got no guess, `--JSON` none either.
  it.each([
    [['COUNT', '8'], 'unknown command "COUNT", expected count, solve, merge or version; did you mean count?'],
    [['SOLEV', '8'], 'unknown command "SOLEV", expected count, solve, merge or version; did you mean solve?'],
    [['count', '8', '--JSON'], 'unknown option --JSON; did you mean --json?'],
    [['count', '8', '--THREADS', '2'], 'unknown option --THREADS; did you mean --threads?'],
    [['count', '8', '--Algo', 'join'], 'unknown option --Algo; did you mean --algorithm?'],
    [['count', '8', '-JSON'], 'unknown option -J in -JSON; did you mean --json?'],
    [['count', '8', '--engine', 'WASM'], '--engine must be auto, wasm, js, reference or webgpu; got "WASM"; did you mean wasm?'],
    [['help', 'MERGE'], 'help takes a command name, count, solve, merge or version; got "MERGE"; did you mean merge?'],
    // The short options too (before, with none): -V is -v in another case, as in many programs' --version.
    [['-V'], 'unknown option -V; did you mean -v?'],
    [['count', '8', '-H'], 'unknown option -H; did you mean -h?'],
    [['-Hv'], 'unknown option -H in -Hv; did you mean -h?'],
    [['-x'], 'unknown option -x'],
  ])('in another case: %j', (args, message) => {
    expect(usageError(...args)).toBe(`nqueens: ${message} (see nqueens --help)`);
  });

  it('nothing near gets no guess', () => {
    expect(usageError('count', '8', '--frobnicate')).toBe('nqueens: unknown option --frobnicate (see nqueens --help)');
  });
});

describe('the version', () => {
  it.each([['version'], ['--version'], ['-v']])('nqueens %s prints the package version', (arg) => {
    expect(nqueens(arg)).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  it('version takes no arguments', () => {
    expect(usageError('version', '8')).toMatch(/^nqueens: version takes no arguments; unexpected "8"/);
  });
});

describe('defaults may be spelt out', () => {
  it.each([
    [
      ['count', '8', '--placed', '0:3', '--algorithm', 'auto'],
      ['count', '8', '--placed', '0:3'],
    ],
    [
      ['count', '8', '--engine', 'auto', '--algorithm', 'auto', '--json'],
      ['count', '8', '--json'],
    ],
    [
      ['solve', '6', '--format', 'board', '--limit', '1', '--engine', 'auto'],
      ['solve', '6'],
    ],
  ])('%j is %j', (spelt, short) => {
    const [a, b] = [nqueens(...spelt), nqueens(...short)];
    expect(a.code).toBe(0);
    const stable = (text: string) => text.replace(/"elapsedMs":[\d.]+|^time .*$|^rate .*$/gm, '');
    expect(stable(a.stdout)).toBe(stable(b.stdout));
  });
});

describe('a note when an option changes the algorithm', () => {
  it('--depth at n = 16 runs the search instead of the join, and says so on stderr', () => {
    const r = nqueens('count', '16', '--depth', '0', '--shard', '63/64', '--out', '-');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "nqueens: note: --depth refines the search's plan, so n = 16 counts with the search (the join by default from n = 16 to 24; --algorithm join has no depth)\n",
    );
    expect(JSON.parse(r.stdout).plan.method).toBe('search');
  });

  it('--engine webgpu at n = 16..17 runs the search, and says so before anything else', async () => {
    // Its first line is all this asks; the count itself (seconds on a software adapter) is stopped once it is out.
    const child = spawn(process.execPath, [cli, 'count', '16..17', '--engine', 'webgpu'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const firstLine = await new Promise<string>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('\n')) resolve(stderr.split('\n')[0]);
      });
      child.on('close', () => resolve(stderr.split('\n')[0]));
    });
    child.kill('SIGKILL');
    expect(firstLine).toBe(
      'nqueens: note: --engine webgpu runs the search only, so n = 16 to 17 counts with the search (the join by default from n = 16 to 24)',
    );
  });

  it.each([
    ['count', '15', '--depth', '0', '--shard', '63/64', '--out', '-'],
    ['count', '16', '--algorithm', 'search', '--depth', '0', '--shard', '63/64', '--out', '-'],
    ['count', '16', '--shard', '63/64', '--out', '-'],
  ])('no note where nothing changed: %j', (...args) => {
    expect(nqueens(...args)).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('outputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nqueens-words-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a shard without --out is a usage error that says what to do; --out - prints it', () => {
    expect(usageError('count', '10', '--shard', '0/2')).toBe(
      'nqueens: --shard writes a JSON result for merge: give --out FILE (or --out - to print it on stdout) (see nqueens --help)',
    );
    const r = nqueens('count', '10', '--shard', '0/1', '--out', '-');
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'nqueens-shard', n: 10, total: '724' });
  });

  it('the range table has the columns of a single count, in its order', () => {
    const single = nqueens('count', '8', '--engine', 'js')
      .stdout.trim()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]);
    const table = nqueens('count', '7..8', '--engine', 'js').stdout.trim().split('\n');
    expect(table[0].trim().split(/\s+/)).toEqual(single);
    expect(table[2].trim().split(/\s+/).slice(0, 6)).toEqual(['8', '92', '12', 'js', 'search', '1']);
  });

  it('--json rounds elapsedMs to the microsecond (count, a range, --placed, a shard, merge)', () => {
    const shard = join(dir, 'whole.json');
    const outputs = [
      nqueens('count', '9', '--json').stdout,
      nqueens('count', '5..6', '--json').stdout,
      nqueens('count', '9', '--placed', '0:0', '--json').stdout,
      nqueens('count', '9', '--shard', '0/1', '--out', '-').stdout,
    ];
    expect(nqueens('count', '9', '--shard', '0/1', '--out', shard).code).toBe(0);
    outputs.push(readFileSync(shard, 'utf8'), nqueens('merge', shard, '--json').stdout);
    const times = outputs.flatMap((text) => [...text.matchAll(/"elapsedMs": ?([^,}]+)/g)].map((m) => m[1]));
    expect(times).toHaveLength(7);
    for (const t of times) expect(t).toMatch(/^\d+(\.\d{1,3})?$/);
  });

  it('roundMs keeps the microseconds and drops the float noise below them', () => {
    expect([roundMs(1.23456), roundMs(0.0004), roundMs(0.0005), roundMs(12.1 - 12), roundMs(250)]).toEqual([1.235, 0, 0.001, 0.1, 250]);
  });

  it("a resumed count's rate is this run's, and says so; a fresh count's does not", () => {
    const ckpt = join(dir, 'rate.ckpt');
    const fresh = nqueens('count', '12', '--checkpoint', ckpt);
    expect(fresh.stdout).toMatch(/^rate +\d[\d.]* [kMG]? ?solutions\/s$/m);
    // Every unit was in the checkpoint: this run found none itself.
    expect(nqueens('count', '12', '--checkpoint', ckpt).stdout).toMatch(/^rate +- \(this run\)$/m);
  });

  it('solve --format json is JSON Lines, and --help says so', () => {
    const r = nqueens('solve', '6', '--limit', 'all', '--format', 'json');
    expect(r.stdout.split('\n')).toEqual(['[1,3,5,0,2,4]', '[2,5,1,4,0,3]', '[3,0,4,1,5,2]', '[4,2,0,5,3,1]', '']);
    expect(nqueens('--help').stdout).toMatch(/--format <f> +solve: board \(default\) or json: JSON Lines, one\s+placement per line/);
  });
});
