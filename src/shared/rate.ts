// How a count's time and speed read to a person: the CLI's output and the
// demo page say them the same way.

/** `232.9 ms`, `7.53 s`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/** Solutions per second, scaled to k, M or G (`63.44 M solutions/s`, `93 solutions/s`, `0.4 solutions/s`); `-` when there is no rate. */
export function formatRate(solutions: bigint, elapsedMs: number): string {
  if (elapsedMs <= 0 || solutions === 0n) return '-';
  const perSecond = (Number(solutions) / elapsedMs) * 1000;
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, unit] of units) if (perSecond >= scale) return `${(perSecond / scale).toFixed(2)} ${unit} solutions/s`;
  // Below 10 a second, two significant digits: a count that found a solution never shows 0.
  return `${perSecond >= 10 ? perSecond.toFixed(0) : String(Number(perSecond.toPrecision(2)))} solutions/s`;
}
