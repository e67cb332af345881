// Forcing a file's writes to disk, where the runtime lets a process.
import { fsyncSync } from 'node:fs';

/**
 * Forces what was written to `fd` to disk, where the runtime allows it:
 * Node 20's permission model (--experimental-permission) refuses every
 * fsync with ERR_ACCESS_DENIED, even of a file --allow-fs-write grants.
 * There the data is written but not forced: after a power loss a file may
 * be torn, and a torn checkpoint line or output is refused when read,
 * never added up.
 */
export function flushToDisk(fd: number): void {
  try {
    fsyncSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED') throw error;
  }
}
