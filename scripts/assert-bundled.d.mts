/** Throws unless `dir`'s dist/ (the repository's by default) holds Node's three bundles. */
export function assertBundled(dir?: string): void;
