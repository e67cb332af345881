// Turns a document's code example into something a test can run: the
// package's import pointed at dist/node/ (what Node imports), sizes too large for a test made small,
// and the values its comments claim (`expr; // 92n`) collected for checking.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import * as api from 'nqueens-wasm';
import { ROOT } from '../pack.js';

/** Beyond this n an example's count would take too long for a test: it runs at this n instead. */
export const TEST_N = 10;
const LARGEST_RUN = 15;

/** A comment's claim about a value: the statement's line, the expression, and the value as the comment writes it. */
export interface Claim {
  line: number;
  expression: string;
  claimed: string;
}

export interface Runnable {
  /** An ES module's text: runs the example, then exports `claims` with each claim's actual value. */
  module: string;
  claims: Claim[];
  /** The lines whose sizes were made smaller (their claims are not checked). */
  shrunk: number[];
}

/** Sizes above LARGEST_RUN in count(…) and countCompletions(…) become TEST_N. */
function shrink(line: string): string {
  return line.replace(/\b(count|countCompletions)\((\d+)/g, (all, fn: string, n: string) =>
    Number(n) > LARGEST_RUN ? `${fn}(${TEST_N}` : all,
  );
}

/** Browser names an example may use, stood in for in Node. */
const STAND_INS: Record<string, string> = {
  cancelButton: 'const cancelButton = {};',
  progressBar: 'const progressBar = { value: 0 };',
  navigator: 'const navigator = { hardwareConcurrency: 2 };',
};

export function runnable(code: string): Runnable {
  const claims: Claim[] = [];
  const shrunk: number[] = [];
  const lines = code.split('\n').map((line, i) => {
    const small = shrink(line);
    if (small !== line) shrunk.push(i + 1);
    return small;
  });
  const body: string[] = [];
  /** The name a multi-line `const` declares ('' for an expression statement), until its `;`. */
  let pending: string | undefined;
  let start = 0;
  lines.forEach((line, i) => {
    if (/^\s*import .* from 'nqueens-wasm';\s*$/.test(line)) return body.push('');
    // `expr; // value` (not a declaration, assignment, loop or call to console.log).
    const inline = /^(\s*)(?!const |let |for |if |import |\/\/)(.+?);\s*\/\/\s*(.+)$/.exec(line);
    const assignment = inline && /^[\w.]+\s*=[^=]/.test(inline[2]);
    if (inline && !assignment && !inline[2].startsWith('console.') && !shrunk.includes(i + 1)) {
      claims.push({ line: i + 1, expression: inline[2], claimed: inline[3] });
      return body.push(`${inline[1]}__claims.push(await (${inline[2]}));`);
    }
    // A statement followed by a comment line: the comment claims its value
    // (`const x = …;` over one or more lines: x; an expression: itself).
    body.push(line);
    if (pending === undefined) {
      pending = /^const (\w+) = /.exec(line)?.[1] ?? (/^[[\w]/.test(line) && !/^(let|for|if|import)\b/.test(line) ? '' : undefined);
      start = i + 1;
    }
    if (!/;\s*(\/\/.*)?$/.test(line)) return;
    const next = /^\s*\/\/\s*(.+)$/.exec(lines[i + 1] ?? '');
    const whole = shrunk.every((l) => l < start || l > i + 1) && (pending !== '' || start === i + 1);
    if (pending !== undefined && next && !inline && whole) {
      const expression = pending || line.replace(/;\s*$/, '');
      claims.push({ line: i + 2, expression, claimed: next[1] });
      if (pending) body.push(`__claims.push(${pending});`);
      else body[body.length - 1] = `__claims.push(await (${expression}));`;
    }
    pending = undefined;
  });
  const text = body.join('\n');
  const names = Object.keys(api).filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  const dist = pathToFileURL(join(ROOT, 'dist/node/index.js')).href;
  const standIns = Object.entries(STAND_INS)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(text))
    .map(([, declaration]) => declaration);
  const module = [
    `import { ${names.join(', ')} } from '${dist}';`,
    ...standIns,
    'const __claims = [];',
    // Blocks scope the example's own names; a `running` count is awaited so nothing outlives the test.
    `{\n${text}\n${/\bconst running\b/.test(text) ? 'await running;' : ''}\n}`,
    'export const claims = __claims;',
  ].join('\n');
  return { module, claims, shrunk };
}

/**
 * The value a comment claims, as JavaScript: `92n`, `[0, 4, …]`, `{ n: 12, … }`,
 * read up to the first part that is prose (`12: one per class`, `…  (LeetCode 51)`).
 * Undefined when no prefix of it is a value.
 */
export function claimedValue(comment: string): { value: unknown } | undefined {
  const text = comment.replace(/,\s*(\.\.\.|…)\s*(?=[}\]])/g, ' ');
  const cuts = [text, text.split(/\s{2,}/)[0], text.split(/: (?=[a-z])/)[0], text.split(' (')[0], text.split(', ')[0]];
  for (const candidate of cuts) {
    try {
      return { value: new Function(`return (${candidate});`)() as unknown };
    } catch {
      // prose: try a shorter prefix
    }
  }
  return undefined;
}
