// What the runtime offers: Node or a browser-like host, and how many cores.

export const isNode: boolean = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

/**
 * Imports a Node built-in without letting bundlers see it, so browser
 * builds neither bundle nor warn about node:* modules they never run.
 */
export function importNodeBuiltin<T>(name: string): Promise<T> {
  const specifier = `node:${name}`;
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

let cores: number | undefined;

/** Logical cores available to this process (at least 1). */
export async function availableCores(): Promise<number> {
  if (cores !== undefined) return cores;
  if (isNode) {
    const os = await importNodeBuiltin<typeof import('node:os')>('os');
    cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  } else {
    cores = globalThis.navigator?.hardwareConcurrency ?? 1;
  }
  cores = Math.max(1, cores || 1);
  return cores;
}
