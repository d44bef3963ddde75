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
        {
          // tenantStatement and globalStatement (src/tenancy/tenant-statement.ts, src/database/statement.ts) are the
          // only makers of a statement; an object cast to one would skip their checks.
          selector: ":matches(TSAsExpression, TSTypeAssertion) > TSTypeReference.typeAnnotation[typeName.name=/^(Tenant)?Statement$/]",
          message: 'A statement is declared with tenantStatement or globalStatement, in a *.sql.ts module, not made by a cast.',
        },
      ],
    },
  },

  // A tenant-owned table is reached through TenantScopedRepository (src/tenancy/tenant-scoped-repository.ts):
  // `for(tenantId)` ANDs the tenant into every query, and `acrossTenants(why)` says where a query is about no one
  // tenant. Feature code gets the tables from TenantTables (src/tenancy/tenant-tables.ts) and hand-written
  // statements run through DatabasePool, which takes declared ones only (src/database/statement.ts). What would let
  // a query forget the tenant is kept out of feature code: a DataSource, EntityManager, QueryRunner or bare
  // Repository (so no `dataSource.query(...)`, `dataSource.manager.findOneBy(...)`, `createQueryBuilder(...)`), the
  // decorators that inject them, and the members that reach them. src/tenancy/tenant-scoping-lint.spec.ts runs
  // these rules on the snippets a new contributor would write.
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/database/**',
      'src/tenancy/tenant-scoped-repository.ts',
      'src/tenancy/tenant-lock.ts',
      'src/tenancy/tenant-rows.ts',
      'src/tenancy/tenant-tables.ts',
      'src/tenancy/tenants.repository.ts',
      'src/**/*.spec.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              // What describes an entity, filters a TenantRows query and names a database error; nothing that queries.
              allowImportNames: [
                'Entity',
                'Column',
                'PrimaryColumn',
                'PrimaryGeneratedColumn',
                'CreateDateColumn',
                'UpdateDateColumn',
                'Index',
                'IsNull',
                'LessThan',
                'LessThanOrEqual',
                'MoreThan',
                'MoreThanOrEqual',
                'Between',
                'In',
                'Not',
                'QueryFailedError',
              ],
              message: 'Use TenantTables for a tenant-owned table, DatabasePool for a declared statement (docs/architecture.md, "Tenant-scoped queries").',
            },
            {
              name: '@nestjs/typeorm',
              allowImportNames: ['TypeOrmModule'],
              message: 'Inject TenantTables or DatabasePool, not a data source, entity manager or repository.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        ...['getRepository', 'createQueryBuilder', 'manager', 'createQueryRunner', 'queryRunner', 'getTreeRepository', 'getMongoRepository'].map((property) => ({
          property,
          message: 'Use TenantScopedRepository (TenantTables.of(...).for(tenantId), or acrossTenants(why)); see docs/architecture.md, "Tenant-scoped queries".',
        })),
        ...['dataSource', 'connection', 'manager', 'entityManager', 'queryRunner'].map((object) => ({
          object,
          property: 'query',
          message: 'Run a declared statement (tenantStatement or globalStatement, in a *.sql.ts module) through DatabasePool.',
        })),
      ],
    },
  },
  // Which migrations are pending is read through TypeORM's MigrationExecutor, from the data source; no tenant's rows.
  { files: ['src/health/migrations.health.ts'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },

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
