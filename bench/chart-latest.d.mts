// Types of bench/chart-latest.mjs, for the tests.
export function latestChart(result: unknown): string;
export function writeChart(jsonFile: string, svgFile: string): void;
