/** Stages the published package into `dir` (emptied first); returns its absolute path. */
export function stagePackage(dir: string): string;
