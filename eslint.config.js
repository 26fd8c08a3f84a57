// Flat config: typescript-eslint's type-aware rules; workflow code additionally may not import Node built-ins
// (workflows run in Temporal's deterministic sandbox). No module imports a package's internals (`pkg/lib/...`, the
// SDK's `packages/sdk/src/...`);
// import circles are found by madge (`npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Pages are preact components, escaped by construction: no raw HTML, and every data-built link through safeUrl().
const pageRules = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'No raw HTML in pages: render components (api/view-kit/html.tsx holds the two sanctioned raw blocks).',
  },
  {
    selector:
      'JSXAttribute[name.name=/^(href|src)$/] > JSXExpressionContainer > ' +
      ":not(CallExpression[callee.name='safeUrl'], Identifier[name=/^[A-Z][A-Z0-9_]*$/])",
    message: 'A link built from data goes through safeUrl() (api/view-kit/html.tsx): http(s) or our own paths only.',
  },
];

// One owner per business action: a transaction or hand-written SQL outside db/ (the SQL) and actions/ (the use cases
// that own their transaction) is an action written in the wrong room.
const ownerRules = [
  {
    selector: "CallExpression[callee.property.name='transaction']",
    message: 'Transactions belong to actions/ (one function per business action) or db/: call the action instead.',
  },
  {
    selector: "CallExpression[callee.property.name='raw']",
    message: 'SQL belongs to db/ (or an action in actions/): call a db/ read module or an action instead.',
  },
  {
    selector: "CallExpression[callee.name=/^(db|trx|knex)$/][arguments.0.type='Literal']",
    message: 'Table access belongs to db/ (or an action in actions/): call a db/ read module or an action instead.',
  },
  {
    selector: "CallExpression[callee.property.name='db'][arguments.0.type='Literal']",
    message: 'Table access belongs to db/ (or an action in actions/): call a db/ read module or an action instead.',
  },
];

// The db/ modules the edges (api/, cli/, jobs/) may import: each only reads. Two notes: db/invitations.ts marks
// pending invitations past their expiry EXPIRED as it lists them (the expiry is a read's view of time, not an action);
// db/oauth-adapter.ts is oidc-provider's storage, whose writes the library drives (api/oauth/provider.tsx).
const READ_MODULES = [
  'account-tokens',
  'agent-keys',
  'analytics',
  'app-event-feed',
  'apps',
  'assets',
  'auto-recharge',
  'bonus-awards',
  'campaign-join',
  'campaigns',
  'commission-holding',
  'commission-reviews',
  'commission-log',
  'creator-balances',
  'creator-bank-payouts',
  'creator-email',
  'creator-owed',
  'creator-portal',
  'creator-sessions',
  'creators',
  'demo-history',
  'email-outbox',
  'free-access',
  'health',
  'integration',
  'oauth-adapter',
  'oauth-grants',
  'oauth-store',
  'offer-codes',
  'organizations',
  'payments',
  'payout-accounts',
  'payout-history',
  'payout-settings',
  'payout-transfers',
  'platform-balance',
  'purchase-events',
  'purchase-inbox',
  'recent-events',
  'referral-links',
  'rejected-webhooks',
  'sessions',
  'signed-links',
  'store-credentials',
  'store-notifications',
  'table-page',
  'user-purchases',
  'users',
  'wallet-history',
  'wallet-ledger',
  'invitations',
  'conversions',
  'play-voided',
  'user-attributions',
];

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
      'no-restricted-syntax': ['error', ...pageRules],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@[^/]+/)?[^./@][^/]*/lib(/|$)',
              message: "A package's lib/ folder is internal to it: import from its public entry point.",
            },
            {
              // Relative imports inside packages/sdk never match; everything else uses the package's exports.
              regex: '(^|/)packages/sdk/src(/|$)',
              message: 'The SDK is imported through its public entries (@svc/sdk, @svc/sdk/event-key, @svc/sdk/types), not its src/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The column limit: prettier (printWidth 140, .prettierrc.json) breaks code but never a string, a template or a
    // comment, so this holds them to it too. A line that cannot be split (a regular expression, a row of a data
    // table) ends with a `// long-line: <why>` comment, the only way past it.
    rules: {
      'max-len': [
        'error',
        {
          code: 140,
          tabWidth: 2,
          ignorePattern: '// long-line: \\S',
          ignoreUrls: false,
          ignoreComments: false,
          ignoreStrings: false,
          ignoreTemplateLiterals: false,
          ignoreRegExpLiterals: false,
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
  {
    // Only db/ and actions/ open transactions or write SQL (ownerRules above); test/unit/owner-lint.test.ts plants one.
    files: [
      'api/**/*.{ts,tsx}',
      'cli/**/*.ts',
      'jobs/**/*.ts',
      'activities/**/*.ts',
      'workflow-clients/**/*.ts',
      'workflows/**/*.ts',
      'lib/**/*.ts',
      'runtime/**/*.ts',
      'worker/**/*.ts',
      'clients/**/*.ts',
      'errors/**/*.ts',
      'sdk-registry/**/*.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...pageRules, ...ownerRules] },
  },
  {
    // lib/ holds rules, not the API's wording of them: a text naming a REST path is written by its caller in api/,
    // errors/ or actions/ (lib/integration-checklist.ts takes the client paths as an argument for that reason).
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...pageRules,
        ...ownerRules,
        ...['Literal[value=/\\/api\\//]', 'TemplateElement[value.raw=/\\/api\\//]'].map((selector) => ({
          selector,
          message: 'lib/ names no REST path: return the reason and let the caller (api/, errors/, actions/) word it.',
        })),
      ],
    },
  },
  {
    // The edges (HTTP handlers, the CLI, jobs) read through db/'s read modules and change state only through an action:
    // READ_MODULES is the one allowlist of what they may import from db/ (types excepted).
    files: ['api/**/*.{ts,tsx}', 'cli/**/*.ts', 'jobs/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/*', ...READ_MODULES.map((name) => `!**/db/${name}.js`)],
              message: 'The edges import only the read modules of db/ (READ_MODULES, eslint.config.js); a write goes through an action.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
