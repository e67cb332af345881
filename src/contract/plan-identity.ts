// What identifies a plan in files, apart from Method so that the public
// types (index.d.ts) reach no WebAssembly type.

/** Bumped whenever the numbering of units changes. */
export const PLAN_FORMAT_VERSION = 1;

/** The methods whose plans go into files (completions are never sharded). */
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
