// ESLint 10 flat config: typescript-eslint's recommended rules (syntax-only, no type information, so it stays
// fast). Run with `npm run lint` (eslint .).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Node's globals, for the plain JavaScript config files at the root (jest.config.js is CommonJS).
const nodeGlobals = {
  module: 'writable',
  exports: 'writable',
  require: 'readonly',
  __dirname: 'readonly',
  __filename: 'readonly',
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
};

const unusedVars = [
  'error',
  { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
];

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', 'coverage/', '.data/']),

  // The service, its tests, benchmarks and the TypeORM CLI data source.
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'ormconfig.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': unusedVars,
    },
  },

  // The Gateway Management console (React, built by Vite, runs in the browser).
  {
    files: ['console/**/*.{ts,tsx,mts}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': unusedVars,
    },
  },

  // Tests read JSON bodies of every shape; typing each one would say nothing the assertions don't.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },

  // Root tooling files written in JavaScript.
  {
    files: ['*.js', '*.cjs', '*.mjs', 'scripts/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: nodeGlobals },
    rules: { 'no-unused-vars': unusedVars },
  },
  { files: ['*.js', '*.cjs', 'scripts/**/*.js'], languageOptions: { sourceType: 'commonjs' } },
]);
