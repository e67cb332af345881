// The documents the docs tests read, split into what they hold: prose (with
// its inline code and links), headings, and fenced code blocks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../pack.js';

/** README.md and every document in docs/, as repository paths. */
export const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

export interface CodeBlock {
  document: string;
  /** The 1-based line of its opening fence. */
  line: number;
  lang: string;
  text: string;
}

export interface Document {
  path: string;
  /** The text without its fenced blocks (their lines left empty, so line numbers hold). */
  prose: string;
  blocks: CodeBlock[];
  /** GitHub's anchors of its headings. */
  anchors: Set<string>;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

export function readDocument(path: string): Document {
  const lines = readFileSync(join(ROOT, path), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  const anchors = new Set<string>();
  let open: CodeBlock | undefined;
  let fence = '';
  lines.forEach((line, i) => {
    const marker = /^(\s*)(```+)(\S*)/.exec(line);
    if (open) {
      prose.push('');
      if (marker && marker[2] === fence) {
        blocks.push(open);
        open = undefined;
      } else open.text += line.slice(Math.min(line.length - line.trimStart().length, marker?.[1].length ?? 0)) + '\n';
      return;
    }
    if (marker) {
      open = { document: path, line: i + 1, lang: marker[3], text: '' };
      fence = marker[2];
      prose.push('');
      return;
    }
    prose.push(line);
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      let anchor = slug(heading[1]);
      for (let k = 1; anchors.has(anchor); k++) anchor = `${slug(heading[1])}-${k}`;
      anchors.add(anchor);
    }
  });
  return { path, prose: prose.join('\n'), blocks, anchors };
}

/** Inline code spans of some prose, with their line numbers. */
export function inlineCode(prose: string): { code: string; line: number }[] {
  const lineOf = (index: number) => prose.slice(0, index).split('\n').length;
  return [...prose.matchAll(/`([^`]+)`/g)].map((m) => ({ code: m[1].replace(/\s*\n\s*/g, ' '), line: lineOf(m.index) }));
}

/** Markdown links `[text](target)` of some prose (inline code removed first), with their line numbers. */
export function links(prose: string): { target: string; line: number }[] {
  const text = prose.replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ' '));
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ target: m[1], line: lineOf(m.index) }));
}
