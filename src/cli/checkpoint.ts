// Checkpoints: a file that records each finished subproblem as it finishes,
// so an interrupted count resumes without redoing any of them. JSON lines:
// a header, then one line per subproblem. Node only (the CLI uses it).
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { contribution, expectedWork, type Subproblem, type SubproblemCount } from '../constellations.js';
import { codedError, ERROR_CODES } from '../errors.js';
import { VERSION } from '../version.js';

export const CHECKPOINT_FORMAT = 'nqueens-checkpoint';

interface Header {
  format: typeof CHECKPOINT_FORMAT;
  version: string;
  n: number;
  /** The slice it covers, "i/m"; "0/1" for the whole count. */
  shard: string;
  subproblems: number;
}

export class Checkpoint {
  /** Counts of the subproblems finished before this run, by id. */
  readonly done = new Map<number, SubproblemCount>();

  private constructor(
    readonly file: string,
    readonly n: number,
  ) {}

  /**
   * Opens FILE for this count: resumes it if it exists (refusing one made for
   * another n, slice or version), else starts it.
   */
  static open(file: string, n: number, shard: string, subproblems: readonly Subproblem[]): Checkpoint {
    const checkpoint = new Checkpoint(file, n);
    const header: Header = { format: CHECKPOINT_FORMAT, version: VERSION, n, shard, subproblems: subproblems.length };
    const lines = [JSON.stringify(header)];
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      const [first, ...rest] = text.split('\n');
      let found: Header;
      try {
        found = JSON.parse(first) as Header;
      } catch {
        throw codedError(`${file} is not a checkpoint (its first line is not JSON)`, ERROR_CODES.BAD_FILE);
      }
      if (found?.format !== CHECKPOINT_FORMAT) throw codedError(`${file} is not a checkpoint`, ERROR_CODES.BAD_FILE);
      if (found.version !== VERSION) {
        throw codedError(`${file} was written by nqueens-wasm ${found.version}; this is ${VERSION}, which may split the search differently`, ERROR_CODES.BAD_FILE);
      }
      if (found.n !== n) throw codedError(`${file} is a checkpoint for n = ${found.n}, not n = ${n}`, ERROR_CODES.BAD_FILE);
      if (found.shard !== shard) throw codedError(`${file} is a checkpoint for shard ${found.shard}, not ${shard}`, ERROR_CODES.BAD_FILE);
      const valid = new Set(subproblems.map((s) => s.id));
      for (const line of rest) {
        // A line cut short by a crash is dropped; that subproblem just runs again.
        let entry: { id: number; solutions: string; fixes: string };
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (!valid.has(entry?.id)) continue;
        checkpoint.done.set(entry.id, { solutions: BigInt(entry.solutions), fixes: BigInt(entry.fixes) });
        lines.push(line);
      }
    }
    // Rewrite only whole lines, so appends never follow a torn one.
    const temporary = `${file}.tmp`;
    writeFileSync(temporary, lines.join('\n') + '\n');
    renameSync(temporary, file);
    return checkpoint;
  }

  /** What a resumed count starts from: the finished part of `slice`, summed, and the rest to run. */
  resume(slice: readonly Subproblem[]): {
    already: { finished: number; total: bigint; unique: bigint; work: number };
    remaining: Subproblem[];
  } {
    const already = { finished: 0, total: 0n, unique: 0n, work: 0 };
    const remaining: Subproblem[] = [];
    for (const s of slice) {
      const done = this.done.get(s.id);
      if (!done) {
        remaining.push(s);
        continue;
      }
      const c = contribution(s, done);
      already.finished++;
      already.total += c.total;
      already.unique += c.unique;
      already.work += expectedWork(this.n, s);
    }
    return { already, remaining };
  }

  record(s: Subproblem, count: SubproblemCount): void {
    const line = JSON.stringify({ id: s.id, solutions: count.solutions.toString(), fixes: count.fixes.toString() });
    appendFileSync(this.file, line + '\n');
  }
}
