// The long soak: 400 concurrent counts up to n = 15 with random aborts (test/soak.ts).
import { describe, expect, it } from 'vitest';
import { soak } from '../soak.js';

describe('a long soak of concurrent counts with random aborts', () => {
  it.each([1, 2, 3])('400 counts at once, seed %i: each exact or an AbortError', async (seed) => {
    expect(await soak(400, 15, seed)).toEqual([]);
  });
});
