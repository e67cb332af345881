#!/usr/bin/env node
// The nqueens command. The build bundles this file with every module it
// imports into one (scripts/bundle-cli.mjs): Node 20 loads a graph of ES
// modules file by file, and the command's 93 files took about 50 ms of every
// run. One file also leaves no time between the command's first line and
// its signal handlers (interrupt.ts) where a stop signal could take its
// default action: its modules initialise without a turn of the event loop.
import { run } from './commands.js';

await run(process.argv.slice(2));
