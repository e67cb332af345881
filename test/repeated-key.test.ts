// repeatedKey (src/cli/repeated-key.ts): the key written twice in one object of a JSON text, the sign of an edited
// shard or checkpoint (JSON.parse keeps the last).
import { describe, expect, it } from 'vitest';
import { repeatedKey } from '../dist/cli/repeated-key.js';

describe('repeatedKey', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"b":{"c":1,"c":2}}', 'c'],
    ['[{"a":1},{"b":1,"b":2}]', 'b'],
    ['{"\\u0061":1,"a":2}', 'a'], // escapes are read
    ['{ "x" : [1, {"y": "}"}] , "x" : 2 }', 'x'], // a brace inside a string closes nothing
    ['{"s":"a\\"b","s":1}', 's'], // an escaped quote does not end the string
  ])('%s: %s', (text, key) => {
    expect(() => JSON.parse(text)).not.toThrow(); // valid JSON, as the callers have checked
    expect(repeatedKey(text)).toBe(key);
  });

  it.each([
    '{"a":1,"b":2}',
    '{"a":{"a":{"a":1}}}', // the same key in nested objects is no repeat
    '[{"a":1},{"a":2}]', // nor in two objects of an array
    '{"a":["a","a"],"b":"a"}', // strings that are values are no keys
    '{}',
    '[]',
    '"a"',
    '{"k":"\\\\","j":1}', // a string ending in an escaped backslash
  ])('%s: none', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(repeatedKey(text)).toBeUndefined();
  });
});
