// Every error the package throws carries a stable `code` (README, "Errors"),
// so callers branch on it rather than on messages. Aborts are the one
// exception by design: a DOMException named 'AbortError', as fetch rejects.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../dist/cli/args.js';
import { Checkpoint } from '../dist/cli/checkpoint.js';
import { Interrupted } from '../dist/cli/interrupt.js';
import { mergeShards, parseShard } from '../dist/cli/shards.js';
import { count, countSync, ERROR_CODES, planSubproblems, solutions, toBoard } from '../dist/index.js';
import { runOnWorkers } from '../dist/run/pool.js';
import { searchPlan, unitsOf } from './plans.js';
import { plannedMethod } from '../dist/run/methods.js';
import { codedError } from '../dist/shared/errors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The error a call throws or rejects with. */
async function caught(f: () => unknown): Promise<Error & { code?: unknown; cause?: unknown }> {
  try {
    await f();
  } catch (error) {
    return error as Error & { code?: unknown };
  }
  throw new Error('expected an error');
}

describe('ERROR_CODES', () => {
  it('is exported and frozen; each value is ERR_NQUEENS_ and its key', () => {
    expect(Object.isFrozen(ERROR_CODES)).toBe(true);
    for (const [key, value] of Object.entries(ERROR_CODES)) expect(value).toBe(`ERR_NQUEENS_${key}`);
    // The values are the public API, so they are spelled out here (the table builds them from the names).
    expect(Object.values(ERROR_CODES).sort()).toEqual(
      [
        'ERR_NQUEENS_BAD_SHARD',
        'ERR_NQUEENS_BAD_CHECKPOINT',
        'ERR_NQUEENS_WEBGPU_FAILED',
        'ERR_NQUEENS_WRITE_FAILED',
        'ERR_NQUEENS_VERIFY_FAILED',
        'ERR_NQUEENS_INTERNAL',
        'ERR_NQUEENS_INTERRUPTED',
        'ERR_NQUEENS_INVALID_TYPE',
        'ERR_NQUEENS_OUT_OF_RANGE',
        'ERR_NQUEENS_UNKNOWN_OPTION',
        'ERR_NQUEENS_USAGE',
        'ERR_NQUEENS_WASM_UNAVAILABLE',
        'ERR_NQUEENS_WORKER_FAILED',
        'ERR_NQUEENS_TABLES_TOO_LARGE',
        'ERR_NQUEENS_OUT_OF_MEMORY',
        'ERR_NQUEENS_WEBGPU_UNAVAILABLE',
        'ERR_NQUEENS_ATTACKING_QUEENS',
        'ERR_NQUEENS_INCOMPATIBLE_OPTIONS',
      ].sort(),
    );
  });

  it("a coded error's cause is as new Error(message, { cause }) makes it: own, not enumerable; none when not given", () => {
    const cause = new Error('why');
    const error = codedError('what', ERROR_CODES.WORKER_FAILED, cause);
    expect(Object.getOwnPropertyDescriptor(error, 'cause')).toEqual({
      value: cause,
      enumerable: false,
      configurable: true,
      writable: true,
    });
    expect(Object.getOwnPropertyDescriptor(error, 'code')).toEqual({
      value: 'ERR_NQUEENS_WORKER_FAILED',
      enumerable: true,
      configurable: true,
      writable: false,
    });
    expect(Object.keys(error)).toEqual(['code']);
    expect(Object.hasOwn(codedError('what', ERROR_CODES.INTERNAL), 'cause')).toBe(false);
  });

  it('every code is listed in README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const code of Object.values(ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
  });
});

