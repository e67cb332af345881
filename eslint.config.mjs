// ESLint (flat config) with typescript-eslint: `npm run lint`. Formatting is
// Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// AssemblyScript is TypeScript's syntax but for decorators on functions
// (`@inline function`), which TypeScript's parser refuses: they are blanked
// (same length, so every position reported stays right) before linting.
const assemblyScript = {
  preprocess: (text) => [text.replace(/@(inline|global|lazy|unmanaged|final)\b/g, (d) => ' '.repeat(d.length))],
  postprocess: (messages) => messages.flat(),
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'build/',
      'src/engines/wasm-bytes.generated.ts',
      'src/engines/wasm-shared-bytes.generated.ts',
      'examples/*/node_modules/',
      'examples/*/dist/',
      'web/dist/',
      '.release/', // the package as staged by npm run pack:release (scripts/stage-package.mjs)
      '.device-kit/', // the GPU visit's kit (../shared/gpu/make-kit.sh), not ours
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript (npm run typecheck, checkJs for .mjs) already reports undefined names, with the right globals per file.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Kernels test bits with `x & 1 && ...`; the intent is clear there.
      'no-mixed-operators': 'off',
      // `!` after a lookup the code has just guaranteed (byId.get(r.id)!) reads better than a cast.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
      'prefer-const': 'error',
      'no-var': 'error',
    },
  },
  {
    // A function that does one thing fits on a screen (issue 35); the generated loop nests are exempt.
    files: ['src/**/*.ts'],
    ignores: ['src/search/row-search.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // The kernels, AssemblyScript: asc checks its types (i32, u64, usize) and builtins (load, v128).
    // Rules that read it as JavaScript are off: `==` is its comparison; a module may assign a global
    // it imports (so one assigned elsewhere is not a const); `@ts-ignore: decorator` is its idiom for
    // the decorators TypeScript's checker refuses; a local is initialised even when every branch sets it.
    files: ['assembly/**/*.ts'],
    processor: assemblyScript,
    rules: {
      eqeqeq: 'off',
      'prefer-const': 'off',
      '@typescript-eslint/ban-ts-comment': 'off',
      'no-useless-assignment': 'off',
    },
  },
);
