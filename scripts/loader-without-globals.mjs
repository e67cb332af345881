// The vendored @assemblyscript/loader's one change (scripts/vendor-loader.mjs):
// no assignment to a built-in, so the package loads where they are frozen.

/**
 * The loader polyfills Object.hasOwn by assigning it, which throws where the
 * built-ins are frozen (`node --frozen-intrinsics`, SES lockdown) and would
 * change a page's globals elsewhere: the copy binds the same fallback to a
 * local name instead. Any other assignment to a built-in fails the build.
 * @param {string} text the loader's index.js
 */
export function withoutGlobalAssignments(text) {
  const polyfill = 'Object.hasOwn = Object.hasOwn || function(obj, prop) {';
  if (!text.includes(polyfill))
    throw new Error(`scripts/vendor-loader.mjs: the loader's Object.hasOwn polyfill changed; check it assigns no built-in`);
  const out = text.replace(polyfill, 'const hasOwn = Object.hasOwn || function(obj, prop) {').replaceAll('Object.hasOwn(', 'hasOwn(');
  const assignment = out.match(/^\s*(?:Object|Array|String|Number|Math|JSON|Reflect|Promise|globalThis|self|window)(?:\.\w+)+\s*=[^=]/m);
  if (assignment) throw new Error(`scripts/vendor-loader.mjs: the loader assigns a built-in: ${assignment[0].trim()}`);
  return out;
}
