// The names of the methods, and what identifies a plan in files: apart from
// Method so that the public types (index.d.ts) reach no WebAssembly type.

/** Bumped whenever the numbering of units changes. */
export const PLAN_FORMAT_VERSION = 1;

/** The algorithms a count may ask for: 'auto' chooses by n (src/run/algorithm.ts). */
export const ALGORITHMS = ['auto', 'join', 'search'] as const;
export type AlgorithmChoice = (typeof ALGORITHMS)[number];
/** The counting methods: each a folder of src/ (search, join) with a Method. */
export type AlgorithmName = Exclude<AlgorithmChoice, 'auto'>;
/** Every Method's name: the algorithms, and completions (which count from placed queens). */
export type MethodName = AlgorithmName | 'completions';

/**
 * A plan identity's `method`: the join's 'join', the search's
 * 'constellations' (public as PlanInfo.method, and the word its plan digest
 * is computed over, so digests stay what they were). Files label a plan with
 * its method's name instead ('search' or 'join'; src/run/methods.ts reads
 * both, and 'constellations' in files written before).
 */
export type PlanMethod = 'constellations' | 'join';

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
