// The benchmark's tables and chart, built from a fixed result (bench/report.mjs,
// bench/chart-latest.mjs), and a smoke run of `npm run bench -- --quick` on a
// tiny n: it times the join and the search on wasm and TypeScript, and says
// what it is doing as it goes. (No time is asserted: the machine is shared.)
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { latestChart } from '../bench/chart-latest.mjs';
import { engineTable, readmeCliSample, readmeSpeedMarkdown, resultMarkdown } from '../bench/report.mjs';

const RESULT = {
  date: '2026-11-26T19:40:00.000Z',
  machine: { cpu: 'Test CPU 9000', cores: 2, node: 'v20.20.2' },
  sizes: [8, 12, 16],
  baseline: 'symmetry-wasm',
  busy: 'Measured on a busy shared machine (load average 2.00 at the start): compare ratios, not absolute times.',
  skipped: [{ engine: 'webgpu', reason: 'no GPU here' }],
  cliSample: 'N          16\ntotal      14772512\n',
  rows: [
    { n: 8, engine: 'join-wasm', label: 'join, wasm, 1 thread', medianMs: 0.05, rme: 1, samples: 9, total: '92', vsBaseline: 0.5 },
    { n: 12, engine: 'join-wasm', label: 'join, wasm, 1 thread', medianMs: 2, rme: 1, samples: 9, total: '14200', vsBaseline: 0.5 },
    { n: 16, engine: 'join-wasm', label: 'join, wasm, 1 thread', medianMs: 170, rme: 1, samples: 3, total: '14772512', vsBaseline: 0.1 },
    {
      n: 8,
      engine: 'symmetry-wasm',
      label: 'search, wasm (SIMD), 1 thread',
      medianMs: 0.1,
      rme: 1,
      samples: 9,
      total: '92',
      vsBaseline: 1,
    },
    {
      n: 12,
      engine: 'symmetry-wasm',
      label: 'search, wasm (SIMD), 1 thread',
      medianMs: 4,
      rme: 1,
      samples: 9,
      total: '14200',
      vsBaseline: 1,
    },
    {
      n: 16,
      engine: 'symmetry-wasm',
      label: 'search, wasm (SIMD), 1 thread',
      medianMs: 1700,
      rme: 1,
      samples: 3,
      total: '14772512',
      vsBaseline: 1,
    },
    { n: 8, engine: 'reference', label: 'reference (array backtracking)', medianMs: 0.3, rme: 1, samples: 9, total: '92', vsBaseline: 3 },
  ],
};

describe('the benchmark report of a fixed result', () => {
  it('is a table of every engine against every n, in the unit that fits, with the ratio to the baseline', () => {
    expect(engineTable(RESULT)).toBe(
      [
        '| engine | n = 8 | n = 12 | n = 16 |',
        '|---|---:|---:|---:|',
        '| join, wasm, 1 thread | 50.0 µs (0.50x) | 2.00 ms (0.50x) | 170.0 ms (0.10x) |',
        '| search, wasm (SIMD), 1 thread | 0.10 ms (1.00x) | 4.00 ms (1.00x) | 1.70 s (1.00x) |',
        '| reference (array backtracking) | 0.30 ms (3.00x) | – | – |',
        '',
      ].join('\n'),
    );
  });

  it('names the date, CPU, cores, Node, a busy machine, the baseline and each engine it could not time', () => {
    const md = resultMarkdown(RESULT);
    expect(md.split('\n')[0]).toBe(
      'Median wall time per count, one run of `npm run bench`: 2026-11-26, Test CPU 9000, 2 cores, Node v20.20.2. Measured on a busy shared machine (load average 2.00 at the start): compare ratios, not absolute times. In brackets: time relative to search, wasm (SIMD), 1 thread in the same run (lower is faster).',
    );
    expect(md).toContain('- webgpu: not timed (no GPU here)');
  });

  it("README's table: the three largest n, times only, under one line naming the run", () => {
    expect(readmeSpeedMarkdown(RESULT)).toBe(
      [
        'Median time per count, `npm run bench` of 2026-11-26, Test CPU 9000, 2 cores, Node v20.20.2. Measured on a busy shared machine (load average 2.00 at the start): compare ratios, not absolute times.',
        '',
        '| engine | n = 8 | n = 12 | n = 16 |',
        '|---|---:|---:|---:|',
        '| join, wasm, 1 thread | 50.0 µs | 2.00 ms | 170.0 ms |',
        '| search, wasm (SIMD), 1 thread | 0.10 ms | 4.00 ms | 1.70 s |',
        '| reference (array backtracking) | 0.30 ms | – | – |',
        '',
      ].join('\n'),
    );
    expect(readmeCliSample(RESULT)).toBe('```\nN          16\ntotal      14772512\n```\n');
  });

  it('the chart draws the join and names the CPU, the runtime and the date', () => {
    const svg = latestChart(RESULT);
    expect(svg).toContain('data-label="join, wasm, 1 thread"');
    expect(svg).toContain('Test CPU 9000');
    expect(svg).toContain('Node v20.20.2');
    expect(svg).toContain('2026-11-26');
    expect(svg.match(/<circle /g)).toHaveLength(RESULT.rows.length);
  });
});

describe('npm run bench -- --quick', () => {
  it('times the join and the search in wasm and TypeScript, with a line per n and engine as it goes', () => {
    const r = spawnSync(process.execPath, ['bench/run.mjs', '--quick', '--sizes', '6'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    for (const label of [
      'join, wasm, 1 thread',
      'join, TypeScript, 1 thread',
      'search, wasm (SIMD), 1 thread',
      'search, TypeScript, 1 thread',
    ])
      expect(r.stdout).toMatch(new RegExp(`^\\| ${label.replace(/[()]/g, '\\$&')} \\| [\\d.]+ (µs|ms|s) \\(`, 'm'));
    expect(r.stderr).toMatch(/^n = 6: \d+ engines, 2 rounds$/m);
    expect(r.stderr).toMatch(/^ {2}n = 6 {2}join, wasm, 1 thread: /m);
    // WebGPU is timed where the runtime has it (the optional `webgpu` package and an adapter), else said to be skipped.
    expect(r.stderr).toMatch(/^(webgpu: skipped \(.+\)| {2}n = 6 {2}search, WebGPU: [\d.]+ (µs|ms|s) )/m);
  });
});
