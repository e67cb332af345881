// node --import this file: `import('webgpu')` then loads Dawn from test/dawn/node_modules (dawn-hooks.mjs).
import { register } from 'node:module';

register('./dawn-hooks.mjs', import.meta.url);
