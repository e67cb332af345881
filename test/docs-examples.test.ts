// Every code example of README.md and docs/ runs: the API's examples with the
// values their comments claim checked, the CLI's commands and output, and the
// cluster recipes against the packed tarball. Sizes too large for a test run
// small (test/docs/examples.ts); blocks that cannot run in Node are listed
// below with the test that covers them instead.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planUnits } from '../dist/index.js';
import { DOCUMENTS, readDocument, type CodeBlock } from './docs/markdown.js';
import { claimedValue, runnable } from './docs/examples.js';
import { TOTAL, UNIQUE } from './oeis.js';
import { packTarball, ROOT, unpackInto } from './pack.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const blocks = DOCUMENTS.flatMap((path) => readDocument(path).blocks);
const where = (b: CodeBlock) => `${b.document}:${b.line}`;
const firstLine = (b: CodeBlock) => b.text.trimStart().split('\n')[0].trim();

/** Blocks that do not run in Node, by their document and first line, with what covers them. */
const COVERED_ELSEWHERE: Record<string, string> = {
  'docs/browser.md <script type="importmap">{ "imports": { "nqueens-wasm": "/node_modules/nqueens-wasm/dist/index.js" } }</script>':
    'an HTML page: test/browser/unbundled.test.ts loads the package through an import map in Chromium',
  'docs/browser.md // vite.config.ts': 'a Vite config: test/browser/consumer.test.ts builds examples/vite-consumer with it',
  "docs/browser.md Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'":
    'a header: test/browser/package.test.ts counts under this CSP in Chromium',
  "docs/browser.md Content-Security-Policy: require-trusted-types-for 'script'; trusted-types nqueens-wasm":
    "a header: test/browser/unbundled.test.ts counts on workers in Chromium under it (with the page's script-src)",
  'docs/benchmarks.md NQUEENS_PEER_KLUEV_DIR=/tmp/kluev/bins NQUEENS_PEER_KLUEV_BUILDS=avx2=/tmp/kluev/avx2 \\':
    'a benchmark against C++ programs built outside this repository (bench/peers/README.md); bench/peers/run.mjs is type-checked',
  'docs/development.md perf record -k mono -o perf.data node --perf-prof --no-write-protect-code-memory script.mjs':
    'a profiling how-to: it needs perf and a script of your own',
  "docs/development.md npm run build      # asc (scripts/build-wasm.mjs: every module of scripts/wasm-modules.mjs with asconfig.json's targets) -> build/*.wasm -> src/engines/wasm-bytes.generated.ts -> tsc -> a clean dist/ (+ dist/vendor/);":
    'the development scripts: npm test runs them, and test/docs-references.test.ts checks that each exists',
};
const covered = (b: CodeBlock) => COVERED_ELSEWHERE[`${b.document} ${firstLine(b)}`];

const apiExamples = blocks.filter((b) => (b.lang === 'ts' || b.lang === 'js') && !covered(b));
const synopses = blocks.filter((b) => b.lang === '' && firstLine(b).startsWith('nqueens '));
const outputs = blocks.filter((b) => b.lang === '' && /^N\s+\d+$/.test(firstLine(b)));
const cluster = blocks.filter((b) => b.document === 'docs/plans-and-shards.md');
const quickStart = blocks.filter((b) => b.lang === 'sh' && b.document === 'README.md');

it('every code block of the docs is run by a test here, or covered by the one named', () => {
  const handled = new Set([...apiExamples, ...synopses, ...outputs, ...cluster, ...quickStart]);
  const orphans = blocks.filter((b) => !handled.has(b) && !covered(b)).map((b) => `${where(b)}: ${firstLine(b)}`);
  expect(orphans).toEqual([]);
  // And the list above names no block that is gone.
  const present = new Set(blocks.map((b) => `${b.document} ${firstLine(b)}`));
  expect(Object.keys(COVERED_ELSEWHERE).filter((key) => !present.has(key))).toEqual([]);
});

