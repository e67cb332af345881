// node --import ./test/dawn/use-dawn.mjs --import this file: says `submitted` on
// stderr at the first dispatch the engine submits, and, as the process exits,
// how many read-backs (mapAsync) it left unsettled: a CLI interrupted while
// the GPU still works must exit without waiting for them.
import { writeSync } from 'node:fs';

// A specifier through a variable: the package is installed in test/dawn/node_modules only where the Dawn tests run.
const DAWN = /** @type {string} */ ('webgpu');
/** @type {any} Dawn's classes (the package types them as a plain object). */
const globals = (await import(DAWN)).globals;
let pending = 0;
let submitted = false;
const { mapAsync } = globals.GPUBuffer.prototype;
globals.GPUBuffer.prototype.mapAsync = function (...args) {
  pending++;
  const read = mapAsync.apply(this, args);
  read.then(
    () => pending--,
    () => pending--,
  );
  return read;
};
const { submit } = globals.GPUQueue.prototype;
globals.GPUQueue.prototype.submit = function (...args) {
  if (!submitted) writeSync(2, 'submitted\n');
  submitted = true;
  return submit.apply(this, args);
};
process.on('exit', () => writeSync(2, `reads left at exit: ${pending}\n`));
