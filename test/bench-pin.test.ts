// bench/pin.mjs: the benchmark's single-thread rows on one core, rows with workers on every core.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expand, pinning } from '../bench/pin.mjs';

const canPin = process.platform === 'linux' && existsSync('/usr/bin/taskset');

describe('bench/pin.mjs', () => {
  it("reads taskset's lists of cores", () => {
    expect(expand('0')).toEqual([0]);
    expect(expand('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(expand('1,3-4')).toEqual([1, 3, 4]);
  });

  it("pins nothing for --cpu any, and refuses a core that is not a number or not this process's", () => {
    expect(pinning('any')).toEqual({ reason: '--cpu any' });
    expect(() => pinning('first')).toThrow(/--cpu takes a core's number or 'any', not "first"/);
    if (canPin) expect(() => pinning('4096')).toThrow(/--cpu 4096: this process may use cores /);
  });

  it.runIf(canPin)('by default, the first core this process may use, core 0 or not (taskset -c, a container given some cores)', () => {
    const script = `import { pinning } from ${JSON.stringify(new URL('../bench/pin.mjs', import.meta.url).href)}; console.log(JSON.stringify(pinning(undefined)));`;
    const here = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(here.stderr).toBe('');
    const all = expand((JSON.parse(here.stdout) as { all: string }).all);
    expect(JSON.parse(here.stdout)).toEqual({ cpu: String(all[0]), all: expect.any(String) });
    // On the last of them only: the default is that core (core 0 may not be this process's to use).
    const last = String(all.at(-1));
    const there = spawnSync('/usr/bin/taskset', ['-c', last, process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(there.stderr).toBe('');
    expect(JSON.parse(there.stdout)).toEqual({ cpu: last, all: last });
  });

  it.runIf(canPin)('puts every thread on the one core, workers started later too, and gives the cores back', () => {
    // In a child, so this test's own process keeps its cores: the cores of each thread, as the kernel says.
    const script = `
      import { readFileSync } from 'node:fs';
      import { Worker } from 'node:worker_threads';
      import { pinning, runOn } from ${JSON.stringify(new URL('../bench/pin.mjs', import.meta.url).href)};
      const cores = () => readFileSync('/proc/thread-self/status', 'utf8').match(/^Cpus_allowed_list:\\s*(\\S+)$/m)[1];
      const inWorker = () => new Promise((resolve) => {
        const w = new Worker("Promise.all([import('node:fs'), import('node:worker_threads')]).then(([fs, wt]) => wt.parentPort.postMessage(fs.readFileSync('/proc/thread-self/status', 'utf8').match(/^Cpus_allowed_list:\\\\s*(\\\\S+)$/m)[1]));", { eval: true });
        w.once('message', (m) => { void w.terminate(); resolve(m); });
      });
      const pin = pinning(undefined);
      const before = cores();
      runOn(pin.cpu);
      const pinned = [cores(), await inWorker()];
      runOn(pin.all);
      console.log(JSON.stringify({ all: pin.all, before, pinned, freed: [cores(), await inWorker()] }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const seen = JSON.parse(r.stdout) as { all: string; before: string; pinned: string[]; freed: string[] };
    const all = expand(seen.all); // taskset writes "0,1" where the kernel writes "0-1"
    expect(expand(seen.before)).toEqual(all);
    expect(seen.pinned.map(expand)).toEqual([[all[0]], [all[0]]]);
    expect(seen.freed.map(expand)).toEqual([all, all]);
  });
});
