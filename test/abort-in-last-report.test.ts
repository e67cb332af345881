// An abort from inside a count's last progress report comes before the count
// settles, so the count rejects with it, on every engine (the reference
// engine's count resolved there, while the others rejected); and a Proxy of
// a signal is no signal (a revoked one made the process exit with an
// uncaught TypeError thrown in the abort listener).
import { describe, expect, it } from 'vitest';
import { count, countCompletions } from 'nqueens-wasm';

const engines = ['wasm', 'js', 'reference'] as const;

describe('an abort from the last progress report', () => {
  it.each(engines.flatMap((engine) => [1, 4, 8].map((n) => [engine, n] as const)))(
    'count, engine %s, n = %i: rejects with the reason',
    async (engine, n) => {
      const controller = new AbortController();
      const reason = new Error('stop at the end');
      const outcome = count(n, {
        engine,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.fraction === 1) controller.abort(reason);
        },
      });
      await expect(outcome).rejects.toBe(reason);
    },
  );

  it.each(engines)('countCompletions, engine %s: rejects with the reason', async (engine) => {
    const controller = new AbortController();
    const reason = new Error('stop at the end');
    const outcome = countCompletions(8, [[0, 0]], {
      engine,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.fraction === 1) controller.abort(reason);
      },
    });
    await expect(outcome).rejects.toBe(reason);
  });

  it('an abort after the count resolved changes nothing', async () => {
    const controller = new AbortController();
    const r = await count(8, { engine: 'reference', signal: controller.signal, onProgress: () => undefined });
    controller.abort();
    expect(r.total).toBe(92n);
  });
});

describe('a Proxy of a signal', () => {
  // Node's AbortSignal getters take a Proxy of a signal (a browser's do not): its traps could hide an abort, and a
  // revoked one threw out of the abort listener (the process exited with an uncaught TypeError).
  it.each(['count', 'countCompletions'] as const)('%s: refused at the call, with no trap run, revoked or not', async (name) => {
    const controller = new AbortController();
    let traps = 0;
    const spied = new Proxy(controller.signal, {
      get(target, key) {
        traps++;
        return Reflect.get(target, key, target);
      },
    });
    const revocable = Proxy.revocable(controller.signal, {});
    revocable.revoke();
    // And an object made from one: Node's check reads the signal's symbol keys through the prototype chain.
    for (const signal of [spied, revocable.proxy, Object.create(spied) as AbortSignal]) {
      const outcome = name === 'count' ? count(8, { signal }) : countCompletions(8, [[0, 0]], { signal });
      await expect(outcome).rejects.toMatchObject({ name: 'TypeError', code: 'ERR_NQUEENS_INVALID_TYPE' });
      await expect(outcome).rejects.toThrow(/^options\.signal must be an AbortSignal; got /);
    }
    expect(traps).toBe(0);
    expect((await count(8, { signal: controller.signal })).total).toBe(92n);
  });
});
