import { describe, expect, it } from 'vitest';
import { solutions, toBoard } from 'nqueens-wasm';

describe('toBoard', () => {
  it('gives the LeetCode 51 example for n = 4', () => {
    expect([...solutions(4)].map(toBoard)).toEqual([
      ['.Q..', '...Q', 'Q...', '..Q.'],
      ['..Q.', 'Q...', '...Q', '.Q..'],
    ]);
  });

  it('draws a single queen', () => {
    expect(toBoard([0])).toEqual(['Q']);
  });

  it.each([
    [[0, 4], RangeError, /placement\[1\] must be an integer from 0 to 1; got 4/],
    [[0.5], RangeError, /placement\[0\] must be an integer from 0 to 0; got 0.5/],
    [['1', 0], TypeError, /placement\[0\] must be an integer from 0 to 1; got "1"/],
    [[], RangeError, /placement.length must be an integer from 1 to 32; got 0/],
    [null, TypeError, /placement must be an array/],
    [5, TypeError, /placement must be an array/],
  ])('rejects %j', (input, type, message) => {
    expect(() => toBoard(input as number[])).toThrow(type);
    expect(() => toBoard(input as number[])).toThrow(message);
  });
});
