// The lint gate of `make test` (make lint-code): promises awaited, nothing unused, one import
// per module, functions short and shallow enough to read. Import cycles are madge's (make
// cycles): import-x/no-cycle does not follow `import type`, and type cycles tangle areas too.
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'data/', '.tmp/', 'test/contract/woovi/sdk/', 'eslint.config.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
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
    // Migrations are frozen once landed (rewriting one would change what it did): the ones over
    // 70 lines stay as they are.
    files: ['src/db/migrations/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
);
