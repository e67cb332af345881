// The order of the test files (test/quick-first-sequencer.ts): the quickest
// known first, the rest as Vitest sorts them (longest first).
import { describe, expect, it } from 'vitest';
import { quickestFirst } from './quick-first-sequencer.js';

describe('quickestFirst', () => {
  it('moves the file of least known duration to the front and keeps the rest in order', () => {
    expect(quickestFirst(['slow', 'mid', 'quick', 'quicker-but-unknown'], [18_000, 6_000, 40, undefined])).toEqual([
      'quick',
      'slow',
      'mid',
      'quicker-but-unknown',
    ]);
  });

  it('ignores files that took 0 ms (skipped) and leaves an order with nothing known as it is', () => {
    expect(quickestFirst(['a', 'b', 'c'], [500, 0, 90])).toEqual(['c', 'a', 'b']);
    expect(quickestFirst(['a', 'b'], [undefined, undefined])).toEqual(['a', 'b']);
    expect(quickestFirst(['a', 'b'], [10, 500])).toEqual(['a', 'b']);
  });
});