describe('the API examples run, and their comments hold', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nqueens-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(apiExamples.map((b) => [where(b), b] as const))('%s', async (_where, block) => {
    const { module, claims } = runnable(block.text);
    const file = join(dir, `${basename(block.document, '.md')}-${block.line}.mjs`);
    writeFileSync(file, module);
    const log = console.log;
    console.log = () => {}; // the examples print progress
    let actual: unknown[];
    try {
      actual = ((await import(pathToFileURL(file).href)) as { claims: unknown[] }).claims;
    } finally {
      console.log = log;
    }
    expect(actual).toHaveLength(claims.length);
    claims.forEach((claim, k) => {
      const parsed = claimedValue(claim.claimed);
      if (!parsed) throw new Error(`${where(block)}+${claim.line}: the comment "${claim.claimed}" is no value`);
      const label = `${where(block)}+${claim.line}: ${claim.expression}`;
      if (parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
        // An object claims the fields it lists; elapsedMs is an example's time.
        const { elapsedMs: _time, ...fields } = parsed.value as Record<string, unknown>;
        expect(actual[k], label).toMatchObject(fields);
      } else expect(actual[k], label).toEqual(parsed.value);
    });
  });

  it('claims are checked at all (the examples carry at least eight)', () => {
    expect(apiExamples.flatMap((b) => runnable(b.text).claims).length).toBeGreaterThanOrEqual(8);
  });
});

/** `nqueens count 16`, run once for the tests that show it. */
let count16: ReturnType<typeof nqueens> | undefined;
const countSixteen = () => (count16 ??= nqueens(['count', '16']));

function nqueens(args: readonly string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the CLI as the docs show it', () => {
  it.each(synopses.map((b) => [where(b), b] as const))('%s: every synopsis line is a command the CLI has', (_where, block) => {
    for (const line of block.text.trim().split('\n')) {
      const [, command] = line.split(/\s+/);
      expect(['count', 'solve', 'merge', 'version', '--help'], line).toContain(command);
    }
  });

  it.each(outputs.map((b) => [where(b), b] as const))('%s: the output block is what count prints', (_where, block) => {
    const shown = new Map(
      block.text
        .trim()
        .split('\n')
        .map((line) => line.split(/\s{2,}/) as [string, string]),
    );
    const r = shown.get('N') === '16' ? countSixteen() : nqueens(['count', shown.get('N')!]);
    expect(r.code).toBe(0);
    const printed = new Map(
      r.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s{2,}/) as [string, string]),
    );
    expect([...printed.keys()]).toEqual([...shown.keys()]);
    for (const key of ['N', 'total', 'unique', 'engine', 'algorithm']) expect(printed.get(key), key).toBe(shown.get(key));
  });

  it("README's quick start: npx nqueens-wasm count 16 runs the clone's bin", () => {
    const lines = quickStart.flatMap((b) => b.text.split('\n')).filter((line) => line.startsWith('npx nqueens-wasm'));
    expect(lines).toEqual([expect.stringMatching(/^npx nqueens-wasm count 16\s/)]);
    // In the clone, npx runs the bin its package.json names (package.test.ts runs npx itself, from a tarball).
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(ROOT, manifest.bin['nqueens-wasm'])).toBe(CLI);
    expect(countSixteen().stdout).toMatch(/^total\s+14772512$/m);
  });
});

