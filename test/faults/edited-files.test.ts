// Shards and checkpoints as an editor leaves them. A byte order mark (an
// editor's, never this program's) is refused with the file's name and
// that reason, not a bare "not JSON" the user cannot see; CRLF line ends
// change no field (JSON's whitespace, each line's check still holds), so
// such a file adds up to the exact count.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInTempDir } from '../cli-in-dir.js';

const { dir, nqueens } = cliInTempDir('nqueens-edited-');
const BOM = '\uFEFF';
const BOM_REASON = 'it begins with a byte order mark (U+FEFF), which this program never writes: saved by an editor?';

/** The text of `from` as `edit` leaves it, in a new file `name`. */
function edited(from: string, name: string, edit: (text: string) => string): string {
  writeFileSync(join(dir, name), edit(readFileSync(join(dir, from), 'utf8')));
  return name;
}

describe('a shard saved by an editor', () => {
  for (let i = 0; i < 2; i++) expect(nqueens('count', '10', '--shard', `${i}/2`, '--out', `s${i}.json`).code).toBe(0);

  it('with a byte order mark is refused, naming the file and the mark', () => {
    const file = edited('s0.json', 'bom.json', (text) => BOM + text);
    const r = nqueens('merge', file, 's1.json');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`nqueens: ${file} is not a shard result (${BOM_REASON}) [ERR_NQUEENS_BAD_SHARD]\n`);
  });

  it('with CRLF line ends adds up to the exact count', () => {
    const file = edited('s0.json', 'crlf.json', (text) => text.replaceAll('\n', '\r\n'));
    const r = nqueens('merge', file, 's1.json', '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 10, total: '724', unique: '92' });
  });
  it('with a field written twice (JSON keeps the last, which the digest covers) is refused as edited', () => {
    for (const [name, edit, field] of [
      ['twice-total.json', (text: string) => text.replace('"total":', '"total": "999", "total":'), 'total'],
      ['twice-plan.json', (text: string) => text.replace(/"plan": ?\{/, '"plan": {"units": 1,'), 'units'],
      ['twice-escaped.json', (text: string) => text.replace('"n":', '"\\u006e": 11, "n":'), 'n'],
    ] as const) {
      const file = edited('s0.json', name, edit);
      expect(readFileSync(join(dir, file), 'utf8')).not.toBe(readFileSync(join(dir, 's0.json'), 'utf8'));
      const r = nqueens('merge', file, 's1.json');
      expect([name, r.code, r.stdout]).toEqual([name, 1, '']);
      expect(r.stderr).toBe(`nqueens: ${file}: the field "${field}" is written twice in one object: edited [ERR_NQUEENS_BAD_SHARD]\n`);
    }
  });
});

describe('a checkpoint saved by an editor', () => {
  expect(nqueens('count', '10', '--checkpoint', 'whole.ckpt').code).toBe(0);
  // Its header and first 100 units: a count to resume.
  const part = (text: string) => text.split('\n').slice(0, 101).join('\n') + '\n';

  it('with a byte order mark is refused, naming the file and the mark, and left as it is', () => {
    const file = edited('whole.ckpt', 'bom.ckpt', (text) => BOM + part(text));
    const before = readFileSync(join(dir, file), 'utf8');
    const r = nqueens('count', '10', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`nqueens: ${file} is not a checkpoint (${BOM_REASON}) [ERR_NQUEENS_BAD_CHECKPOINT]\n`);
    expect(readFileSync(join(dir, file), 'utf8')).toBe(before);
  });

  it('with CRLF line ends resumes to the exact count', () => {
    const file = edited('whole.ckpt', 'crlf.ckpt', (text) => part(text).replaceAll('\n', '\r\n'));
    const r = nqueens('count', '10', '--checkpoint', file, '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`resumed from ${file}: 100 of 288 units were already done\n`);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 10, total: '724', unique: '92' });
  });

  it('with a field written twice in its header or a unit line is refused as edited, and left as it is', () => {
    const header = edited('whole.ckpt', 'twice-header.ckpt', (text) => part(text).replace('"n":10,', '"n":11,"n":10,'));
    const unit = edited('whole.ckpt', 'twice-unit.ckpt', (text) => part(text).replace('{"unit":5,', '{"unit":7,"unit":5,'));
    for (const [file, reason] of [
      [header, 'line 1 (the header) writes the field "n" twice in one object: edited'],
      [unit, 'line 7: '],
    ] as const) {
      const before = readFileSync(join(dir, file), 'utf8');
      const r = nqueens('count', '10', '--checkpoint', file);
      expect([file, r.code, r.stdout]).toEqual([file, 1, '']);
      expect(r.stderr).toContain(`nqueens: ${file}${file === header ? ': ' : ', '}${reason}`);
      expect(r.stderr).toMatch(/\[ERR_NQUEENS_BAD_CHECKPOINT\]\n$/);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(before);
    }
  });

  it('with a unit number written with leading zeros (no JSON, though its check holds for the number) is refused', () => {
    const file = edited('whole.ckpt', 'zeros.ckpt', (text) => part(text).replace('{"unit":7,', '{"unit":007,'));
    expect(readFileSync(join(dir, file), 'utf8')).toContain('{"unit":007,');
    const before = readFileSync(join(dir, file), 'utf8');
    const r = nqueens('count', '10', '--checkpoint', file);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(new RegExp(`^nqueens: ${file}, line 9: .*\\[ERR_NQUEENS_BAD_CHECKPOINT\\]\\n$`));
    expect(readFileSync(join(dir, file), 'utf8')).toBe(before);
  });
});
