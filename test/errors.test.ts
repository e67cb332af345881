// Bad input fails fast with a TypeError or RangeError that names the argument.
import { describe, expect, it } from 'vitest';
import {
  count,
  countCompletions,
  countCompletionsSync,
  countSync,
  ERROR_CODES,
  planSubproblems,
  planUnits,
  solutions,
  toBoard,
  type Queen,
} from 'nqueens-wasm';

const BAD_N: [unknown, typeof TypeError | typeof RangeError][] = [
  [0, RangeError],
  [-1, RangeError],
  [33, RangeError],
  [2.5, RangeError],
  [NaN, RangeError],
  [Infinity, RangeError],
  [-Infinity, RangeError],
  [1e300, RangeError],
  ['8', TypeError],
  [null, TypeError],
  [undefined, TypeError],
  [8n, TypeError],
  [{}, TypeError],
  [[8], TypeError],
];

const N_MESSAGE = /^n must be an integer from 1 to 32; got /;

describe.each(BAD_N)('n = %s', (n, type) => {
  it('countSync throws', () => {
    expect(() => countSync(n as number)).toThrow(type);
    expect(() => countSync(n as number)).toThrow(N_MESSAGE);
  });

  it('count rejects', async () => {
    await expect(count(n as number)).rejects.toThrow(type);
    await expect(count(n as number)).rejects.toThrow(N_MESSAGE);
  });

  it('planSubproblems throws', () => {
    expect(() => planSubproblems(n as number)).toThrow(type);
    expect(() => planSubproblems(n as number)).toThrow(N_MESSAGE);
  });

  it('solutions throws at the call, not at the first next()', () => {
    expect(() => solutions(n as number)).toThrow(type);
    expect(() => solutions(n as number)).toThrow(N_MESSAGE);
  });

  // The other functions that take n: before, only fractions and NaN were tried on them, never 0, -1 or 33.
  it('countCompletionsSync and planUnits throw, countCompletions rejects', async () => {
    expect(() => countCompletionsSync(n as number, [])).toThrow(type);
    expect(() => countCompletionsSync(n as number, [])).toThrow(N_MESSAGE);
    expect(() => planUnits(n as number)).toThrow(type);
    expect(() => planUnits(n as number)).toThrow(N_MESSAGE);
    await expect(countCompletions(n as number, [])).rejects.toThrow(type);
    await expect(countCompletions(n as number, [])).rejects.toThrow(N_MESSAGE);
  });
});

