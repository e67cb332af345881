// Limits that never confuse. Under an address-space limit (`ulimit -v`)
// V8 cannot reserve a wasm memory: engine 'auto' then counts in TypeScript
// and says so, an explicit 'wasm' fails with ERR_NQUEENS_OUT_OF_MEMORY (a
// worker's failure carrying it as its cause), and the CLI exits 1 with the
// code, keeping 2 for usage errors. Under a low limit on open files the
// CLI says which limit and what to do, on one line. And a range is checked
// whole before any of it is counted.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli-in-dir.js';

/** 4 GB of address space: room for Node, none for a wasm memory's reservation. */
const LIMIT_KB = 4_000_000;
const index = fileURLToPath(new URL('../../dist/node/index.js', import.meta.url));

/** `node args...` under the limit: of address space in KB (`ulimit -v`), or another of ulimit's (`-n`: open files). */
function limited(args: string[], limit = LIMIT_KB, which = '-v') {
  const quoted = [process.execPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('sh', ['-c', `ulimit ${which} ${limit} && exec ${quoted}`], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `body` (an async function body over the package's exports) under the limit; its JSON result. */
function api(body: string, limitKb = LIMIT_KB): unknown {
  const script = `const api = await import(${JSON.stringify(index)});
const show = (e) => ({ name: e.name, code: e.code, message: e.message, cause: e.cause && { name: e.cause.name, code: e.cause.code } });
const out = await (async () => { ${body} })();
console.log(JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? String(v) : v)));`;
  const r = limited(['--input-type=module', '-e', script], limitKb);
  expect([r.code, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout);
}

const GiB_KB = 1 << 20;
let measuredBase: number | undefined;

/** The process's own address space before any wasm memory, measured the same way: the base the limits add to. */
function baseKb(): number {
  measuredBase ??= api(
    `return Number(/VmSize:\\s+(\\d+) kB/.exec(await (await import('node:fs/promises')).readFile('/proc/self/status', 'utf8'))[1])`,
    100_000_000,
  ) as number;
  return measuredBase;
}

describe('no address space for a wasm memory', () => {
  it("the API's 'auto' counts in TypeScript and says so: countSync, count, on workers, completions, solutions", () => {
    expect(
      api(`return [
        api.countSync(10),
        await api.count(11),
        await api.count(16, { threads: 2 }),
        await api.count(14, { algorithm: 'join', threads: 2 }),
        api.countCompletionsSync(8, [[0, 0]]),
        [...api.solutions(6)].length,
      ].map((r) => (typeof r === 'number' ? r : [r.total, r.engine]))`),
    ).toEqual([['724', 'js'], ['2680', 'js'], ['14772512', 'js'], ['365596', 'js'], ['4', 'js'], 4]);
  });

  it("room for one wasm memory but not one a worker (20 GB): 'auto' finishes in TypeScript what wasm could not start", () => {
    const [search, join] = api(
      `return [await api.count(16, { algorithm: 'search', threads: 2 }), await api.count(16, { algorithm: 'join', threads: 2 })]`,
      20_000_000,
    ) as { total: string; unique: string }[];
    expect([search.total, search.unique, join.total, join.unique]).toEqual(['14772512', '1846955', '14772512', '1846955']);
  });

  it("an explicit engine 'wasm' fails with ERR_NQUEENS_OUT_OF_MEMORY; on workers, as the worker's coded cause", () => {
    const [sync, async, workers] = api(`const out = [];
      try { api.countSync(10, { engine: 'wasm' }); } catch (e) { out.push(show(e)); }
      try { await api.count(10, { engine: 'wasm', threads: 1 }); } catch (e) { out.push(show(e)); }
      try { await api.count(18, { engine: 'wasm', algorithm: 'join', threads: 2 }); } catch (e) { out.push(show(e)); }
      return out;`) as { name: string; code: string; message: string; cause?: { code?: string } }[];
    expect(sync).toMatchObject({ name: 'RangeError', code: 'ERR_NQUEENS_OUT_OF_MEMORY' });
    expect(sync.message).toMatch(/cannot reserve a WebAssembly memory/);
    expect(async).toMatchObject({ code: 'ERR_NQUEENS_OUT_OF_MEMORY' });
    expect(workers).toMatchObject({ code: 'ERR_NQUEENS_WORKER_FAILED', cause: { code: 'ERR_NQUEENS_OUT_OF_MEMORY' } });
  });

  it("README's figure: a wasm memory takes about 10 GB of address space (fails with 9 GiB to spare, counts with 11)", () => {
    const base = baseKb();
    const tryWasm = `try { return String(api.countSync(10, { engine: 'wasm' }).total); } catch (e) { return e.code; }`;
    expect([api(tryWasm, base + 9 * GiB_KB), api(tryWasm, base + 11 * GiB_KB)]).toEqual(['ERR_NQUEENS_OUT_OF_MEMORY', '724']);
  });

  it("room for one wasm memory only (base + 11 GiB): every synchronous path of 'auto' falls back too, and the CLI's solve", () => {
    const limit = baseKb() + 11 * GiB_KB;
    // Before: the first instance (the check that wasm memory can be had) took the room, and each of these threw ERR_NQUEENS_OUT_OF_MEMORY.
    const results = api(
      `const live = Array.from({ length: 50 }, () => api.solutions(8));
      for (const it of live) it.next();
      return [
        String(api.countSync(8).total),
        String(api.countSync(12, { algorithm: 'join' }).total),
        String(api.countCompletionsSync(8, [[0, 0]]).total),
        [...api.solutions(6)].length,
        [...api.solutions(8, { unique: true })].length,
        live.reduce((sum, it) => sum + 1 + [...it].length, 0),
      ]`,
      limit,
    );
    expect(results).toEqual(['92', '14200', '4', 4, 12, 50 * 92]);
    // Completions and enumeration share the thread's one instance: 20 counts at once on engine 'wasm', and an iterator, fit in that room.
    // Before: each count of completions made an instance of its own, and all but the first failed with ERR_NQUEENS_OUT_OF_MEMORY.
    const shared = api(
      `const it = api.solutions(8, { engine: 'wasm' });
      it.next();
      const counts = await Promise.all(Array.from({ length: 20 }, () => api.countCompletions(10, [[0, 1]], { engine: 'wasm' })));
      return [...new Set(counts.map((r) => r.total + ' ' + r.engine))].concat([1 + [...it].length]);`,
      limit,
    );
    expect(shared).toEqual(['48 wasm', 92]);
    const solve = limited([cli, 'solve', '6', '--limit', 'all'], limit);
    expect([solve.code, solve.stderr]).toEqual([0, '']);
    expect(solve.stdout.match(/^# solution \d+: /gm)).toHaveLength(4);
  });

  it('workers start beside a wasm memory that failed (base + 0.5 and 1 GiB) or took the room (base + 11 GiB): no crash, exact', () => {
    // Before: V8 could not reserve a new worker's code range (128 MB by default) and ended the process (SIGTRAP, exit 133).
    // count 12 may end on the calling thread before its workers are up (it counts while they start); a completion
    // count (--placed) is counted by its workers alone, so they start and count, whatever the machine's speed.
    for (const limit of [baseKb() + GiB_KB / 2, baseKb() + GiB_KB, baseKb() + 11 * GiB_KB]) {
      const r = limited([cli, 'count', '12', '--threads', '2', '--json'], limit);
      expect([limit, r.code, r.stderr]).toEqual([limit, 0, '']);
      expect(JSON.parse(r.stdout)).toMatchObject({ total: '14200', unique: '1787' });
      const onWorkers = limited([cli, 'count', '12', '--placed', '0:1', '--threads', '2', '--json'], limit);
      expect([limit, onWorkers.code, onWorkers.stderr]).toEqual([limit, 0, '']);
      expect(JSON.parse(onWorkers.stdout)).toMatchObject({ total: '806', threads: 2 });
    }
    // Three counts at once on up to 4 workers (at base + 0.5 GiB, their threads' own reservations do not fit).
    // Before, at base + 11 GiB, a worker parked while its wasm init failed gave that failure to the next count
    // to take it: the TypeScript count that 'auto' fell back to, which then rejected with it.
    for (const limit of [baseKb() + GiB_KB, baseKb() + 11 * GiB_KB]) {
      for (let round = 0; round < 3; round++) {
        const totals = api(
          `return (await Promise.all([api.count(12, { threads: 1 }), api.count(15, { threads: 2 }), api.count(14, { algorithm: 'join', threads: 2 })])).map((r) => r.total)`,
          limit,
        );
        expect([limit, totals]).toEqual([limit, ['14200', '2279184', '365596']]);
      }
    }
  });

  it('the CLI: auto counts (engine js); --engine wasm exits 1 with the code, not 2 as a usage error', () => {
    const auto = limited([cli, 'count', '12', '--json']);
    expect(auto.code).toBe(0);
    expect(JSON.parse(auto.stdout)).toMatchObject({ total: '14200', engine: 'js' });
    const wasm = limited([cli, 'count', '12', '--engine', 'wasm']);
    expect([wasm.code, wasm.stdout]).toEqual([1, '']);
    expect(wasm.stderr).toMatch(/^nqueens: cannot reserve a WebAssembly memory \(ulimit -v\?\): .*\[ERR_NQUEENS_OUT_OF_MEMORY\]\n$/);
    expect(wasm.stderr).not.toMatch(/--help/);
  });
});

describe('a low limit on open files (ulimit -n, soft and hard)', () => {
  // Unbundled, the command's 93 modules failed to load below about 44 (EMFILE); the built command is one file
  // (scripts/bundle.mjs), so it starts wherever Node itself does (below about 20 Node cannot start).
  it('at 24 the command, one file, loads and counts on this thread; a count on workers fails naming the limit', () => {
    const r = limited([cli, 'count', '8', '--json'], 24, '-n');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 8, total: '92', unique: '12' });
    // count --placed runs on workers only; each worker opens files of its own.
    const workers = limited([cli, 'count', '12', '--placed', '0:3', '--threads', '2'], 24, '-n');
    expect([workers.code, workers.stdout]).toEqual([1, '']);
    expect(workers.stderr).toMatch(
      /^nqueens: counting worker failed: .*EMFILE.*; the limit on open files \(ulimit -n\) is 24: raise it, or give fewer --threads \(each worker opens files of its own\) \[ERR_NQUEENS_WORKER_FAILED, cause (EMFILE|ERR_WORKER_INIT_FAILED)\]\n$/,
    );
  });

  it('at 64 the command counts on two workers (each opens files of its own)', () => {
    const r = limited([cli, 'count', '12', '--placed', '0:3', '--threads', '2', '--json'], 64, '-n');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 12, total: '1359', threads: 2 });
  });

  it('a worker that cannot open its files fails the count with its EMFILE as the cause, and says what to do', () => {
    // test/fixtures/worker-out-of-files.mjs fails every worker thread as a real limit does some (the opens race);
    // count --placed runs on workers only (no count on this thread that could finish first).
    const outOfFiles = fileURLToPath(new URL('../fixtures/worker-out-of-files.mjs', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', outOfFiles, cli, 'count', '12', '--placed', '0:3', '--threads', '2'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect([r.status, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /^nqueens: counting worker failed: EMFILE: too many open files, open 'worker\.js'; the limit on open files \(ulimit -n\) is \d+: raise it, or give fewer --threads \(each worker opens files of its own\) \[ERR_NQUEENS_WORKER_FAILED, cause EMFILE\]\n$/,
    );
  });
});

describe('a worker thread that ends by itself', () => {
  it('a worker that exits unexpectedly fails the count with its exit code, never leaves it pending', () => {
    // test/fixtures/worker-exits.mjs ends every worker thread with code 7 and no error event; countCompletions runs on
    // workers only, so no count on this thread can finish first. Before the check, the count never settled.
    const exits = fileURLToPath(new URL('../fixtures/worker-exits.mjs', import.meta.url));
    const script = `const { countCompletions } = await import(${JSON.stringify(index)});
try { await countCompletions(12, [[0, 3]], { threads: 2 }); console.log('counted'); }
catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
    const r = spawnSync(process.execPath, ['--import', exits, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({
      code: 'ERR_NQUEENS_WORKER_FAILED',
      message: 'counting worker exited unexpectedly with code 7',
    });
  });
});

describe('every argument is checked before counting', () => {
  it('count 16..25 --algorithm join is refused at once, before n = 16 is counted', () => {
    const r = spawnSync(process.execPath, [cli, 'count', '16..25', '--algorithm', 'join'], { encoding: 'utf8', timeout: 20_000 });
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/n = 25/);
  });

  it('count 14..17 --engine reference --algorithm join is refused at once', () => {
    const r = spawnSync(process.execPath, [cli, 'count', '14..17', '--engine', 'reference', '--algorithm', 'join'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect([r.status, r.stdout]).toEqual([2, '']);
  });
});