describe('the commands the prose names', () => {
  /** Each command in inline code, as run here (sizes made small), with its documented exit status; or what covers it. */
  const PROSE_COMMANDS: Record<string, { run: string; code: number } | string> = {
    'npx nqueens-wasm count 16': "README's quick start, above",
    'npx nqueens-wasm count 8': 'test/package.test.ts runs it from an installed tarball',
    'nqueens merge': 'a command named in a sentence; its refusals are test/shards-and-checkpoints.test.ts',
    'nqueens version': { run: 'nqueens version', code: 0 },
    'nqueens help': { run: 'nqueens help', code: 0 },
    'nqueens help count': { run: 'nqueens help count', code: 0 },
    'nqueens version --threads 2': { run: 'nqueens version --threads 2', code: 2 },
    'nqueens count 10 > /dev/full': { run: 'nqueens count 10 > /dev/full', code: 1 },
    // docs/benchmarks.md times them (the command's start).
    'nqueens count 8': { run: 'nqueens count 8', code: 0 },
    'nqueens count 16': { run: 'nqueens count 16', code: 0 },
    'nqueens count 15 --threads 256': { run: 'nqueens count 15 --threads 256', code: 0 },
    // n = 22 took 69 min (docs/benchmarks.md); the same commands at n = 12.
    'npx nqueens-wasm count 22 --threads 2': { run: 'nqueens count 12 --threads 2', code: 0 },
    'nqueens count 22 --threads 2 --checkpoint <file> --json': {
      run: 'd=$(mktemp -d) && nqueens count 12 --threads 2 --checkpoint "$d/c" --json && rm -r "$d"',
      code: 0,
    },
    'nqueens count 20 --placed 0:3,5:7': { run: 'nqueens count 10 --placed 0:3,5:7', code: 0 },
    'nqueens solve 20 --limit 1000000000 | head -3': { run: 'nqueens solve 20 --limit 1000000000 | head -3', code: 0 },
    // README's way to time one engine; n = 16 takes seconds in TypeScript.
    'nqueens count 16 --engine js --algorithm search': { run: 'nqueens count 12 --engine js --algorithm search', code: 0 },
  };
  const named = [
    ...new Set(
      DOCUMENTS.flatMap((path) => [...readDocument(path).prose.matchAll(/`((?:npx nqueens-wasm|nqueens) [^`]*)`/g)].map((m) => m[1])),
    ),
  ];

  it('every command in the prose is listed here', () => {
    expect(named.filter((c) => !(c in PROSE_COMMANDS)).sort()).toEqual([]);
    expect(Object.keys(PROSE_COMMANDS).filter((c) => !named.includes(c))).toEqual([]);
  });

  const runs = Object.entries(PROSE_COMMANDS).filter((e): e is [string, { run: string; code: number }] => typeof e[1] !== 'string');
  it.each(runs)('%s exits as documented', (_command, { run, code }) => {
    const bin = mkdtempSync(join(tmpdir(), 'nqueens-bin-'));
    try {
      writeFileSync(join(bin, 'nqueens'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      chmodSync(join(bin, 'nqueens'), 0o755);
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', run], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      });
      expect(r.status, r.stderr).toBe(code);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

it("README's shards: its task line for each of 2 shards of n = 12, then its merge, give OEIS's counts", () => {
  const example = quickStart.find((b) => b.text.includes('--shard'));
  expect(example, 'README shows a shard and its merge in a sh block').toBeDefined();
  const [task, merge, ...rest] = example!.text
    .trim()
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, ''));
  expect(rest).toEqual([]);
  expect(task).toMatch(/^nqueens count 21 --shard 0\/64 /);
  expect(merge).toMatch(/^nqueens merge /);
  // n = 21 in 64 shards as n = 12 in 2 (seconds, not hours); task i's files named as task 0's are.
  const small = (line: string) =>
    line
      .replace(/(?<!\d)21(?!\d)/g, '12')
      .replace(/\/64\b/g, '/2')
      .replace(/--verify 64\b/, '--verify 4');
  const forTask = (i: number) => small(task).replace('--shard 0/', `--shard ${i}/`).replace(/-0\./g, `-${i}.`);
  const dir = mkdtempSync(join(tmpdir(), 'nqueens-readme-shards-'));
  try {
    writeFileSync(join(dir, 'nqueens'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(dir, 'nqueens'), 0o755);
    const sh = (command: string) =>
      spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } });
    for (const i of [0, 1]) {
      const r = sh(forTask(i));
      expect(r.status, r.stderr).toBe(0);
    }
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(['n12-0.json', 'n12-1.json']);
    const r = sh(small(merge));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^total\\s+${TOTAL[12]}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^unique\\s+${UNIQUE[12]}$`, 'm'));
    expect(r.stdout).toMatch(/^verify\s+4 random units recounted, all match/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('docs/plans-and-shards.md: a count on a cluster, at n = 12 in 2 shards, with the packed tarball', () => {
  let work: string;
  let bin: string;
  let tarballName: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'nqueens-cluster-'));
    const packed = packTarball();
    try {
      tarballName = basename(packed.tarball);
      const installed = unpackInto(packed.tarball, join(work, 'machine'));
      // What `npm install -g` puts on PATH: an `nqueens` command.
      bin = join(work, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'nqueens'), `#!/bin/sh\nexec "${process.execPath}" "${join(installed, 'dist/cli/main.js')}" "$@"\n`);
      chmodSync(join(bin, 'nqueens'), 0o755);
    } finally {
      packed.dispose();
    }
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** n = 21 in 64 shards as n = 12 in 2, in a folder of its own standing for /out. */
  const small = (command: string, out: string) =>
    command
      .replace(/^n=21 m=64 /m, 'n=12 m=2 ')
      .replace(/count 21\b/g, 'count 12')
      .replace(/n21-/g, 'n12-')
      .replace(/\/64\b/g, '/2')
      .replace(/--verify 64\b/g, '--verify 4')
      .replace(/\/out\//g, `${out}/`);

  function sh(script: string, cwd: string, env: Record<string, string> = {}) {
    const r = spawnSync('sh', ['-c', script], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}` },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  /** The stdout the merge comment shows: each line's key and value. */
  const mergeCommentLines = () =>
    new Map(
      merge.text
        .split('# stdout:')[1]
        .split('\n')
        .map((line) => line.replace(/^#\s?/, ''))
        .filter((line) => line.trim() !== '')
        .map((line) => line.split(/\s{2,}/) as [string, string]),
    );
  const [yaml, slurm, parallel, merge] = ['yaml', 'SBATCH', 'parallel -j', 'nqueens merge'].map((mark) =>
    cluster.find((b) => b.lang === mark || b.text.includes(mark))!,
  );
  /** Each recipe's command for shard i, as the batch system would run it. */
  const recipes: [string, (i: number) => { script: string; env: Record<string, string> }][] = [
    [
      'Kubernetes Indexed Job',
      (i) => {
        const [, , script] = JSON.parse(/command: (\[.*\])/.exec(yaml.text)![1]) as string[];
        // The install step: the tarball is the one pack:release makes.
        const [install, run] = script.split(' && ');
        expect(install).toBe(`npm install -g /out/${tarballName}`);
        return { script: run, env: { JOB_COMPLETION_INDEX: String(i) } };
      },
    ],
    [
      'Slurm job array',
      (i) => ({
        script: slurm.text
          .split('\n')
          .filter((l) => !l.startsWith('#'))
          .join('\n')
          .replace(/\\\n\s*/g, ''),
        env: { SLURM_ARRAY_TASK_ID: String(i), SLURM_CPUS_PER_TASK: '1' },
      }),
    ],
    ['GNU parallel', (i) => ({ script: /parallel -j \d+ '(.*)'/.exec(parallel.text)![1].replaceAll('{}', String(i)), env: {} })],
  ];

  it.each(recipes)('%s: 2 shards, then the merge and its output as the comment shows it', (_name, recipe) => {
    const out = mkdtempSync(join(work, 'out-'));
    for (let i = 0; i < 2; i++) {
      const { script, env } = recipe(i);
      const r = sh(small(script, out), out, env);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(['n12-0.json', 'n12-1.json']);
    const command = merge.text.split('\n')[0];
    const r = sh(small(command, out), out);
    expect(r.code).toBe(0);
    // The comment's lines, their numbers as patterns.
    const comment = (stream: string) =>
      merge.text
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .join('\n')
        .split('# stdout:')[stream === 'stderr' ? 0 : 1];
    const seed = /seed (\d+)/.exec(r.stderr)![1];
    expect(r.stderr.trim()).toBe(
      comment('stderr')
        .replace('# stderr: ', '')
        .trim()
        .replace(/64/g, '4')
        .replace(/2718281828/g, seed),
    );
    // The comment shows what merge prints, line for line.
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s{2,}/)[0]),
    ).toEqual([...mergeCommentLines().keys()]);
    expect(r.stdout).toMatch(/^N\s+12$/m);
    expect(r.stdout).toMatch(new RegExp(`^total\\s+${TOTAL[12]}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^unique\\s+${UNIQUE[12]}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^shards\\s+2 \\(${planUnits(12).units} units, plan depth 0, [0-9a-f]{16}\\)$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^verify\\s+4 random units recounted, all match \\(seed ${seed}\\)$`, 'm'));
  });

  it("the merge comment's numbers are n = 21's: OEIS, 64 shards, the units, method and digest of its default plan", () => {
    const plan = planUnits(21);
    const shown = mergeCommentLines();
    expect([...shown.keys()]).toEqual(['N', 'total', 'unique', 'shards', 'time', 'verify']);
    expect(shown.get('N')).toBe('21');
    expect(shown.get('total')).toBe(String(TOTAL[21]));
    expect(shown.get('unique')).toBe(String(UNIQUE[21]));
    expect(shown.get('shards')).toBe(
      `64 (${plan.units} units, plan ${plan.method === 'join' ? 'join' : `depth ${plan.depth}`}, ${plan.digest})`,
    );
    expect(shown.get('verify')).toBe('64 random units recounted, all match (seed 2718281828)');
  });
});