// One rule for every number the API takes, Node's own (validateInteger): a number that is no integer (a fraction,
// NaN, an infinity) is a RangeError, a value that is no number at all a TypeError. Before, a fraction, NaN or an
// infinity as a placed queen's row or column, or as a column of `after`, was a TypeError.
describe('a number that is no integer, and a value that is no number', () => {
  const plan = planUnits(8);
  const search = planUnits(8, { algorithm: 'search' });
  const takers: [string, (v: unknown) => unknown][] = [
    ['n of countSync', (v) => countSync(v as number)],
    ['n of count', (v) => count(v as number)],
    ['n of solutions', (v) => solutions(v as number)],
    ['n of countCompletionsSync', (v) => countCompletionsSync(v as number, [])],
    ['n of countCompletions', (v) => countCompletions(v as number, [])],
    ['n of planSubproblems', (v) => planSubproblems(v as number)],
    ['n of planUnits', (v) => planUnits(v as number)],
    ["count()'s threads", (v) => count(8, { threads: v as number })],
    ["countCompletions()'s threads", (v) => countCompletions(8, [], { threads: v as number })],
    ["solutions()'s limit", (v) => solutions(8, { limit: v as number })],
    ["solutions()'s placed row", (v) => solutions(8, { placed: [[v as number, 0]] })],
    ["solutions()'s placed column", (v) => solutions(8, { placed: [[0, v as number]] })],
    ["countCompletionsSync()'s placed row", (v) => countCompletionsSync(8, [[v as number, 0]])],
    ["countCompletionsSync()'s placed column", (v) => countCompletionsSync(8, [[0, v as number]])],
    ["countCompletions()'s placed row", (v) => countCompletions(8, [[v as number, 0]])],
    ["countCompletions()'s placed column", (v) => countCompletions(8, [[0, v as number]])],
    ["solutions()'s after", (v) => solutions(4, { after: [0, v as number, 0, 0] })],
    ["toBoard()'s placement", (v) => toBoard([0, v as number])],
    ["planUnits()'s search depth", (v) => planUnits(8, { algorithm: 'search', depth: v as number })],
    ["planUnits()'s join depth", (v) => planUnits(8, { algorithm: 'join', depth: v as number })],
    ["planUnits()'s parts", (v) => planUnits(8, { parts: v as number })],
    ["unitsIn()'s from", (v) => plan.unitsIn(v as number)],
    ["unitsIn()'s to", (v) => search.unitsIn(0, v as number)],
    ["shard()'s index", (v) => plan.shard(v as number, 2)],
    ["shard()'s count", (v) => plan.shard(0, v as number)],
  ];
  const rejection = (call: () => unknown) => expect((async () => call())()).rejects;
  it.each(takers)('as %s: a fraction, NaN or an infinity is a RangeError', async (what, take) => {
    for (const v of [1.5, 0.5, NaN, -Infinity, ...(what.includes('limit') ? [] : [Infinity])]) {
      await rejection(() => take(v)).toMatchObject({ name: 'RangeError', code: ERROR_CODES.OUT_OF_RANGE });
    }
  });
  // Before, unitsIn(5, 2) gave no unit, as Array.slice does: swapped ends counted nothing, silently.
  it('unitsIn() takes `to` from `from` on: below it a RangeError naming both ends; equal ends no unit', () => {
    const ids = (from?: number, to?: number) => [...plan.unitsIn(from, to)].map(({ id }) => id);
    expect(() => plan.unitsIn(5, 2)).toThrow(
      expect.objectContaining({ name: 'RangeError', message: `to must be an integer from 5 to ${plan.units}; got 2` }),
    );
    expect([ids(5, 5), ids(5, 7), ids(plan.units - 1).length, ids(0, 0)]).toEqual([[], [5, 6], 1, []]);
  });
  it.each(takers)('as %s: a string, bigint, boolean, symbol, null or object is a TypeError', async (_what, take) => {
    for (const v of ['1', 1n, true, Symbol('1'), null, {}, [1], new Number(1)]) {
      await rejection(() => take(v)).toMatchObject({ name: 'TypeError', code: ERROR_CODES.INVALID_TYPE });
    }
  });
  it('names the argument and the number it got', () => {
    expect(() => countCompletionsSync(8, [[0, 0.5]])).toThrow('placed[0][1] (a column) must be an integer from 0 to 7; got 0.5');
    expect(() => solutions(8, { placed: [[NaN, 0]] })).toThrow('options.placed[0][0] (a row) must be an integer from 0 to 7; got NaN');
    expect(() => solutions(4, { after: [0, 1, Infinity, 0] })).toThrow('options.after[2] must be an integer from 0 to 3; got Infinity');
  });
});

