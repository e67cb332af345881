// The Q27 project's software counter (preusser/q27, src/cpp/coronal2.cpp) as a
// contestant: `coronal2 -x N` enumerates the canonical pre-placements of the two
// outer rings (the subproblems the FPGAs solved for N = 27) and completes each
// one by a recursive bitmask search on one thread, then prints the total.
//
//   NQUEENS_PEER_Q27_BIN  path of the user's coronal2 binary (build: README.md here)
//
// Time: coronal2 prints none, so this is wall time measured around the process
// (start-up included, about a millisecond).
import { execFileSync } from 'node:child_process';

export function contestant(binary) {
  return (n) => {
    if (n < 5 || n > 32) return undefined; // coronal2 refuses other sizes
    const start = performance.now();
    const out = execFileSync(binary, ['-x', String(n)], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const seconds = (performance.now() - start) / 1000;
    const m = /^TOTAL\s+\d+\s+(\d+)\s*$/m.exec(out);
    if (!m) throw new Error(`q27 coronal2: no TOTAL line for n = ${n} in its output:\n${out.slice(-500)}`);
    return { total: BigInt(m[1]), seconds };
  };
}
