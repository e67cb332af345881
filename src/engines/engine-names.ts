// The engines' names, apart from the engines themselves so that the public
// types (index.d.ts) reach no WebAssembly types.

export const ENGINES = Object.freeze(['auto', 'wasm', 'js', 'reference', 'webgpu'] as const);
export type EngineChoice = (typeof ENGINES)[number];
export type EngineName = Exclude<EngineChoice, 'auto'>;
