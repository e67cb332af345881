// Types of bench/chart.mjs, for the demo page (web/bench.ts).
export interface TimeSeries {
  label: string;
  points: { n: number; ms: number }[];
}
export function formatDuration(ms: number): string;
export function timeChartSvg(chart: { title?: string; subtitle?: string; series: TimeSeries[]; width?: number }): string;
export function benchSeries(result: { rows: { engine: string; label: string; n: number; medianMs: number }[] }): TimeSeries[];
