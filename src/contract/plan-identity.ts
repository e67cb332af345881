// The names of the methods, and what identifies a plan in files: apart from
// Method so that the public types (index.d.ts) reach no WebAssembly type.
import { rangeError } from '../shared/errors.js';

/** Bumped whenever the numbering of units changes. */
export const PLAN_FORMAT_VERSION = 1;

/** The algorithms a count may ask for: 'auto' chooses by n (src/run/algorithm.ts). */
export const ALGORITHMS = Object.freeze(['auto', 'join', 'search'] as const);
export type AlgorithmChoice = (typeof ALGORITHMS)[number];
/** The counting methods: each a folder of src/ (search, join) with a Method. */
export type AlgorithmName = Exclude<AlgorithmChoice, 'auto'>;
/** Every Method's name: the algorithms, and completions (which count from placed queens). */
export type MethodName = AlgorithmName | 'completions';

/**
 * A plan identity's `method`: its algorithm's name, 'search' or 'join', as
 * PlanInfo.algorithm, files and `merge --json` say. (Before 0.2 the search's
 * was 'constellations': files that say so are still read, src/run/methods.ts,
 * and its digest is still computed over that word, so digests stay what
 * they were.)
 */
export type PlanMethod = AlgorithmName;

/** What identifies a plan: two files with the same identity number their units alike. */
export interface PlanIdentity {
  readonly method: PlanMethod;
  readonly n: number;
  readonly depth: number;
  readonly formatVersion: number;
  /** Number of units. */
  readonly units: number;
  /** 16 hex digits over all of the above. */
  readonly digest: string;
}

/** The text every plan's digest begins with: its identity's fields (`method` as its digest has always named it). */
export function identityText(method: string, n: number, depth: number, units: number): string {
  return `nqueens-plan|format ${PLAN_FORMAT_VERSION}|method ${method}|n ${n}|depth ${depth}|units ${units}`;
}

/** `id`, if a plan of `units` units has such a unit; else a RangeError. */
export function checkUnitId(id: number, units: number): number {
  if (!Number.isInteger(id) || id < 0 || id >= units) throw rangeError(`unit ${id} is not in this plan (0 to ${units - 1})`);
  return id;
}
