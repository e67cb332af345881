// Every figure README states about time, speed or size comes from a file the
// benchmark or the tests write, or is checked here against the code, so a
// stale figure fails: the speed table and the CLI's sample output are
// `npm run bench`'s (bench/results/latest.json, written into README by
// bench/tables.mjs), the download size is checked by bundle-size.test.ts, the
// join's memory against joinMemoryBytes. README stays at most 300 lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOIN_MAX_N } from '../dist/index.js';
import { joinMemoryBytes, QUARTER_CACHE_BYTES } from '../dist/join/join-plan.js';
import { IDLE_MS } from '../dist/run/pool.js';
import { SLICE_MS } from '../dist/shared/slices.js';
import { latestChart } from '../bench/chart-latest.mjs';
import { historyMarkdown } from '../bench/history.mjs';
import { readmeBlocks, summaryMarkdown } from '../bench/tables.mjs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const README = read('../README.md');
const latest = JSON.parse(read('../bench/results/latest.json'));

/** The text between a document's <!-- name:start --> and <!-- name:end --> markers. */
function block(text: string, name: string): string | undefined {
  return new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(text)?.[1];
}

describe("README's figures", () => {
  it('is at most 300 lines', () => {
    expect(README.split('\n').length - 1).toBeLessThanOrEqual(300);
  });

  it("the speed table and the CLI's sample output are those of bench/results/latest.json", () => {
    const blocks = readmeBlocks();
    expect(Object.keys(blocks).sort()).toEqual(['readme-cli-sample', 'readme-speed']);
    for (const [name, content] of Object.entries(blocks)) expect(block(README, name), name).toBe(content);
  });

  it('the speed section is one table, of one run: one machine, one date', () => {
    const speed = README.slice(README.indexOf('## Speed\n'), README.indexOf('\n## ', README.indexOf('## Speed\n') + 1));
    expect(speed.match(/^\|---/gm)).toHaveLength(1);
    expect(speed).toContain(latest.date.slice(0, 10));
    expect(speed).toContain(latest.machine.cpu);
    expect(speed).toContain(`Node ${latest.machine.node}`);
    // The join, what count() runs from n = 16, is in it.
    expect(speed).toMatch(/^\| join, wasm, 1 thread \|/m);
  });

  it('no time is stated outside the generated blocks but the documented constants checked here', () => {
    const prose = README.replace(/<!-- (readme-[\w-]+):start -->[\s\S]*?<!-- \1:end -->/g, '');
    const times = [...prose.matchAll(/\b\d[\d,.]*\s?(?:µs|ms|s|sec|min|h|hours?|minutes?|seconds?)\b/g)].map((m) => m[0]);
    // Each: a constant of the code (the progress interval is the runner's default, documented with it in docs/api-details.md).
    const constants: Record<string, boolean> = {
      '100 ms': true,
      '20 ms': SLICE_MS === 20,
      '5 s': IDLE_MS === 5000,
    };
    expect(times.filter((t) => !constants[t])).toEqual([]);
  });

  it('no speed ratio or rate is stated outside the generated blocks', () => {
    const prose = README.replace(/<!-- (readme-[\w-]+):start -->[\s\S]*?<!-- \1:end -->/g, '');
    const ratios = [...prose.matchAll(/\b\d[\d,.]*\s?(?:x|×|times)(?![\w-])|\b\d[\d,.]*\s?[kMG]? ?(?:solutions|counts)\/s\b/g)].map(
      (m) => m[0],
    );
    expect(ratios).toEqual([]);
  });

  it("the join's memory: its table cache, the most a thread needs up to n = 23, and at JOIN_MAX_N", () => {
    const text = README.replace(/\s+/g, ' ');
    const cache = /within (\d+) MiB/.exec(text);
    expect(Number(cache?.[1])).toBe(QUARTER_CACHE_BYTES / 2 ** 20);
    const stated = /at most (\d+) MiB a thread up to n = (\d+), ([\d.]+) GiB at (\d+)/.exec(text);
    expect(stated).not.toBeNull();
    const [, mib, upTo, gib, at] = stated!;
    expect(Number(at)).toBe(JOIN_MAX_N);
    expect(Number(upTo)).toBe(JOIN_MAX_N - 1);
    const largest = Math.max(...Array.from({ length: JOIN_MAX_N - 1 }, (_, i) => joinMemoryBytes(i + 1)));
    expect(Number(mib)).toBe(Math.ceil(largest / 2 ** 20));
    expect(gib).toBe((joinMemoryBytes(JOIN_MAX_N) / 2 ** 30).toFixed(1));
  });
});

describe('the benchmark files agree with the run', () => {
  it("docs/benchmarks.md's summary is the latest run's", () => {
    expect(block(read('../docs/benchmarks.md'), 'bench-summary')).toBe(summaryMarkdown());
  });

  it("bench/README.md's table is bench/results/latest.md", () => {
    expect(block(read('../bench/README.md'), 'bench')).toBe(read('../bench/results/latest.md'));
  });

  it("bench/README.md's n = 17 table and run history are bench/results/latest-n17.md and history-n17.jsonl", () => {
    expect(block(read('../bench/README.md'), 'bench17')).toBe(read('../bench/results/latest-n17.md'));
    expect(block(read('../bench/README.md'), 'bench17-history')).toBe(historyMarkdown());
  });

  it('the chart is drawn from the same result, shows the join and names the CPU', () => {
    const svg = read('../bench/results/latest.svg');
    expect(svg).toBe(latestChart(latest));
    expect(svg).toContain('data-label="join, wasm, 1 thread"');
    expect(svg).toContain(latest.machine.cpu);
  });
});
