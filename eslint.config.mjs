// Lint rules the code keeps (npm run lint, run by npm test and CI). Formatting is Prettier's job, not ESLint's.
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', '.node-matrix/', 'scratch/', 'bench/results/', 'docs/.vitepress/cache/', 'docs/.vitepress/dist/', 'docs/api/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
    rules: {
      // Express, Hono and ws are optional peers: the types that face them are `any` on purpose, so a
      // user's app type-checks with or without those packages' types installed.
      '@typescript-eslint/no-explicit-any': 'off',
      // `@ts-ignore` (not -expect-error) on imports of optional peers' types: the error exists only
      // when the peer is absent. Each one says why.
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      // `declare global { namespace Express { … } }` is how Express's request types are extended.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The library: small functions in small files (ARCHITECTURE.md, "one concern per file").
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 320, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // CommonJS files (jest's configuration and environment, the CJS fixture app) load with require().
    files: ['**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
