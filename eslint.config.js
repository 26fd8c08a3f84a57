// Flat config: typescript-eslint's type-aware rules; workflow code additionally may not import Node built-ins
// (workflows run in Temporal's deterministic sandbox). No module imports a package's internals (`pkg/lib/...`);
// import circles are found by madge (`npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.svc/', '.tools/', 'bin/', 'eslint.config.js', 'packages/*/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['packages/*/scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      // Pages are preact components, escaped by construction: no raw HTML, and every data-built link through safeUrl().
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'No raw HTML in pages: render components (lib/html.tsx holds the two sanctioned raw blocks).',
        },
        {
          selector:
            "JSXAttribute[name.name=/^(href|src)$/] > JSXExpressionContainer > :not(CallExpression[callee.name='safeUrl'], Identifier[name=/^[A-Z][A-Z0-9_]*$/])",
          message: 'A link built from data goes through safeUrl() (lib/html.tsx): http(s) or our own paths only.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@[^/]+/)?[^./@][^/]*/lib(/|$)',
              message: "A package's lib/ folder is internal to it: import from its public entry point.",
            },
          ],
        },
      ],
    },
  },
  {
    // Browser scripts: their names (document, window, Chart) are checked by their own tsconfig (DOM lib, checkJs).
    files: ['api/dashboard/browser/*.js'],
    rules: { 'no-undef': 'off' },
  },
  {
    // Tests read loosely-typed HTTP bodies.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'http', 'https', 'net'],
              message: 'Workflow code must be deterministic: no Node built-ins.',
            },
            {
              group: [
                '**/activities/**',
                '**/actions/**',
                '**/db/**',
                '**/clients/**',
                '**/jobs/**',
                '**/workflow-clients/**',
                '**/runtime/**',
                '**/api/**',
                'knex',
                'pg',
              ],
              message: 'Workflows import activities as types only (proxyActivities) and no I/O modules.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Data access sits below everything that uses it; clients of other systems know nothing of ours.
    files: ['db/**/*.ts', 'clients/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/**', '**/actions/**', '**/activities/**', '**/workflows/**', '**/workflow-clients/**', '**/jobs/**'],
              message: 'db/ and clients/ import nothing from the layers that use them.',
            },
          ],
        },
      ],
    },
  },
  {
    // Use cases own their transaction and call db/ (the only SQL); the edges that call them stay out of them.
    files: ['actions/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // A workflow's *-messages.ts is what its callers share with it (ids, update and result types), no workflow code.
              group: ['**/api/**', '**/activities/**', '**/workflows/**', '!**/workflows/*-messages.js', '**/jobs/**', '**/cli/**'],
              message: 'actions/ are called by the edges (api/, cli/, activities/); they import none of them.',
            },
          ],
        },
      ],
    },
  },
);
