#!/usr/bin/env node
// The nqueens command. The build bundles this file with every module it
// imports into one (scripts/bundle.mjs): Node 20 loads a graph of ES
// modules file by file, and the command's 93 files took about 50 ms of every
// run. Its modules then initialise in a few milliseconds, with no turn of
// the event loop, before main() installs the signal handlers (interrupt.ts).
import { run } from './commands.js';

await run(process.argv.slice(2));
