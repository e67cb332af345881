// `npm run bench:gpu` (bench/gpu.mjs) without a GPU: against the stand-in
// `webgpu` package (test/fixtures/webgpu/fake-webgpu.mjs) it counts, checks
// and records each n; where the package or an adapter is missing it says
// which and exits 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nqueens-bench-gpu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bench(fake: string | undefined, results: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, FAKE_WEBGPU: fake };
  if (fake === undefined) delete env.FAKE_WEBGPU;
  return spawnSync(
    process.execPath,
    ['--expose-gc', '--import', './test/fixtures/webgpu/use-fake-webgpu.mjs', 'bench/gpu.mjs', '--results', results, ...args],
    { cwd: ROOT, encoding: 'utf8', env, timeout: 120_000 },
  );
}

describe('bench:gpu', () => {
  it('is the npm script that runs bench/gpu.mjs', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['bench:gpu']).toBe('node scripts/build-if-needed.mjs && node bench/gpu.mjs');
  });

  it('counts each n, says whether it is exact, and appends one JSON line per count with the GPU, driver and CPU', () => {
    const results = join(dir, 'gpu.jsonl');
    const run = bench(undefined, results, '--from', '8', '--to', '9');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^GPU: stand-in cpu-twin; driver: .+; CPU: .+ threads$/m);
    expect(run.stdout).toMatch(/^opening the GPU \(a count of n = 8, first in this process\): [\d.]+ ms$/m);
    expect(run.stdout).toMatch(/^n = 8: webgpu [\d.]+ ms, exact$/m);
    expect(run.stdout).toMatch(/^n = 9: webgpu [\d.]+ ms, exact$/m);
    expect(run.stdout).toMatch(/^n = 8: CPU join on \d+ threads [\d.]+ ms$/m);
    expect(run.stdout).toMatch(/^n = 9: CPU join on \d+ threads [\d.]+ ms$/m);
    expect(run.stdout).not.toMatch(/did not exit by itself/); // the stand-in's instance was let go

    const lines = readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l))).toEqual([0, 1].map(() => ['date', 'gpu', 'driver', 'cpu', 'n', 'ms', 'exact', 'cpuMs']));
    expect(lines.map((l) => [l.n, l.exact, l.gpu])).toEqual([
      [8, true, 'stand-in cpu-twin'],
      [9, true, 'stand-in cpu-twin'],
    ]);
    for (const l of lines) {
      expect(typeof l.ms).toBe('number');
      expect(typeof l.cpuMs).toBe('number');
      expect(Number.isNaN(Date.parse(String(l.date)))).toBe(false);
    }
  });

  it("exits 1 saying the 'webgpu' package is missing, and records nothing", () => {
    const results = join(dir, 'none.jsonl');
    const run = bench('missing', results, '--from', '8', '--to', '8');
    expect(run.stderr.trim()).toBe("bench:gpu: no 'webgpu' package: install it (npm install webgpu) to run the WebGPU engine in Node");
    expect(run.status).toBe(1);
    expect(existsSync(results)).toBe(false);
  });

  it('exits 1 saying there is no adapter, and records nothing', () => {
    const results = join(dir, 'no-adapter.jsonl');
    const run = bench('no-adapter', results, '--from', '8', '--to', '8');
    expect(run.stderr.trim()).toBe(
      "bench:gpu: no adapter: the 'webgpu' package found no GPU it can use (no GPU, or no driver Dawn accepts: Vulkan on Linux)",
    );
    expect(run.status).toBe(1);
    expect(existsSync(results)).toBe(false);
  });

  it('refuses a range it has no reference counts for, with exit 2', () => {
    const run = bench(undefined, join(dir, 'bad.jsonl'), '--from', '8', '--to', '30');
    expect(run.stderr).toMatch(/--from and --to must be integers with 1 <= from <= to <= 23/);
    expect(run.status).toBe(2);
  });
});

describe("bench/gpu-host.mjs: the host's share on a device that does nothing", () => {
  it('times each n in a process of its own, the units it sent being every unit of the plan', async () => {
    const { planSubproblems } = await import('../dist/search/constellations.js');
    const { planGpuWork } = await import('../dist/search/webgpu/webgpu-plan.js');
    const { prepareSubproblems, UnitBatch, UnitStream } = await import('../dist/search/webgpu/webgpu-units.js');
    const run = spawnSync(process.execPath, ['bench/gpu-host.mjs', '8', '10'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, number>);
    expect(lines.map((l) => Object.keys(l))).toEqual(
      [8, 9, 10].map(() => ['n', 'ms', 'dispatches', 'units', 'largest', 'pageFaults', 'touchMs']),
    );
    for (const [k, n] of [8, 9, 10].entries()) {
      const stream = new UnitStream(prepareSubproblems(n, planSubproblems(n)), planGpuWork(n).rowsLeft);
      let units = 0;
      for (let got = stream.fill(new UnitBatch(1 << 16)); got > 0; got = stream.fill(new UnitBatch(1 << 16))) units += got;
      const l = lines[k];
      expect([l.n, l.units, l.dispatches, l.largest]).toEqual([n, units, 1, units]); // small n: one dispatch of every unit
      for (const value of [l.ms, l.pageFaults, l.touchMs]) expect(value).toBeGreaterThan(0);
    }
  });
});
