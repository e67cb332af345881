// Module hooks that resolve the bare name `webgpu` to Dawn's Node binding installed in test/dawn/node_modules
// (the package itself is not a dependency of the project). Used as: node --import ./test/dawn/use-dawn.mjs script.mjs
/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'webgpu') return { url: new URL('./node_modules/webgpu/index.js', import.meta.url).href, shortCircuit: true };
  return nextResolve(specifier, context);
}