// A list of integers (a placement, `after`, a placed queen's [row, col] pair) is an array or a typed array of
// numbers, in every function that takes one; array-likes are refused, and a hole is refused as a hole.
describe('lists of integers', () => {
  // Each taker, given the list for [1, 3, 0, 2] (or for the pair [0, 1]), and what it gives for the plain array.
  const takers: [string, number[], (list: unknown) => unknown][] = [
    ['toBoard(placement)', [1, 3, 0, 2], (list) => toBoard(list as number[])],
    ['solutions(4, { after })', [1, 3, 0, 2], (list) => [...solutions(4, { after: list as number[] })]],
    ['solutions(4, { placed: [pair] })', [0, 1], (list) => [...solutions(4, { placed: [list as Queen] })]],
    ['countCompletionsSync(4, [pair])', [0, 1], (list) => countCompletionsSync(4, [list as Queen]).total],
    ['countCompletions(4, [pair])', [0, 1], async (list) => (await countCompletions(4, [list as Queen])).total],
  ];
  const NUMBER_ARRAYS = [
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
  ];
  const refusal = async (call: () => unknown): Promise<unknown> => {
    try {
      await call();
    } catch (error) {
      return error;
    }
    return 'no error';
  };

  // Before: a typed array was refused as a placed queen ("must be a [row, col] pair; got an object").
  it.each(takers)(
    '%s takes an array, a subclass, a frozen one, a Proxy of one, and every typed array of numbers',
    async (_what, list, take) => {
      const expected = await take(list);
      class Columns extends Array<number> {}
      const lists = [
        Columns.from(list),
        Object.freeze([...list]),
        new Proxy([...list], {}),
        ...NUMBER_ARRAYS.map((type) => type.from(list)),
      ];
      for (const other of lists) expect(await take(other)).toEqual(expected);
    },
  );

  // Before: a typed array was read at an own `length` someone defined on it (entries past its end refused as holes).
  it.each(takers)('%s reads a typed array at its real length, not at an own length property', async (_what, list, take) => {
    const expected = await take(list);
    for (const length of [1, list.length + 5]) {
      const typed = Int32Array.from(list);
      Object.defineProperty(typed, 'length', { value: length });
      expect(await take(typed)).toEqual(expected);
    }
  });

  // Before: toBoard() drew array-likes, and named a String object's first character in its error.
  it.each(takers)(
    '%s refuses array-likes, DataViews and BigInt typed arrays with a TypeError naming the argument',
    async (_what, list, take) => {
      const arrayLike = { ...list, length: list.length };
      const args = (function (..._: number[]) {
        // eslint-disable-next-line prefer-rest-params -- the arguments object is the array-like under test
        return arguments;
      })(...list);
      for (const other of [
        arrayLike,
        args,
        new String(list.join('')),
        new DataView(new ArrayBuffer(list.length)),
        BigInt64Array.from(list, BigInt),
      ]) {
        expect(await refusal(() => take(other))).toMatchObject({
          name: 'TypeError',
          code: ERROR_CODES.INVALID_TYPE,
          message: expect.stringMatching(
            /^(placement|options\.after|(options\.)?placed\[0\]) must be an?.*; got (an object|a BigInt64Array)$/,
          ),
        });
      }
    },
  );

  // Before: a hole read as Array.prototype[index] where other code had set it (else as undefined).
  it.each(takers)('%s refuses a hole as a hole, whatever Array.prototype holds at its index', async (_what, list, take) => {
    const sparse = [...list];
    delete sparse[1];
    const prototype = Array.prototype as unknown as Record<number, unknown>;
    for (const inherited of [undefined, list[1]]) {
      if (inherited !== undefined) prototype[1] = inherited;
      try {
        expect(await refusal(() => take(sparse))).toMatchObject({
          name: 'TypeError',
          code: ERROR_CODES.INVALID_TYPE,
          message: expect.stringMatching(
            /\[1\]( \(a column\))? must be an integer from 0 to 3; got a hole \(an empty slot of a sparse array\)$/,
          ),
        });
      } finally {
        delete prototype[1];
      }
    }
  });

  it.each([
    ['solutions', (placed: unknown) => solutions(8, { placed: placed as Queen[] }), 'options.placed'],
    ['countCompletionsSync', (placed: unknown) => countCompletionsSync(8, placed as Queen[]), 'placed'],
    ['countCompletions', (placed: unknown) => countCompletions(8, placed as Queen[]), 'placed'],
  ])(
    '%s refuses a hole among the placed queens as a hole, whatever Array.prototype holds; a huge sparse one at once',
    async (_what, take, name) => {
      const prototype = Array.prototype as unknown as Record<number, unknown>;
      prototype[1] = [1, 3];
      try {
        // eslint-disable-next-line no-sparse-arrays -- the hole under test
        expect(await refusal(() => take([[0, 0], , [2, 4]]))).toMatchObject({
          name: 'TypeError',
          message: `${name}[1] must be a [row, col] pair; got a hole (an empty slot of a sparse array)`,
        });
      } finally {
        delete prototype[1];
      }
      const huge: Queen[] = [];
      huge.length = 2 ** 32 - 1;
      huge[0] = [0, 0];
      expect(await refusal(() => take(huge))).toMatchObject({ name: 'TypeError', message: expect.stringContaining(`${name}[1] must be`) });
    },
  );

  it('a huge sparse placement or after is refused by its length, at once', () => {
    const huge: number[] = [];
    huge.length = 2 ** 32 - 1;
    huge[0] = 0;
    expect(() => toBoard(huge)).toThrow('placement.length must be an integer from 1 to 32; got 4294967295');
    expect(() => solutions(4, { after: huge })).toThrow('options.after must have 4 entries, one column per row; got 4294967295');
  });

  // Before: a Proxy of an array whose `length` was NaN, -1, undefined or an object read as no queens (92 for n = 8),
  // and an `after` whose length was the string "8" was refused as "must have 8 entries; got 8".
  it('refuses a placed or after whose Proxy answers a length that is no array length, naming it', async () => {
    const lying = <T extends object>(list: T, length: unknown): T =>
      new Proxy(list, { get: (target, key, receiver) => (key === 'length' ? length : Reflect.get(target, key, receiver)) });
    for (const length of [NaN, -1, 1.5, 2 ** 32]) {
      expect(() => countCompletionsSync(8, lying<Queen[]>([[0, 0]], length))).toThrow(
        expect.objectContaining({
          name: 'RangeError',
          code: ERROR_CODES.OUT_OF_RANGE,
          message: `placed.length must be an integer from 0 to 4294967295; got ${length}`,
        }),
      );
      await expect(countCompletions(8, lying<Queen[]>([[0, 0]], length))).rejects.toThrow(RangeError);
      expect(() => solutions(8, { placed: lying<Queen[]>([[0, 0]], length) })).toThrow(/^options\.placed\.length must be an integer/);
    }
    for (const length of [undefined, {}, '1']) {
      expect(() => countCompletionsSync(8, lying<Queen[]>([[0, 0]], length))).toThrow(TypeError);
    }
    expect(() => solutions(8, { after: lying([0, 0, 0, 0, 0, 0, 0, 0], '8') })).toThrow(
      'options.after must have 8 entries, one column per row; got "8" (a string)',
    );
  });

  it.each(takers)('%s reads each entry once', async (_what, list, take) => {
    const expected = await take(list);
    const reads: number[] = [];
    const watched = [...list];
    for (const i of watched.keys()) Object.defineProperty(watched, i, { get: () => (reads.push(i), list[i]) });
    expect(await take(watched)).toEqual(expected);
    expect(reads).toEqual([...list.keys()]);
  });
});

