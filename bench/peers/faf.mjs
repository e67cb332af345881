// NQueensFAF's CPU solver (olepoeschl/NQueensFAF, Java) as a contestant: runs the
// user's jar of the repository's own CpuSolverExample (build: README.md here),
// which reads N and the thread count from standard input; we give it one thread.
//
//   NQUEENS_PEER_FAF_JAR  path of that jar
//
// Time: the solver's own, in milliseconds (CpuSolver.getDuration(): from solve()
// to the last thread's end, constellation generation included; JVM start-up not).
// Each call is a fresh JVM, so JIT warm-up is inside that time.
import { execFileSync } from 'node:child_process';

/** Board sizes the solver counts correctly: it gets n <= 6 wrong and refuses n > 31. */
const MIN_N = 7;
const MAX_N = 31;

export function contestant(jar) {
  const java = process.env.NQUEENS_PEER_FAF_JAVA || 'java';
  return (n) => {
    if (n < MIN_N || n > MAX_N) return undefined;
    const out = execFileSync(java, ['-jar', jar], { input: `${n}\n1\n`, encoding: 'utf8', maxBuffer: 1 << 26 });
    const m = /CpuSolver found (\d+) solutions in (\d+) ms for N=(\d+)/.exec(out);
    if (!m || Number(m[3]) !== n) throw new Error(`NQueensFAF: no result for n = ${n} in its output:\n${out.slice(-500)}`);
    return { total: BigInt(m[1]), seconds: Number(m[2]) / 1000 };
  };
}
