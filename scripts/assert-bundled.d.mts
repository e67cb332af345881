/** The first line of each bundle scripts/bundle.mjs writes (below a #! line). */
export const BUNDLE_BANNER: string;
/** Throws unless `dir`'s dist/ (the repository's by default) holds Node's three bundles. */
export function assertBundled(dir?: string): void;
