// A line chart of time against n on a log scale, as a standalone SVG string:
// one line per engine. No dependencies and no Node APIs, so the demo page
// (web/) draws its benchmark with it too.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A duration in the unit that keeps it short: µs, ms or s. */
export function formatDuration(ms) {
  if (ms >= 1000) return `${+(ms / 1000).toPrecision(3)} s`;
  if (ms >= 1) return `${+ms.toPrecision(3)} ms`;
  return `${+(ms * 1000).toPrecision(3)} µs`;
}

/**
 * @param {{ title?: string, subtitle?: string, series: { label: string, points: { n: number, ms: number }[] }[], width?: number }} chart
 * @returns {string} an <svg> element
 */
export function timeChartSvg({ title = '', subtitle = '', series, width = 760 }) {
  const lines = series.filter((s) => s.points.some((p) => p.ms > 0));
  const legendRows = lines.length;
  const left = 64;
  const right = 16;
  const top = title ? (subtitle ? 52 : 36) : 12;
  const plotHeight = 300;
  const legendTop = top + plotHeight + 44;
  const height = legendTop + legendRows * 18 + 8;
  const points = lines.flatMap((s) => s.points.filter((p) => p.ms > 0));
  const ns = points.map((p) => p.n);
  const nMin = Math.min(...ns, Infinity);
  const nMax = Math.max(...ns, -Infinity);
  const logs = points.map((p) => Math.log10(p.ms));
  let yMin = Math.floor(Math.min(...logs, Infinity));
  let yMax = Math.ceil(Math.max(...logs, -Infinity));
  if (!Number.isFinite(yMin)) [yMin, yMax] = [0, 1];
  if (yMax === yMin) yMax = yMin + 1;
  const plotWidth = width - left - right;
  const x = (n) => left + (nMax === nMin ? plotWidth / 2 : ((n - nMin) / (nMax - nMin)) * plotWidth);
  const y = (ms) => top + ((yMax - Math.log10(ms)) / (yMax - yMin)) * plotHeight;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="${escape(title || 'time against n')}">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
  ];
  if (title) out.push(`<text x="${left}" y="20" font-size="15" font-weight="bold">${escape(title)}</text>`);
  if (subtitle) out.push(`<text x="${left}" y="38" fill="#555">${escape(subtitle)}</text>`);
  // Horizontal grid: a line per power of ten, lighter lines at 2x and 5x.
  for (let e = yMin; e <= yMax; e++) {
    const ms = 10 ** e;
    out.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${y(ms).toFixed(1)}" y2="${y(ms).toFixed(1)}" stroke="#ccc"/>`);
    out.push(`<text x="${left - 6}" y="${(y(ms) + 4).toFixed(1)}" text-anchor="end" fill="#333">${formatDuration(ms)}</text>`);
    if (e < yMax) {
      for (const m of [2, 5])
        out.push(`<line x1="${left}" x2="${width - right}" y1="${y(m * ms).toFixed(1)}" y2="${y(m * ms).toFixed(1)}" stroke="#eee"/>`);
    }
  }
  // Vertical ticks at each n measured.
  for (const n of [...new Set(ns)].sort((a, b) => a - b)) {
    out.push(`<line x1="${x(n).toFixed(1)}" x2="${x(n).toFixed(1)}" y1="${top}" y2="${top + plotHeight}" stroke="#f2f2f2"/>`);
    out.push(`<text x="${x(n).toFixed(1)}" y="${top + plotHeight + 16}" text-anchor="middle" fill="#333">${n}</text>`);
  }
  out.push(`<text x="${left + plotWidth / 2}" y="${top + plotHeight + 32}" text-anchor="middle" fill="#333">n (board size)</text>`);
  out.push(
    `<text transform="translate(14 ${top + plotHeight / 2}) rotate(-90)" text-anchor="middle" fill="#333">time per count (log scale)</text>`,
  );
  out.push(`<rect x="${left}" y="${top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#999"/>`);
  lines.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const pts = s.points.filter((p) => p.ms > 0).sort((a, b) => a.n - b.n);
    const path = pts.map((p, j) => `${j ? 'L' : 'M'}${x(p.n).toFixed(1)} ${y(p.ms).toFixed(1)}`).join(' ');
    out.push(`<g class="series" data-label="${escape(s.label)}">`);
    out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const p of pts) {
      out.push(
        `<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.ms).toFixed(1)}" r="3" fill="${colour}"><title>${escape(s.label)}, n = ${p.n}: ${formatDuration(p.ms)}</title></circle>`,
      );
    }
    out.push('</g>');
    const ly = legendTop + i * 18;
    out.push(`<line x1="${left}" x2="${left + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"/>`);
    out.push(`<text x="${left + 30}" y="${ly}">${escape(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** The series of a bench result (bench/results/latest.json): one per engine, median times. */
export function benchSeries(result) {
  const series = new Map();
  for (const r of result.rows) {
    if (!series.has(r.engine)) series.set(r.engine, { label: r.label, points: [] });
    series.get(r.engine).points.push({ n: r.n, ms: r.medianMs });
  }
  return [...series.values()];
}
