// The n = 17 run history is only ever appended to: every bench:17 run stays on record.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE, historyMarkdown, recordAnchorRun } from '../bench/history.mjs';

const bench = new URL('../bench/', import.meta.url);

describe('bench/results/history-n17.jsonl', () => {
  it('is one JSON object per line, each a recorded run', () => {
    const lines = readFileSync(HISTORY_FILE, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ date: expect.any(String), commit: expect.any(String), nativeMs: expect.any(Number) });
  });

  it('recording a run appends one line and leaves the earlier ones byte for byte', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'nqueens-history-')), 'history.jsonl');
    copyFileSync(HISTORY_FILE, copy);
    const before = readFileSync(copy, 'utf8');
    const rows = [
      { engine: 'native', medianMs: 36000, samples: 5 },
      { engine: 'symmetry-js', medianMs: 13700, vsNativePerRound: { median: 0.38, min: 0.37, max: 0.43 } },
    ];
    recordAnchorRun(
      { date: '2026-11-23T10:00:00.000Z', machine: { cpu: 'test cpu', cores: 2, node: 'v20' }, rows, commit: 'abc1234' },
      copy,
    );
    const after = readFileSync(copy, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).split('\n').filter(Boolean)).toHaveLength(1);
    expect(
      historyMarkdown(copy)
        .split('\n')
        .filter((l) => l.startsWith('| 2026-')),
    ).toHaveLength(before.split('\n').filter(Boolean).length + 1);
  });

  it('no bench script writes it other than through appendFileSync in bench/history.mjs', () => {
    for (const name of readdirSync(bench).filter((f) => f.endsWith('.mjs'))) {
      const source = readFileSync(new URL(name, bench), 'utf8');
      if (name === 'history.mjs') {
        expect(source).not.toMatch(/writeFileSync|createWriteStream|truncate|rmSync|unlinkSync|renameSync/);
        expect(source).toMatch(/appendFileSync\(file,/);
      } else {
        expect(source).not.toMatch(/history-n17/);
      }
    }
  });
});
