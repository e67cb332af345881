// The search's units as numbers, for the messages to workers (UnitCodec in
// src/contract/method.ts): its id, kind, constellation, work and prefix,
// STRIDE numbers a unit. A worker reads one unit at a time; consecutive
// units of one constellation share its object, as they do in the plan.
import { rangeError } from '../shared/errors.js';
import type { UnitCodec } from '../contract/method.js';
import type { Subproblem } from './constellations.js';
import { MAX_DEPTH, type Unit } from './search-plan.js';

const FIELDS = ['id', 'a', 'b', 'c', 'd', 'stabiliser', 'weight', 'symmetries', 'innerRows'] as const;
/** Where a unit's numbers sit: id, kind, work, the constellation's FIELDS, the prefix's length, then its columns. */
const KIND = 1;
const WORK = 2;
const CONSTELLATION = 3;
const PREFIX_LENGTH = CONSTELLATION + FIELDS.length;
const PREFIX = PREFIX_LENGTH + 1;
const STRIDE = PREFIX + MAX_DEPTH;

function write(unit: Unit, into: Float64Array, at: number): void {
  const { prefix, constellation } = unit;
  if (prefix.length > MAX_DEPTH) throw rangeError(`unit ${unit.id}: a prefix of ${prefix.length} rows is deeper than ${MAX_DEPTH}`);
  into[at] = unit.id;
  into[at + KIND] = unit.kind === 'fixes' ? 1 : 0;
  into[at + WORK] = unit.work;
  for (let k = 0; k < FIELDS.length; k++) into[at + CONSTELLATION + k] = constellation[FIELDS[k]];
  into[at + PREFIX_LENGTH] = prefix.length;
  for (let k = 0; k < prefix.length; k++) into[at + PREFIX + k] = prefix[k];
}

/** The last constellation read on this thread: the next unit's, usually. */
let last: Subproblem | undefined;

function constellationAt(from: Float64Array, at: number): Subproblem {
  if (last && FIELDS.every((key, k) => last![key] === from[at + CONSTELLATION + k])) return last;
  const s: Record<string, number> = {};
  for (let k = 0; k < FIELDS.length; k++) s[FIELDS[k]] = from[at + CONSTELLATION + k];
  last = Object.freeze(s as unknown as Subproblem);
  return last;
}

function read(from: Float64Array, at: number): Unit {
  const id = from[at];
  const length = from[at + PREFIX_LENGTH];
  if (!Number.isInteger(length) || length < 0 || length > MAX_DEPTH)
    throw rangeError(`unit ${id}: a prefix of ${length} rows is no unit's`);
  const prefix: number[] = [];
  for (let k = 0; k < length; k++) prefix.push(from[at + PREFIX + k]);
  const kind = from[at + KIND] === 1 ? 'fixes' : 'solutions';
  return { id, kind, constellation: constellationAt(from, at), prefix, work: from[at + WORK] };
}

export const searchUnitCodec: UnitCodec<Unit> = Object.freeze({ stride: STRIDE, write, read });
