// The lint gate of `make test` (make lint-code): promises awaited, nothing unused, one import
// per module, functions short and shallow enough to read, and the borders between areas and
// layers (./eslint.borders.js). Import cycles are madge's (make cycles): import-x/no-cycle does
// not follow `import type`, and type cycles tangle areas too.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { borderZones } from './eslint.borders.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'data/', '.tmp/', 'dist/', 'test/contract/woovi/sdk/', 'eslint.*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-duplicates': 'error',
      'max-depth': ['error', 4],
    },
  },
  {
    // Production code: functions of about 70 lines at most (tests may tell a longer story).
    files: ['src/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Borders (eslint.borders.js): an area reaches another only through its public surface, and
    // no layer imports a higher one. Nothing is suppressed (test/gate/borders.test.ts checks
    // that no eslint-suppressions.json exists): a new crossing fails the gate.
    files: ['src/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: borderZones(import.meta.dirname) }] },
  },
  {
    // Migrations are frozen once landed (rewriting one would change what it did): the ones over
    // 70 lines stay as they are.
    files: ['src/db/migrations/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
);
