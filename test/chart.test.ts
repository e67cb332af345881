// The README's benchmark chart: bench/chart-latest.mjs draws it from
// bench/results/latest.json, and the committed SVG is that drawing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { latestChart } from '../bench/chart-latest.mjs';
import { timeChartSvg } from '../bench/chart.mjs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the benchmark chart', () => {
  const result = JSON.parse(read('../bench/results/latest.json'));
  const svg: string = latestChart(result);

  it('has one line per engine and a point per measurement', () => {
    const engines = new Set(result.rows.map((r: { engine: string }) => r.engine));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<g class="series"/g)).toHaveLength(engines.size);
    expect(svg.match(/<circle /g)).toHaveLength(result.rows.length);
    for (const r of result.rows) expect(svg).toContain(r.label);
  });

  it('the committed bench/results/latest.svg matches the committed results', () => {
    expect(read('../bench/results/latest.svg')).toBe(svg);
  });

  it('puts slower times higher up, on a log scale', () => {
    const chart = timeChartSvg({
      series: [
        {
          label: 'a',
          points: [
            { n: 1, ms: 1 },
            { n: 2, ms: 10 },
            { n: 3, ms: 100 },
          ],
        },
      ],
    });
    const ys = [...chart.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(ys[0]).toBeGreaterThan(ys[1]);
    expect(ys[0] - ys[1]).toBeCloseTo(ys[1] - ys[2], 5);
  });
});
