// ESLint 10 flat config: typescript-eslint's recommended rules (syntax-only, no type information, so it stays
// fast). Run with `npm run lint` (eslint .).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import jest from 'eslint-plugin-jest';
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

// What Node (18+) has of the web platform, used by the receiver kit and the examples (llm-agent.mjs calls fetch).
const webGlobals = { URL: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', Headers: 'readonly', fetch: 'readonly' };

const unusedVars = [
  'error',
  { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
];

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', 'coverage/', '.data/', 'test-results/', 'packages/*/dist/']),

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

  // A TenantId is a tenant id someone has checked (see src/common/tenant-id.ts). Only the places that check make
  // one: the bearer strategy and the token check (the API token names its tenant), the console's session check
  // (the session names its tenant, whose standing it checks), TenancyService.requireId (the admin path, after
  // looking the tenant up), and test helpers. Everywhere else neither asTenantId nor a
  // cast to TenantId compiles past lint.
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/common/tenant-id.ts', 'src/auth/jwt.strategy.ts', 'src/auth/api-tokens.service.ts', 'src/console-auth/console-sessions.service.ts', 'src/tenancy/tenancy.service.ts', 'test/support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/common/tenant-id'],
              importNames: ['asTenantId'],
              message: 'A TenantId comes from an authenticated principal or TenancyService.requireId, not from a string.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='TenantId'], TSTypeAssertion > TSTypeReference.typeAnnotation[typeName.name='TenantId']",
          message: 'A TenantId comes from an authenticated principal or TenancyService.requireId, not from a cast.',
        },
      ],
    },
  },

  // A tenant-owned table is reached through TenantScopedRepository (src/tenancy/tenant-scoped-repository.ts):
  // `for(tenantId)` ANDs the tenant into every query, and `acrossTenants(why)` says where a query is about no one
  // tenant. A bare TypeORM repository would let a query forget the tenant, so feature code does not get one.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/tenancy/tenant-scoped-repository.ts', 'src/tenancy/tenant-lock.ts', 'src/tenancy/tenants.repository.ts', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'getRepository',
          message: 'Use TenantScopedRepository.of(...).for(tenantId) (or acrossTenants(why)); see docs/architecture.md, "Tenant-scoped queries".',
        },
      ],
    },
  },

  // Tests: no focused or disabled test reaches main (a skip goes through describeIf/itIf, which says why and fails
  // where the requirement is required), and every test asserts something, through expect or one of the project's
  // assertion helpers (test/support/), which call expect themselves.
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'console/**/*.spec.ts'],
    plugins: { jest },
    languageOptions: { globals: jest.environments.globals.globals },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/expect-expect': [
        'error',
        {
          assertFunctionNames: [
            'expect',
            // test/support: expectSignedOnlyWith, TwoTenants' byA and expect* (the medium tier's isolation checks).
            'expect*',
            '*.expect*',
            '*.byA',
            // fast-check's property runner, whose properties assert.
            'fc.assert',
            // Helpers of one spec that assert: bad-input's probe, example-receivers' runAgainst and refusesForeignKey,
            // isolation's whileNeighbourPolls, read-model's changeOnASeenOnB, the console's hasText and hasCount.
            'probe',
            'runAgainst',
            'refusesForeignKey',
            'whileNeighbourPolls',
            'changeOnASeenOnB',
            'hasText',
            'hasCount',
          ],
        },
      ],
    },
  },
  // describeIf/itIf are where a suite is skipped (visibly, with the reason), and they pass the suite's own tests on.
  { files: ['test/support/requirements/**'], rules: { 'jest/no-disabled-tests': 'off', 'jest/expect-expect': 'off' } },

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

  // The receiver kit (ES module source, its tests and build script) and the example receivers.
  {
    files: ['packages/receiver-kit/**/*.{js,mjs,cjs}', 'examples/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...nodeGlobals, ...webGlobals } },
    rules: { 'no-unused-vars': unusedVars },
  },
  { files: ['packages/receiver-kit/**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
]);
