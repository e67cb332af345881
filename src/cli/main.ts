#!/usr/bin/env node
// The nqueens command: loads the command line (commands.ts) and runs it.
// Node opens the files of a module's imports all at once, so under a low
// limit on open files (`ulimit -n` below about 44) some of those opens fail
// with EMFILE; loaded by a static import, the command would end with Node's
// stack trace, while import() lets it say so on one line, exit status 1.
import { writeSync } from 'node:fs';
import { openFilesHint, openFilesLimitSoon } from './open-files.js';
import { catchStopSignalsWhileLoading } from './stop-signals.js';

// Before the command's modules load (most of its start): a stop signal then ends it as one before a count would.
catchStopSignalsWhileLoading();

let commands: typeof import('./commands.js') | undefined;
try {
  commands = await import('./commands.js');
} catch (error) {
  const code = (error as { code?: unknown })?.code;
  const label = typeof code === 'string' ? code : ((error as Error)?.name ?? 'Error');
  const message = ((error as Error)?.message ?? String(error)) + openFilesHint(error, 'raise it to 64 or more', await openFilesLimitSoon());
  try {
    writeSync(2, `nqueens: cannot start: ${message} [${label}]\n`);
  } catch {
    // Nowhere left to say it: the exit status still tells.
  }
  // At once: a stop signal from here on would be taken for one that stopped the command.
  process.exit(1);
}
await commands?.run(process.argv.slice(2));
