// Out of file descriptors: which limit, and what to do. Each worker thread
// opens the files of its modules all at once as it starts, so under a low
// limit on open files (`ulimit -n`) a worker can fail where the command, one
// file, started.
import { readFileSync } from 'node:fs';

/** EMFILE: this process's limit on open files; ENFILE: the system's. */
const OUT_OF_FILES = /\bE[MN]FILE\b/;

/** This process's limit on open files (`ulimit -n`), from /proc/self/limits (Linux); undefined where it cannot be read. */
function openFilesLimit(): number | undefined {
  try {
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return limit === undefined ? undefined : Number(limit);
  } catch {
    return undefined; // not Linux, or not one descriptor left to read it with
  }
}

/**
 * `; the limit on open files (ulimit -n) is 40: <advice>` where `error` ran
 * out of file descriptors (EMFILE or ENFILE as its code, its cause's, as a
 * worker's is, or in its message, where a file could not be opened); ''
 * for any other error.
 */
export function openFilesHint(error: unknown, advice: string): string {
  const e = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown } | null | undefined;
  if (![e?.code, e?.cause?.code, e?.message].some((text) => typeof text === 'string' && OUT_OF_FILES.test(text))) return '';
  return `; the limit on open files (ulimit -n) is ${openFilesLimit() ?? 'too low'}: ${advice}`;
}
