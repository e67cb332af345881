// An output option's file, checked against the command's inputs before any
// counting: writing `merge a.json b.json --subtotals b.json` or
// `--checkpoint X --out X` would replace the input it reads. The same file
// is the same path (after links and `./`) or the same device and inode (a
// hard link).
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { UsageError } from './args.js';
import { ERROR_CODES, failure } from '../shared/errors.js';
import { describeError, PendingFile } from './files.js';
import { canonical, lockOf, shownSibling, sibling } from './owner.js';
import { shown } from './shorten.js';

/** A file the command reads, and what it is to the command ("a shard to merge", "the checkpoint"). */
interface NamedInput {
  readonly file: string;
  readonly role: string;
}

function sameFile(a: string, b: string): boolean {
  if (canonical(a) === canonical(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Reserves `file` for `option` (its PendingFile) once it is known to be none
 * of `inputs`. `-` never gets here: `--out -` is stdout, and `--subtotals -`
 * is refused with the other options (checkCommandOptions). `checkpoint`: the
 * count's checkpoint, if any (a gone count's FILE.partial is taken over only
 * by a count with the same one).
 */
export function reserveOutput(
  option: '--out' | '--subtotals',
  file: string,
  what: string,
  inputs: readonly NamedInput[],
  checkpoint?: string,
): PendingFile {
  try {
    for (const input of inputs) {
      if (sameFile(file, input.file))
        throw new UsageError(`${shown(file)} is both ${input.role} and the ${option} file; name another output file`);
      // The temporary FILE.partial is written first: it must not be an input either.
      const partial = sibling(file, '.partial');
      if (sameFile(partial, input.file))
        throw new UsageError(
          `${shownSibling(partial)} (where ${option} ${shown(file)} is written first) is ${input.role}; name another output file`,
        );
    }
    // The checkpoint's own lock (CHECKPOINT.lock) is claimed after this reservation: renamed onto, it would block every resume.
    if (checkpoint !== undefined) {
      const lock = lockOf(checkpoint);
      if (canonical(file) === lock || sameFile(file, lock))
        throw new UsageError(
          `${shown(file)} is ${shownSibling(lock)}, where the checkpoint ${shown(checkpoint)} keeps its lock; name another output file`,
        );
    }
    return new PendingFile(file, what, checkpoint === undefined ? null : canonical(checkpoint));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall !== 'uv_cwd') throw error;
    // Whichever names are relative (the checkpoint's may be the one): those that need the working directory.
    const relative = [file, checkpoint].filter((name): name is string => name !== undefined && !isAbsolute(name));
    throw failure(`cannot resolve ${relative.map(shown).join(' and ')}: ${describeError(error)}`, ERROR_CODES.WRITE_FAILED);
  }
}
