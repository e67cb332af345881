// Writes the SVG chart of a benchmark result: `node bench/chart-latest.mjs`
// turns bench/results/latest.json into bench/results/latest.svg (README
// embeds it); `npm run bench` calls it after each published run. Optional
// arguments: the JSON to read and the SVG to write.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchSeries, timeChartSvg } from './chart.mjs';

/** The chart of one result (the parsed latest.json). */
export function latestChart(result) {
  const m = result.machine;
  return timeChartSvg({
    title: 'npm run bench: median time per count',
    subtitle: `${result.date.slice(0, 10)}, ${m.cpu}, ${m.cores} cores, Node ${m.node}${result.busy ? ', a busy shared machine' : ''}`,
    series: benchSeries(result),
  });
}

export function writeChart(jsonFile, svgFile) {
  writeFileSync(svgFile, latestChart(JSON.parse(readFileSync(jsonFile, 'utf8'))));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = process.argv[2] ?? fileURLToPath(new URL('./results/latest.json', import.meta.url));
  const svg = process.argv[3] ?? json.replace(/\.json$/, '.svg');
  writeChart(json, svg);
  console.log(`wrote ${svg}`);
}
