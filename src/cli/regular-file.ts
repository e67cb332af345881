// Reading an input file (a shard, a checkpoint) as the CLI must: only a
// regular file, and never more than a limit. A device reports size 0 and
// reads without end (/dev/zero); a FIFO blocks until a writer comes; so the
// file is opened without blocking and checked with fstat on that very
// descriptor before anything is read, and reading stops past the limit even
// if the file grows meanwhile.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { field, shown } from './shorten.js';

/** Why a path cannot be read as an input file, or its text. */
export function readRegularFile(file: string, maxBytes: number): { text: string } | { problem: string } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `${shown(file)} is not a regular file (${kindOf(stat)}); refusing to read it` };
    if (stat.size > maxBytes)
      return { problem: `${shown(file)} is ${stat.size} bytes, over the ${maxBytes} this input may hold; refusing to read it` };
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stat.size, 64 * 1024)));
    let read = 0;
    for (let got = 1; got > 0 && read < buffer.length; read += got) got = readSync(fd, buffer, read, buffer.length - read, read);
    if (read > maxBytes)
      return { problem: `${shown(file)} grew past the ${maxBytes} bytes this input may hold while it was read; refusing it` };
    return { text: buffer.subarray(0, read).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}

/**
 * What a file's header says of the version that made it, for a refusal:
 * `nqueens-wasm 0.1.0 (shard format 2)`, or what is missing or odd there.
 */
export function madeBy(version: unknown, formatVersion: unknown, format: string): string {
  const made = typeof version === 'string' ? `nqueens-wasm ${shown(version)}` : `an unknown version (its "version" is ${field(version)})`;
  return `${made} (${format} format ${field(formatVersion)})`;
}

/** Why an input file's text is not this program's, when it begins with a byte order mark (an editor's). */
export function byteOrderMark(text: string): string | undefined {
  return text.startsWith('\uFEFF')
    ? 'it begins with a byte order mark (U+FEFF), which this program never writes: saved by an editor?'
    : undefined;
}

/** What a file that is not a regular file is: 'a directory', 'a FIFO', ... */
export function kindOf(stat: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
