// Node's built-in modules where the code runs in Node, unseen by bundlers: the
// rest of the package runs in browsers too.

export const isNode: boolean = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

/**
 * Imports a Node built-in without letting bundlers see it, so browser
 * builds neither bundle nor warn about node:* modules they never run.
 */
export function importNodeBuiltin<T>(name: string): Promise<T> {
  const specifier = `node:${name}`;
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

/**
 * A Node built-in, synchronously, where the runtime offers
 * process.getBuiltinModule (Node 20.16+, 22.3+; Deno and Bun); else undefined.
 */
export function nodeBuiltinNow<T>(name: string): T | undefined {
  if (!isNode) return undefined;
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return typeof get === 'function' ? (get.call(process, `node:${name}`) as T | undefined) : undefined;
}
