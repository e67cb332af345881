// The package version, recorded in shard results and checkpoints: a different
// version may split the search differently, so their files never mix.
export const VERSION = '0.1.0';
