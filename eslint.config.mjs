// ESLint (flat config) with typescript-eslint: `npm run lint`. Formatting is
// Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'build/',
      'assembly/', // AssemblyScript: checked by asc, and its decorators are not TypeScript
      'src/engines/wasm-bytes.generated.ts',
      'src/engines/wasm-shared-bytes.generated.ts',
      'examples/*/node_modules/',
      'examples/*/dist/',
      'web/dist/',
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
);