// Before: "got 0", the one value the message says is allowed in some of them.
describe('-0, echoed as -0', () => {
  const plan = planUnits(8);
  it.each([
    ['countSync(-0)', () => countSync(-0), 'n must be an integer from 1 to 32; got -0'],
    ['count(-0)', () => count(-0), 'n must be an integer from 1 to 32; got -0'],
    ['solutions(-0)', () => solutions(-0), 'n must be an integer from 1 to 32; got -0'],
    ['planSubproblems(-0)', () => planSubproblems(-0), 'n must be an integer from 1 to 32; got -0'],
    ['planUnits(-0)', () => planUnits(-0), 'n must be an integer from 1 to 32; got -0'],
    ['countCompletionsSync(-0, [])', () => countCompletionsSync(-0, []), 'n must be an integer from 1 to 32; got -0'],
    ['countCompletions(-0, [])', () => countCompletions(-0, []), 'n must be an integer from 1 to 32; got -0'],
    ['count(8, { threads: -0 })', () => count(8, { threads: -0 }), 'options.threads must be an integer from 1 to 256; got -0'],
    [
      'countCompletions(8, [], { threads: -0 })',
      () => countCompletions(8, [], { threads: -0 }),
      'options.threads must be an integer from 1 to 256; got -0',
    ],
    [
      'planUnits(8, { parts: -0 })',
      () => planUnits(8, { parts: -0 }),
      'options.parts must be an integer from 1 to 9007199254740991; got -0',
    ],
    ['shard(0, -0)', () => plan.shard(0, -0), 'shards must be an integer from 1 to 9007199254740991; got -0'],
  ])('%s', async (_call, call, message) => {
    await expect((async () => call())()).rejects.toMatchObject({ name: 'RangeError', code: ERROR_CODES.OUT_OF_RANGE, message });
  });
  it('is taken as 0 where 0 is allowed: a coordinate, a column, a limit, an index', () => {
    expect(countCompletionsSync(4, [[-0, 1]]).total).toBe(1n);
    expect([...solutions(4, { after: [-0, 0, 0, 0] })]).toEqual([
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]);
    expect([...solutions(4, { limit: -0 })]).toEqual([]);
    expect(plan.shard(-0, 1)).toEqual({ from: 0, to: plan.units });
    expect(toBoard([-0])).toEqual(['Q']);
  });
  // Before: planUnits(11, { depth: -0 }).depth was -0, and the plan, kept per n
  // and depth ("11/0"), answered every later plan of n = 11 at depth 0 with it.
  it('is taken as 0 for a depth: no plan has depth -0, then or later', () => {
    for (const n of [11, 13]) {
      expect(planUnits(n, { depth: -0 }).depth).toBe(0);
      expect(planUnits(n, { depth: 0 }).depth).toBe(0);
    }
  });
});

