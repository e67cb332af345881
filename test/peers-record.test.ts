// bench:peers records every interleaved run (bench/peers/record.mjs): the line's shape, and that its ratios are
// medians of per-round ratios, which differ from the ratio of the medians.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interleavedRecord, median, medianRatio, PEERS_FILE, recordInterleavedRun } from '../bench/peers/record.mjs';

const machine = {
  cpu: 'test cpu',
  family: '25',
  model: '17',
  simd: ['avx2'],
  caches: 'L2 1024K',
  cores: 2,
  node: 'v20.20.2',
  date: '2026-11-29T10:00:00.000Z',
};

function run() {
  const contestants = [
    { name: 'join wasm', ours: true },
    { name: 'count() 1 worker', ours: true },
    { name: 'Kluev C++' },
    { name: 'Kluev avx2' },
  ];
  const seconds = new Map<string, number[]>([
    // Per round ours / C++: 0.5, 0.9, 0.6 -> median 0.6; the medians, 0.3 / 0.4, give 0.75.
    ['join wasm/16', [0.2, 0.36, 0.3]],
    ['Kluev C++/16', [0.4, 0.4, 0.5]],
    ['count() 1 worker/16', [0.25, 0.3, 0.35]],
    // The avx2 build had no binary at 17: no times, no ratio.
    ['Kluev avx2/16', [0.5, 0.5, 0.5]],
    ['join wasm/17', [1.5, 1.6, 1.7]],
    ['Kluev C++/17', [3, 2, 2.5]],
  ]);
  const totals = new Map<number, bigint>([
    [16, 14772512n],
    [17, 95815104n],
  ]);
  return interleavedRecord({
    machine,
    cpuPinned: '0',
    commit: 'abc1234',
    rounds: 3,
    sizes: [16, 17],
    contestants,
    seconds,
    totals,
    loadAverage: [1.5, 2.25],
  });
}

describe('bench/peers/record.mjs', () => {
  it('a run is one record: the machine, the pinning, and per n the totals, medians, per-round times and ratios', () => {
    const r = run();
    expect(r).toMatchObject({
      kind: 'interleaved',
      date: machine.date,
      machine,
      cpuPinned: '0',
      commit: 'abc1234',
      rounds: 3,
      loadAverage: [1.5, 2.25],
    });
    expect(r.counts.map((c) => c.n)).toEqual([16, 17]);
    const [n16, n17] = r.counts;
    expect(n16.total).toBe('14772512');
    expect(n16.medianSeconds).toEqual({ 'join wasm': 0.3, 'count() 1 worker': 0.3, 'Kluev C++': 0.4, 'Kluev avx2': 0.5 });
    expect(n16.seconds['join wasm']).toEqual([0.2, 0.36, 0.3]);
    expect(Object.keys(n16.medianOfRoundRatios)).toEqual(['join wasm', 'count() 1 worker']);
    expect(n16.medianOfRoundRatios['join wasm']['Kluev C++']).toBeCloseTo(0.6, 12);
    expect(n16.medianOfRoundRatios['join wasm']['Kluev avx2']).toBeCloseTo(0.6, 12);
    expect(n16.medianOfRoundRatios['count() 1 worker']['Kluev C++']).toBeCloseTo(0.7, 12);
    // Not the ratio of the medians, 0.3 / 0.4:
    expect(n16.medianSeconds['join wasm'] / n16.medianSeconds['Kluev C++']).toBeCloseTo(0.75, 12);
    expect(n17.total).toBe('95815104');
    expect(n17.medianOfRoundRatios).toEqual({ 'join wasm': { 'Kluev C++': expect.any(Number) } });
    expect(n17.medianOfRoundRatios['join wasm']['Kluev C++']).toBeCloseTo(0.68, 12);
  });

  it('the line is JSON that reads back to the same record (bigint totals as strings)', () => {
    const r = run();
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('medians are the middle value, the upper of two; ratios only over rounds both ran', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(medianRatio([1, 2], [2, 2, 2])).toBe(1);
    expect(medianRatio([], [1])).toBeUndefined();
  });

  it('recording appends one line and leaves the earlier ones byte for byte', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nqueens-peers-')), 'peers.jsonl');
    writeFileSync(file, '{"kind":"interleaved","earlier":true}\n');
    recordInterleavedRun(run(), file);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('{"kind":"interleaved","earlier":true}');
    expect(JSON.parse(lines[1])).toEqual(run());
    expect(lines[2]).toBe('');
    expect(PEERS_FILE.pathname.endsWith('/bench/results/peers.jsonl')).toBe(true);
  });
});
