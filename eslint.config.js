// ESLint flat config: typescript-eslint's strict type-checked rules over everything in tsconfig.
// Rules switched off or relaxed say why, one line each.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'projects/', 'coverage/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // numbers and booleans in template strings read naturally (`${n} hits`); objects are still refused
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `void promise` marks a deliberate fire-and-forget
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // unused arguments are fine when prefixed with _ (ports implemented partially by fakes)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // with noUncheckedIndexedAccess every index access may be undefined; `x[i]!` in a bounded loop is the reviewed acknowledgement
      '@typescript-eslint/no-non-null-assertion': 'off',
      // an async method that implements a Promise-returning port needs no await to be correct
      '@typescript-eslint/require-await': 'off',
      // `() => set.add(x)` style callbacks are clear; only statements whose void value is used are refused
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // passing on a caught value (already an Error, or whatever a library threw) is not inventing a non-Error
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `while (true)` / `for (;;)` loops with explicit exits are the clearest form of a bounded read loop
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: 'only-allowed-literals' }],
    },
  },
  {
    // tests keep the type-aware rules that catch a test passing for nothing (a promise not awaited, an
    // await on what is no promise); the others, type queries over 40 % of the code, took typed linting
    // of a fresh clone past 40 s on a 2-core machine, and in tests they guard style more than behaviour
    files: ['test/**/*.ts'],
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // tests read JSON bodies recorded from the fake servers; a wrong shape fails the assertion itself
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // fakes stand in for classes by shape; that is their job
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      // test strings are ASCII; spreading them into characters is what the test means
      '@typescript-eslint/no-misused-spread': 'off',
      // request bodies recorded by the fake servers are arbitrary JSON
      '@typescript-eslint/no-explicit-any': 'off',
      // a node:http handler may be async in a test server; an error fails the test anyway
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
  {
    // the core imports no transport and no infrastructure (also checked by test/unit/architecture.test.ts)
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['discord.js', '@discordjs/*', '@lancedb/*', 'node:fs', 'node:fs/*', 'fs', 'node:sqlite', 'node:net', 'node:http', 'node:https', 'ws', 'pino', 'chokidar', '@huggingface/*'],
              message: 'src/core talks through ports (src/core/ports/), never to infrastructure',
            },
          ],
        },
      ],
    },
  },
  {
    // the browser client has its own tsconfig (DOM lib, bundler resolution), excluded from the root one
    files: ['src/web/client/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './src/web/client/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // the start-up launchers are plain JavaScript (they run before anything is compiled), outside tsconfig
    files: ['bin/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { process: 'readonly', performance: 'readonly' } },
  },
);
