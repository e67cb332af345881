// Where the benchmark's threads run (Linux, taskset). The single-thread rows
// run on this process's main thread and the native anchor in a child of it,
// so all of them are put on one core: on a VM whose cores differ (one was
// 1.3-1.55x slower than the other here, bench/peers/README.md), a ratio
// between two cores measures the cores. Rows that start workers on every
// core get this process's original cores back while they run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const TASKSET = '/usr/bin/taskset';

/**
 * The pinning `choice` asks for ('any': none; else a core's number;
 * undefined: the first core this process may use, which is not core 0
 * under `taskset -c 2-3` or in a container given cores 2 and 3), as far as
 * this system allows: `{ cpu, all }` (the core, and the cores this process
 * may use to begin with), or `{ reason }` why nothing is pinned.
 * @param {string | undefined} choice
 * @returns {{ cpu: string, all: string } | { reason: string }}
 */
export function pinning(choice) {
  if (choice === 'any') return { reason: '--cpu any' };
  if (choice !== undefined && !/^\d+$/.test(choice))
    throw new RangeError(`--cpu takes a core's number or 'any', not ${JSON.stringify(choice)}`);
  if (process.platform !== 'linux' || !existsSync(TASKSET)) return { reason: 'no taskset (Linux only)' };
  const all = /: (\S+)\s*$/.exec(taskset(['-c', '-p', String(process.pid)]))?.[1];
  if (all === undefined) return { reason: 'taskset did not report the cores' };
  const cores = expand(all);
  if (choice === undefined) return { cpu: String(cores[0]), all };
  if (!cores.includes(Number(choice))) throw new RangeError(`--cpu ${choice}: this process may use cores ${all} only`);
  return { cpu: choice, all };
}

/** Puts every thread of this process on `cores` (a taskset list: "0", "0-3,6"); threads started later inherit it. */
export function runOn(/** @type {string} */ cores) {
  // taskset lists the threads, then sets each: one that ends between the two (a worker let go) fails the call with
  // "No such process" (seen once in CI), while the others got their cores. The walk is made again.
  for (let walk = 1; ; walk++) {
    try {
      taskset(['-a', '-c', '-p', cores, String(process.pid)]);
      return;
    } catch (error) {
      if (walk === 5 || !/No such process/.test(String(error))) throw error;
    }
  }
}

/** The cores of a taskset list ("0-2,5" → [0, 1, 2, 5]). */
export function expand(/** @type {string} */ list) {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

function taskset(/** @type {string[]} */ args) {
  const r = spawnSync(TASKSET, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`taskset ${args.join(' ')} failed: ${r.stderr.trim() || r.error?.message}`);
  return r.stdout;
}