describe('bad arguments', () => {
  it.each([
    ['countSync("8")', () => countSync('8' as never), TypeError, ERROR_CODES.INVALID_TYPE],
    ['countSync(33)', () => countSync(33), RangeError, ERROR_CODES.OUT_OF_RANGE],
    ['count(0)', () => count(0), RangeError, ERROR_CODES.OUT_OF_RANGE],
    ['count(8, { engine: "gpu" })', () => count(8, { engine: 'gpu' as never }), RangeError, ERROR_CODES.OUT_OF_RANGE],
    ['count(8, { engine: 1 })', () => count(8, { engine: 1 as never }), TypeError, ERROR_CODES.INVALID_TYPE],
    ['count(8, { thread: 2 })', () => count(8, { thread: 2 } as never), TypeError, ERROR_CODES.UNKNOWN_OPTION],
    ['count(8, { threads: 0 })', () => count(8, { threads: 0 }), RangeError, ERROR_CODES.OUT_OF_RANGE],
    ['count(8, { onProgress: 1 })', () => count(8, { onProgress: 1 as never }), TypeError, ERROR_CODES.INVALID_TYPE],
    ['count(8, { signal: {} })', () => count(8, { signal: {} as never }), TypeError, ERROR_CODES.INVALID_TYPE],
    [
      "count(8, { engine: 'reference', threads: 2 })",
      () => count(8, { engine: 'reference', threads: 2 }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
    ],
    ['solutions(8, { limit: -1 })', () => solutions(8, { limit: -1 }), RangeError, ERROR_CODES.OUT_OF_RANGE],
    ['planSubproblems(null)', () => planSubproblems(null as never), TypeError, ERROR_CODES.INVALID_TYPE],
    ['toBoard(null)', () => toBoard(null as never), TypeError, ERROR_CODES.INVALID_TYPE],
    ['toBoard([0, 5])', () => toBoard([0, 5]), RangeError, ERROR_CODES.OUT_OF_RANGE],
  ])('%s', async (_, call, type, code) => {
    const error = await caught(call);
    expect(error).toBeInstanceOf(type);
    expect(error.code).toBe(code);
  });
});

describe('the platform', () => {
  it("engine 'wasm' without WebAssembly: ERR_NQUEENS_WASM_UNAVAILABLE, with why as its cause", () => {
    const index = join(ROOT, 'dist/index.js');
    const script = `import * as q from ${JSON.stringify(index)};
      const seen = [];
      try { q.countSync(6, { engine: 'wasm' }); } catch (e) { seen.push([e.name, e.code, e.cause?.message]); }
      await q.count(6, { engine: 'wasm' }).catch((e) => seen.push([e.name, e.code, e.cause?.message]));
      console.log(JSON.stringify(seen));`;
    const out = execFileSync(process.execPath, ['--no-expose-wasm', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([
      ['Error', ERROR_CODES.WASM_UNAVAILABLE, 'WebAssembly is not available'],
      ['Error', ERROR_CODES.WASM_UNAVAILABLE, 'WebAssembly is not available'],
    ]);
  });

  it('a worker that fails: ERR_NQUEENS_WORKER_FAILED, with the worker’s error (and its code) as the cause', async () => {
    const [u] = unitsOf(searchPlan(8, 0));
    const bad = { ...u, constellation: { ...u.constellation, a: 8 } }; // n itself: the first column off the board
    const error = await caught(() =>
      runOnWorkers({
        method: 'search',
        n: 8,
        units: [bad][Symbol.iterator](),
        count: 1,
        threads: 1,
        module: null,
        onResult: () => undefined,
      }),
    );
    expect(error.code).toBe(ERROR_CODES.WORKER_FAILED);
    expect(error.message).toMatch(/^counting worker failed: unit 0: a = 8 /);
    expect(error.cause).toMatchObject({ name: 'RangeError', code: ERROR_CODES.OUT_OF_RANGE });
  });

  it("an abort rejects with a DOMException named 'AbortError' (its own legacy code, 20, is left alone)", async () => {
    const controller = new AbortController();
    const pending = count(12, { threads: 2, signal: controller.signal });
    controller.abort();
    const error = await caught(() => pending);
    expect(error).toBeInstanceOf(DOMException);
    expect(error.name).toBe('AbortError');
    expect(error.code).toBe(20);
  });
});

describe('the CLI’s errors', () => {
  it('usage and interruption', () => {
    expect(new UsageError('x').code).toBe(ERROR_CODES.USAGE);
    expect(new Interrupted('x').code).toBe(ERROR_CODES.INTERRUPTED);
    expect(() => parseShard('9/3')).toThrow(expect.objectContaining({ code: ERROR_CODES.OUT_OF_RANGE }));
  });

  it('shard files and checkpoints that do not fit: ERR_NQUEENS_BAD_SHARD, ERR_NQUEENS_BAD_CHECKPOINT', async () => {
    expect(() => mergeShards([{ name: 'a.json', text: 'not json' }])).toThrow(expect.objectContaining({ code: ERROR_CODES.BAD_SHARD }));
    const dir = mkdtempSync(join(tmpdir(), 'nqueens-codes-'));
    try {
      const file = join(dir, 'x.ckpt');
      for (const text of ['garbage\n', '{"format":"other"}\n']) {
        writeFileSync(file, text);
        const plan = searchPlan(8, 0);
        await expect(Checkpoint.open(file, plannedMethod('search', 8, 0), '0/1', 0, plan.units)).rejects.toThrow(
          expect.objectContaining({ code: ERROR_CODES.BAD_CHECKPOINT }),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the sources', () => {
  // A static guard for new code: each `throw` throws a coded error (the
  // helpers in src/shared/errors.ts, abortError, or a class with a code) or rethrows
  // what it caught (or, for a count that onProgress stopped, what onProgress threw: guard.failure).
  const CODED =
    /^throw (typeError|rangeError|codedError|withCode|abortError|unavailable|failure|gpuFailure|stdoutFailure|refuse|fail)\(|^throw new (UsageError|Interrupted|OutputClosed)\(|^throw (error|e|err|guard\.failure\(error\));?$/;

  it('throw only coded errors', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => join(e.parentPath, e.name));
    const uncoded: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '');
          for (const m of code.matchAll(/\bthrow\b[^;]*;?/g)) {
            if (/^\s*\*/.test(line)) continue; // a doc comment
            if (!CODED.test(m[0].trim())) uncoded.push(`${relative(ROOT, file)}:${i + 1}: ${m[0].trim()}`);
          }
        });
    }
    expect(uncoded).toEqual([]);
  });
});
