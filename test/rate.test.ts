// The rate the CLI and the demo page print (src/shared/rate.ts), from fixed counts and times.
import { describe, expect, it } from 'vitest';
import { formatMs, formatRate } from '../dist/shared/rate.js';

describe('formatRate', () => {
  it.each([
    [14_772_512n, 216.9, '68.11 M solutions/s'],
    [2_279_184_000n, 1000, '2.28 G solutions/s'],
    [724n, 0.5, '1.45 M solutions/s'],
    [92n, 10, '9.20 k solutions/s'],
    [1000n, 1000, '1.00 k solutions/s'],
    [93n, 1000, '93 solutions/s'],
    [10n, 1000, '10 solutions/s'],
    [95n, 10_000, '9.5 solutions/s'],
    [1n, 1000, '1 solutions/s'],
    [1n, 2500, '0.4 solutions/s'], // before: '0 solutions/s' for a count that found one
    [1n, 3_000_000, '0.00033 solutions/s'],
  ])('%s solutions in %s ms: %s', (solutions, ms, shown) => {
    expect(formatRate(solutions, ms)).toBe(shown);
  });

  it('no rate where nothing was counted or no time passed', () => {
    expect(formatRate(0n, 100)).toBe('-');
    expect(formatRate(5n, 0)).toBe('-');
  });

  it('times: ms below a second, s from it', () => {
    expect([formatMs(216.94), formatMs(999.94), formatMs(1000), formatMs(69_312)]).toEqual(['216.9 ms', '999.9 ms', '1.00 s', '69.31 s']);
  });
});
