// ESLint (flat config) for every JS file this repository ships or runs:
// scripts/, tests/js/, tests/e2e/, bench/, pkg-template/ and www/. The rules
// are ESLint's recommended set, which finds real bugs (undefined names, unused
// variables, redeclarations, unreachable code, duplicate keys…), with the
// globals each folder really has: Node for tooling and tests, the browser for
// www/ and the web wrapper, both for code shared by the two entries and for
// e2e tests, whose callbacks run in a page. `npm run lint` runs it. In the
// package (pkg-template/) and the debugger page (www/), no function is longer
// than 60 lines, blank lines and comments not counted (issue 40): a longer one
// is split into module-level functions, its state passed as a small object.
import js from '@eslint/js';
import globals from 'globals';

const unused = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }];

export default [
  { ignores: ['pkg/**', 'target/**', 'node_modules/**', 'fuzz/**', 'test-results/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: { 'no-unused-vars': unused },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['www/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // The web entry runs in browsers only; other ES modules of the package are
  // shared by the Node and web entries; e2e tests pass callbacks to the page.
  { files: ['pkg-template/web.mjs'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['pkg-template/**/*.{js,mjs}', 'tests/e2e/**/*.{js,mjs}'],
    ignores: ['pkg-template/web.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['pkg-template/**/*.{js,mjs,cjs}', 'www/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
];
