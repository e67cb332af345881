// asc's output without the lines nobody can act on. Binaryen's optimiser
// prints "Last converge was suboptimal." when a pass stops before a fixed
// point; the module is still correct and its size is checked by the build,
// so the line only alarms whoever reads the install log.
const NOISE = [/^Last converge was suboptimal\.$/];

/** `text` without the noise lines (other lines, warnings and errors included, kept as they are). */
export function withoutNoise(text) {
  return text
    .split(/(?<=\n)/)
    .filter((line) => !NOISE.some((pattern) => pattern.test(line.trimEnd())))
    .join('');
}
