/**
 * One jest run for unit specs (beside the code), medium specs (test/medium/: service modules on a real database)
 * and e2e specs (test/). NestJS 12 ships ES modules only, so swc compiles them to CommonJS along with our
 * TypeScript, and OpenTelemetry's OTLP exporter base, whose `import('http')` jest's CommonJS runtime cannot load. The
 * global setup gives every worker one database.
 */
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/console/src/**/*.spec.ts', '<rootDir>/test/medium/**/*.medium-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@opentelemetry/otlp-exporter-base|file-type|strtok3|token-types|@tokenizer|uint8array-extras|load-esm|content-disposition|@fastify/cookie|cookie|@rjsf|@x0k)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // The receiver kit's source, as its package name resolves for a receiver (see tsconfig.json's paths).
  moduleNameMapper: { '^@action-gateway/receiver-kit$': '<rootDir>/packages/receiver-kit/src/index.js' },
  // Jest's own report, then the title (and so the reason) of every test it skipped.
  reporters: ['default', '<rootDir>/test/support/skipped-tests-reporter.js'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
