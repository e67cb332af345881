// The tables of one benchmark result (the object bench/run.mjs writes to
// bench/results/latest.json): pure functions of it, so the tests build them
// from a fixed result and the committed files can be checked against them.

/**
 * @typedef {{ n: number, engine: string, label: string, medianMs: number, rme: number, samples: number, total: string,
 *   vsBaseline?: number, vsSymmetryWasm?: number, vsNativePerRound?: { median: number, min: number, max: number, rounds?: number[] } }} Row
 * @typedef {{ cpu: string, cores: number, node: string, nativeCompiler?: string, pinned?: string }} Machine
 * @typedef {{ date: string, machine: Machine, sizes: number[], rows: Row[], baseline?: string, skipped?: { engine: string, reason: string }[],
 *   command?: string, busy?: string, cliSample?: string, cold?: { engine: string, n: number, medianMs: number }[], abortLatencyMs?: number[] }} Result
 */

/** A time in the unit that keeps three significant digits (small n runs in microseconds). */
export function duration(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** The row's time relative to the run's baseline engine at the same n (older results name it vsSymmetryWasm). */
function ratio(/** @type {Row} */ r) {
  return r.vsBaseline ?? r.vsSymmetryWasm;
}

/** One line naming the run: its date, the machine and the runtime. */
export function runLine(/** @type {Result} */ result) {
  const m = result.machine;
  const busy = result.busy ? ` ${result.busy}` : '';
  const pinned = m.pinned ? `, single-thread rows and native C on ${m.pinned}` : '';
  return `${result.date.slice(0, 10)}, ${m.cpu}, ${m.cores} cores, Node ${m.node}${pinned}.${busy}`;
}

/**
 * The table of every engine (rows) at the chosen sizes (columns): median time,
 * and in brackets the time relative to the baseline when `ratios` is set.
 * @param {Result} result
 * @param {{ sizes?: number[], ratios?: boolean }} [options]
 */
export function engineTable(result, { sizes = result.sizes, ratios = true } = {}) {
  const engines = [...new Set(result.rows.filter((r) => sizes.includes(r.n)).map((r) => r.engine))];
  const lines = [`| engine | ${sizes.map((n) => `n = ${n}`).join(' | ')} |`, `|---|${sizes.map(() => '---:').join('|')}|`];
  for (const engine of engines) {
    const label = result.rows.find((r) => r.engine === engine)?.label ?? engine;
    const cells = sizes.map((n) => {
      const r = result.rows.find((x) => x.engine === engine && x.n === n);
      if (!r) return '–';
      const x = ratio(r);
      return ratios && x !== undefined ? `${duration(r.medianMs)} (${x.toFixed(2)}x)` : duration(r.medianMs);
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

/** The engines the run could not time, one line each. */
export function skippedLines(/** @type {Result} */ result) {
  return (result.skipped ?? []).map((s) => `- ${s.engine}: not timed (${s.reason})`);
}

/** The label of the baseline engine, for the bracketed ratios. */
function baselineLabel(/** @type {Result} */ result) {
  const id = result.baseline ?? 'symmetry-wasm';
  return result.rows.find((r) => r.engine === id)?.label ?? id;
}

/** The full markdown of a run: bench/results/latest.md and the table in bench/README.md. */
export function resultMarkdown(/** @type {Result} */ result) {
  const lines = [
    `Median wall time per count, one run of \`${result.command ?? 'npm run bench'}\`: ${runLine(result)} In brackets: time relative to ${baselineLabel(result)} in the same run (lower is faster).`,
    '',
    engineTable(result).trimEnd(),
  ];
  const skipped = skippedLines(result);
  if (skipped.length > 0) lines.push('', ...skipped);
  // One n with the native anchor (bench:17): each engine's time over native C's, round by round, so drift cancels.
  const perRound = result.sizes.length === 1 ? result.rows.filter((r) => r.vsNativePerRound && r.engine !== 'native') : [];
  if (perRound.length > 0) {
    lines.push('', `Time divided by native C's in the same round, median (range) of the rounds, n = ${result.sizes[0]}:`, '');
    for (const r of perRound) {
      const v = /** @type {NonNullable<Row['vsNativePerRound']>} */ (r.vsNativePerRound);
      lines.push(`- ${r.label}: ${v.median.toFixed(3)}x (${v.min.toFixed(3)}–${v.max.toFixed(3)})`);
    }
  }
  if (result.cold && result.cold.length > 0) {
    lines.push('', 'Cold start (a fresh Node process: import, wasm compile and instantiation, first count; median of 5):', '');
    const ns = [...new Set(result.cold.map((c) => c.n))];
    lines.push(`| engine | ${ns.map((n) => `n = ${n}`).join(' | ')} |`, `|---|${ns.map(() => '---:').join('|')}|`);
    for (const engine of [...new Set(result.cold.map((c) => c.engine))]) {
      const cell = (/** @type {number} */ n) => {
        const c = result.cold?.find((x) => x.engine === engine && x.n === n);
        return c ? duration(c.medianMs) : '–';
      };
      lines.push(`| ${engine} | ${ns.map(cell).join(' | ')} |`);
    }
  }
  if (result.abortLatencyMs && result.abortLatencyMs.length > 0) {
    lines.push(
      '',
      `Abort: \`count(18, { threads: ${result.machine.cores}, signal })\` aborted mid-count rejects with an AbortError after ${result.abortLatencyMs.map((ms) => ms.toFixed(1)).join(', ')} ms.`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The sizes README's table shows: the three largest of the run. */
export function readmeSizes(/** @type {Result} */ result) {
  return [...result.sizes].sort((a, b) => a - b).slice(-3);
}

/** README's speed table: one run, one machine, one date (README and its test both build it with this). */
export function readmeSpeedMarkdown(/** @type {Result} */ result) {
  return (
    [
      `Median time per count, \`${result.command ?? 'npm run bench'}\` of ${runLine(result)}`,
      '',
      engineTable(result, { sizes: readmeSizes(result), ratios: false }).trimEnd(),
    ].join('\n') + '\n'
  );
}

/** README's sample of the CLI's output, from the same run (its `nqueens count 16`), as a fenced block. */
export function readmeCliSample(/** @type {Result} */ result) {
  return result.cliSample ? `\`\`\`\n${result.cliSample.trimEnd()}\n\`\`\`\n` : undefined;
}