describe('options', () => {
  it.each([
    [{ engine: 'gpu' }, RangeError, /options.engine must be one of 'auto', 'wasm', 'js', 'reference'; got "gpu"/],
    [{ engine: 1 }, TypeError, /options.engine must be one of .*; got 1/],
    [{ engine: null }, TypeError, /options.engine must be one of .*; got null/],
    [{ engnie: 'js' }, TypeError, /unknown option "engnie"; allowed options are engine/],
    ['js', TypeError, /options must be an object or undefined; got "js"/],
    [null, TypeError, /options must be an object or undefined; got null/],
    [[], TypeError, /options must be an object or undefined; got an array/],
    // Before: taken, their settings dropped unseen (a Map's entries are not own keys): engine 'js' ran on wasm.
    [new Map([['engine', 'js']]), TypeError, /options must be a plain object or undefined; got a Map/],
    [new Date(0), TypeError, /options must be a plain object or undefined; got a Date/],
    [new Int8Array(1), TypeError, /options must be a plain object or undefined; got an Int8Array/],
    // Before: "got an Uint8Array" (a U that sounds as "you" takes "a").
    [new Uint8Array(1), TypeError, /options must be a plain object or undefined; got a Uint8Array/],
    [new AbortController().signal, TypeError, /options must be a plain object or undefined; got an AbortSignal/],
    // Before: taken as empty options (a URL's parts, a URLSearchParams' entries, are not own keys).
    [new URL('https://example.org/?threads=2'), TypeError, /options must be a plain object or undefined; got a URL/],
    [new URLSearchParams('engine=js'), TypeError, /options must be a plain object or undefined; got a URLSearchParams/],
    [new EventTarget(), TypeError, /options must be a plain object or undefined; got an EventTarget/],
    [new Blob([]), TypeError, /options must be a plain object or undefined; got a Blob/],
  ])('countSync(8, %j) throws', (options, type, message) => {
    expect(() => countSync(8, options as never)).toThrow(type);
    expect(() => countSync(8, options as never)).toThrow(message);
  });

  it("refuses another realm's built-ins as options too (a vm context's or an iframe's Map): instanceof misses them", async () => {
    const { runInNewContext } = await import('node:vm');
    // Before: taken as empty options, their contents dropped unseen: countSync(8, <a vm context's Map>) counted 92 on wasm.
    for (const [source, name] of [
      ["new Map([['engine', 'bogus']])", 'a Map'],
      ['new Set()', 'a Set'],
      ['new WeakMap()', 'a WeakMap'],
      ['new WeakSet()', 'a WeakSet'],
      ['new Date(0)', 'a Date'],
      ['/engine/', 'a RegExp'],
      ['new ArrayBuffer(8)', 'an ArrayBuffer'],
    ] as const) {
      const options = runInNewContext(source) as object;
      expect(() => countSync(8, options as never)).toThrow(`countSync(): options must be a plain object or undefined; got ${name}`);
      // With its prototype swapped or removed, as well (`instanceof` cannot see it either).
      for (const prototype of [{}, null]) {
        expect(() => countSync(8, Object.setPrototypeOf(options, prototype) as never)).toThrow(`; got ${name}`);
      }
    }
    // An AbortSignal alike (an iframe's in a page; Node's vm contexts have none): one whose prototype is not AbortSignal's.
    const signal = Object.setPrototypeOf(AbortSignal.abort(), {}) as object;
    await expect(count(8, signal as never)).rejects.toThrow('count(): options must be a plain object or undefined; got an AbortSignal');
    // Another realm's plain object is options as ever, read by its own keys.
    expect(countSync(8, runInNewContext("({ engine: 'js', algorithm: 'search' })") as never)).toMatchObject({ total: 92n, engine: 'js' });
    expect(() => countSync(8, runInNewContext("({ engine: 'bogus' })") as never)).toThrow('options.engine must be one of');
  });

  it("lists 'webgpu' among the engines allowed only where it can run: count()", async () => {
    const cpu = "options.engine must be one of 'auto', 'wasm', 'js', 'reference'; got \"gpu\"";
    // Before: every function listed 'webgpu', then refused it with a TypeError where the CPU counts.
    for (const call of [
      () => countSync(8, { engine: 'gpu' as never }),
      () => [...solutions(8, { engine: 'gpu' as never })],
      () => countCompletionsSync(8, [], { engine: 'gpu' as never }),
    ])
      expect(call).toThrow(cpu);
    await expect(countCompletions(8, [], { engine: 'gpu' as never })).rejects.toThrow(cpu);
    await expect(count(8, { engine: 'gpu' as never })).rejects.toThrow("'reference', 'webgpu'; got \"gpu\"");
    expect(() => countSync(8, { engine: 'webgpu' as never })).toThrow(TypeError);
  });

  it('takes options of every kind that holds them as own keys: a class instance (tagged too), another realm, null prototype, a Proxy, a module namespace', async () => {
    const { runInNewContext } = await import('node:vm');
    class Tagged {
      engine = 'js';
      get [Symbol.toStringTag]() {
        return 'Options';
      }
    }
    const kinds = [
      new Tagged(),
      runInNewContext("({ engine: 'js' })"),
      Object.assign(Object.create(null), { engine: 'js' }),
      new Proxy({ engine: 'js' }, {}),
      (await import(String('data:text/javascript,export const engine = "js";'))) as object,
    ];
    expect(kinds.map((options) => [countSync(8, options).total, countSync(8, options).engine])).toEqual(kinds.map(() => [92n, 'js']));
  });

  it("reads only the options' own keys: none inherited from a prototype, nor set on Object.prototype by other code", async () => {
    const inherited = Object.create({ engine: 'fast', limit: -1 }) as Record<string, unknown>;
    expect(countSync(8, inherited)).toMatchObject({ total: 92n, unique: 12n });
    expect([...solutions(6, inherited)]).toHaveLength(4);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.threads = 0;
    prototype.engine = 'gpu';
    try {
      expect(countSync(10, {})).toMatchObject({ total: 724n, unique: 92n });
      expect(await count(10, {})).toMatchObject({ total: 724n, unique: 92n });
      expect(await count(10, { engine: 'js', threads: 1 })).toMatchObject({ total: 724n, engine: 'js' });
    } finally {
      delete prototype.threads;
      delete prototype.engine;
    }
  });

  // Before: with the options left out, each function read them from a plain {}, so these keys did reach the call
  // (countSync(8) ran on engine 'reference', solutions() yielded nothing).
  const unpolluted = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && 'elapsedMs' in value ? { ...value, elapsedMs: 0 } : value;
  it.each([
    ['countSync(8)', () => countSync(8)],
    ['count(8)', () => count(8)],
    ['solutions(6)', () => [...solutions(6)]],
    ['countCompletionsSync(6, [])', () => countCompletionsSync(6, [])],
    ['countCompletions(6, [[0, 1]])', () => countCompletions(6, [[0, 1]])],
    ['planUnits(12)', () => [planUnits(12).depth, planUnits(12).units]],
  ])('%s with its options left out reads nothing set on Object.prototype', async (_call, call) => {
    const expected = unpolluted(await call());
    const prototype = Object.prototype as Record<string, unknown>;
    const keys = {
      engine: 'reference',
      algorithm: 'join',
      threads: 0,
      limit: 0,
      unique: true,
      placed: [[0, 0]],
      after: [5, 5, 5, 5, 5, 5],
      depth: 0,
    };
    Object.assign(prototype, keys);
    try {
      expect(unpolluted(await call())).toEqual(expected);
    } finally {
      for (const key of Object.keys(keys)) delete prototype[key];
    }
  });

  // Before: a run read its own optional settings from plain objects too: with Object.prototype.to = 0 or from = 'x'
  // a count came out 0, with `already` it threw, and an inherited `signal` reached Node's addEventListener through
  // the { once: true } given to it, and every count rejected.
  it.each([
    ['count(12)', () => count(12)],
    ['count(16, { threads: 2 })', () => count(16, { threads: 2 })],
    ["count(13, { threads: 2, algorithm: 'search' })", () => count(13, { threads: 2, algorithm: 'search' })],
    ['countCompletions(14, [[0, 3]], { threads: 2 })', () => countCompletions(14, [[0, 3]], { threads: 2 })],
  ])('%s runs as it does without keys other code set on Object.prototype', async (_call, call) => {
    const expected = unpolluted(await call());
    const prototype = Object.prototype as Record<string, unknown>;
    for (const key of ['from', 'to', 'already', 'skip', 'onUnit', 'signal', 'progressIntervalMs', 'capture', 'passive']) {
      prototype[key] = 0;
      try {
        expect([key, unpolluted(await call())]).toEqual([key, expected]);
      } finally {
        delete prototype[key];
      }
    }
  });

  // Before: internal objects read keys they leave out through Object.prototype too: a method without `codec` or
  // `share`, a 'run' message without `packed` (Node threw on it as a buffer to move, ending the process), the pool's
  // default probe (`onMessage`), a worker's results, Node's Worker options (`name`, `eval`, `argv`), the wasm imports
  // (`env`) and the open-rows enumeration (`by`). Each such key is set alone, as a number and as an object.
  it.each([
    ...['codec', 'packed', 'share', 'partial', 'onMessage', 'reportEveryMs', 'workerHooks', 'joinTableBytes', 'warm'],
    ...['by', 'env', 'abort', 'trace', 'seed', 'memory', 'name', 'eval', 'argv', 'workerData', 'resourceLimits'],
    ...['maxOldGenerationSizeMb', 'stackSizeMb', 'bun', 'deno', 'helper', 'helps', 'helperStays', 'onPartial', 'slot'],
  ])('counts exactly with Object.prototype.%s set by other code', async (key) => {
    const prototype = Object.prototype as Record<string, unknown>;
    for (const value of [1, {}]) {
      prototype[key] = value;
      try {
        const counts = [
          await count(12, { threads: 2 }),
          await count(16, { threads: 2 }),
          countSync(10),
          await countCompletions(12, [[0, 1]], { threads: 2 }),
        ].map(({ total, threads }) => [total, threads]);
        const units = [...planUnits(12).unitsIn(0, 3)].map(({ id }) => id);
        expect([key, value, counts, [...solutions(6)], units]).toEqual([
          key,
          value,
          [
            [14_200n, 2],
            [14_772_512n, 2],
            [724n, 1],
            [806n, 2],
          ],
          [
            [1, 3, 5, 0, 2, 4],
            [2, 5, 1, 4, 0, 3],
            [3, 0, 4, 1, 5, 2],
            [4, 2, 0, 5, 3, 1],
          ],
          [0, 1, 2],
        ]);
      } finally {
        delete prototype[key];
      }
    }
  });

  it('refuses an unknown own enumerable key, naming it and the allowed ones; symbol keys and non-enumerable ones that are no option are not looked at', async () => {
    const unknown = { engine: 'js', threds: 2 };
    await expect(count(8, unknown as never)).rejects.toMatchObject({
      name: 'TypeError',
      code: ERROR_CODES.UNKNOWN_OPTION,
      message: 'count(): unknown option "threds"; allowed options are engine, algorithm, threads, onProgress, signal',
    });
    // Each would be refused if it were looked at ('gpu' is no CPU engine).
    const hidden = Object.defineProperty({ [Symbol('engine')]: 'gpu' }, 'engnie', { value: 'gpu', enumerable: false });
    expect(countSync(8, hidden)).toMatchObject({ total: 92n, unique: 12n });
  });

  it('reads each option once, a getter too; a getter that throws fails the call with its own error', async () => {
    let reads = 0;
    const options = {
      get engine() {
        return ++reads === 1 ? 'js' : 'gpu';
      },
    };
    expect(countSync(8, options as never)).toMatchObject({ total: 92n, engine: 'js' });
    expect(reads).toBe(1);
    const own = new Error('from the getter');
    const throwing = {
      get engine(): 'js' {
        throw own;
      },
    };
    await expect(count(8, throwing)).rejects.toBe(own);
    expect(() => countSync(8, throwing)).toThrow(own);
    // The keys are all checked before any is read: an unknown one is refused without running the getter.
    const withTypo = Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(throwing), typo: { value: 1, enumerable: true } });
    expect(() => countSync(8, withTypo)).toThrow('countSync(): unknown option "typo"');
  });

  it("gives nothing for an option a class defines as a getter on its prototype: inherited, as a prototype's keys are", () => {
    class Defaults {
      get engine(): 'js' {
        return 'gpu' as 'js'; // refused if it were read
      }
    }
    expect(countSync(8, new Defaults())).toMatchObject({ total: 92n, unique: 12n });
  });

  // The classes and codes README's table of error codes gives for each.
  it.each([
    ['countSync webgpu', () => countSync(8, { engine: 'webgpu' as never }), TypeError, ERROR_CODES.INVALID_TYPE, /WebGPU is asynchronous/],
    ['solutions webgpu', () => solutions(8, { engine: 'webgpu' as never }), TypeError, ERROR_CODES.INVALID_TYPE, /it only counts/],
    [
      'countCompletionsSync webgpu',
      () => countCompletionsSync(8, [], { engine: 'webgpu' as never }),
      TypeError,
      ERROR_CODES.INVALID_TYPE,
      /whole boards only/,
    ],
    [
      'countCompletions webgpu',
      () => countCompletions(8, [], { engine: 'webgpu' as never }),
      TypeError,
      ERROR_CODES.INVALID_TYPE,
      /whole boards only/,
    ],
    [
      // Before: a RangeError that threads must be 1 with 'webgpu', as if it could count completions with one.
      'countCompletions webgpu threads 2',
      () => countCompletions(8, [[0, 0]], { engine: 'webgpu' as never, threads: 2 }),
      TypeError,
      ERROR_CODES.INVALID_TYPE,
      /whole boards only/,
    ],
    [
      'count webgpu threads 2',
      () => count(8, { engine: 'webgpu', threads: 2 }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
      /options.threads must be 1 with engine 'webgpu'/,
    ],
    [
      'count reference threads 2',
      () => count(8, { engine: 'reference', threads: 2 }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
      /options.threads must be 1 with engine 'reference'/,
    ],
    [
      'count reference join',
      () => count(8, { engine: 'reference', algorithm: 'join' }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
      /options.algorithm 'join' needs engine/,
    ],
    [
      'count webgpu join',
      () => count(8, { engine: 'webgpu', algorithm: 'join' }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
      /options.algorithm 'join' needs engine/,
    ],
    [
      'countSync reference join',
      () => countSync(8, { engine: 'reference', algorithm: 'join' }),
      RangeError,
      ERROR_CODES.OUT_OF_RANGE,
      /options.algorithm 'join' needs engine/,
    ],
  ])('%s: the class and code of the table', async (_, call, type, code, message) => {
    const error = await (async () => call())().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('count() rejects an unknown engine', async () => {
    await expect(count(8, { engine: 'fast' as never })).rejects.toThrow(/options.engine must be one of/);
  });

  it.each([
    // Infinity is no limit (solutions.test.ts); -Infinity, NaN, fractions and negatives are none.
    [{ limit: -1 }, RangeError, /options.limit must be an integer >= 0 or Infinity; got -1$/],
    [{ limit: 1.5 }, RangeError, /options.limit must be an integer >= 0 or Infinity; got 1.5$/],
    [{ limit: NaN }, RangeError, /options.limit must be an integer >= 0 or Infinity; got NaN$/],
    [{ limit: -Infinity }, RangeError, /options.limit must be an integer >= 0 or Infinity; got -Infinity$/],
    [{ limit: '3' }, TypeError, /options.limit must be an integer >= 0 or Infinity; got "3" \(a string\)$/],
    [{ limit: null }, TypeError, /options.limit must be an integer >= 0 or Infinity; got null$/],
    [{ limit: 3n }, TypeError, /options.limit must be an integer >= 0 or Infinity; got 3n \(a bigint\)$/],
    [{ limit: 3, threads: 2 }, TypeError, /solutions\(\): unknown option "threads"; allowed options are limit, engine/],
    [{ engine: 'gpu' }, RangeError, /options.engine must be one of/],
  ])('solutions(8, %o) throws', (options, type, message) => {
    expect(() => solutions(8, options as never)).toThrow(type);
    expect(() => solutions(8, options as never)).toThrow(message);
  });
});

describe('a revoked Proxy, which throws at every touch', () => {
  const revoked = (target: object): never => {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy as never;
  };
  const plan = planUnits(8);
  // Before: a TypeError of the engine's own, without a code ("Cannot perform 'IsArray' on a proxy that has been revoked").
  it.each([
    ['n', () => countSync(revoked({})), /^n must be an integer from 1 to 32; got a revoked Proxy$/],
    ['n, of a function', () => planSubproblems(revoked(() => 8)), /^n must be an integer from 1 to 32; got a revoked Proxy$/],
    ['options', () => countSync(8, revoked({})), /^countSync\(\): options must be an object or undefined; got a revoked Proxy$/],
    ['options.engine', () => countSync(8, { engine: revoked({}) }), /^options.engine must be one of .*; got a revoked Proxy$/],
    ['placed', () => countCompletionsSync(8, revoked([])), /^placed must be an array of \[row, col\] pairs; got a revoked Proxy$/],
    ['a placed queen', () => countCompletionsSync(8, [revoked([0, 0])]), /^placed\[0\] must be a \[row, col\] pair; got a revoked Proxy$/],
    ['options.placed', () => solutions(8, { placed: revoked([]) }), /^options.placed must be an array of .*; got a revoked Proxy$/],
    ['options.after', () => solutions(8, { after: revoked([]) }), /^options.after must be an array of 8 columns .*; got a revoked Proxy$/],
    ['options.limit', () => solutions(8, { limit: revoked({}) }), /^options.limit must be .*; got a revoked Proxy$/],
    ['a placement', () => toBoard(revoked([])), /^placement must be an array of column indices; got a revoked Proxy$/],
    ["a plan's range", () => plan.unitsIn(revoked({})), /^from must be an integer from 0 to 87; got a revoked Proxy$/],
  ])('as %s: a TypeError with its code that says so', (_what, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(expect.objectContaining({ code: ERROR_CODES.INVALID_TYPE, message: expect.stringMatching(message) }));
  });

  it('as count() and countCompletions() options or signal: a rejection with the code', async () => {
    const invalid = { name: 'TypeError', code: ERROR_CODES.INVALID_TYPE };
    await expect(count(8, revoked({}))).rejects.toMatchObject({
      ...invalid,
      message: 'count(): options must be an object or undefined; got a revoked Proxy',
    });
    await expect(count(8, { signal: revoked({}) })).rejects.toMatchObject({
      ...invalid,
      message: 'options.signal must be an AbortSignal; got a revoked Proxy',
    });
    await expect(countCompletions(8, revoked([]))).rejects.toMatchObject({
      ...invalid,
      message: expect.stringMatching(/got a revoked Proxy$/),
    });
  });
});
