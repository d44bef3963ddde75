// Which way dependencies may point, checked by `npm run lint` (depcruise). See docs/architecture.md, "Which way
// dependencies point".
//
// The rules that matter most: the folders of src/ form layers, each importing only from the layers below it;
// no cycles between files; service modules never pull in routes (a backend importing ActionsModule, AuthModule or
// AdminModule gets services and no routes); the service's code never depends on its tests; and only src/database
// reaches into TypeORM's internals.

/**
 * The folders of src/, bottom up: a folder imports only from folders of the layers before its own (not from its
 * own layer's other folders). docs/architecture.md lists the same order; the files at src/'s root (main.ts,
 * app.module.ts, app.factory.ts) sit above them all.
 */
const LAYERS = [
  ['config', 'metrics'],
  ['tracing'],
  ['database'],
  ['common'],
  ['tenancy', 'rate-limit'],
  ['webhooks', 'auth', 'console-auth'],
  ['actions'],
  ['executions'],
  ['admin', 'tools'],
  ['console', 'health', 'openapi', 'cli'],
];

const folders = (layers) => `^src/(${layers.flat().join('|')})/`;

/** For each layer: its folders may not import any folder of its own layer or above (their own files aside). */
const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => ({
    name: `layer-${folder}`,
    severity: 'error',
    comment:
      `src/${folder} may import only from ${index === 0 ? 'no other folder of src/' : LAYERS.slice(0, index).flat().join(', ')} ` +
      '(docs/architecture.md, "Which way dependencies point"). Move the shared piece down, or invert the dependency.',
    from: { path: `^src/${folder}/` },
    to: { path: folders(LAYERS.slice(index)), pathNot: `^src/${folder}/` },
  })),
);

/** A folder of src/ that LAYERS does not place: every folder is in exactly one layer. */
const unplaced = {
  name: 'layer-unplaced-folder',
  severity: 'error',
  comment: 'Every folder of src/ has its layer in LAYERS (.dependency-cruiser.cjs) and in docs/architecture.md.',
  from: { path: '^src/[^/]+/' , pathNot: folders(LAYERS) },
  to: {},
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    unplaced,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file that (indirectly) imports itself: split it, or invert the dependency.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      comment:
        'Feature folders depend on each other one way only (e.g. auth -> rate-limit, never back). A cycle between ' +
        'folders means the two are one module, or one of them needs an interface of its own.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'service-module-without-routes',
      severity: 'error',
      comment:
        'A service module (x.module.ts) holds providers and exports only; controllers belong to its HTTP module ' +
        '(x-http.module.ts), so importing the service module never publishes routes.',
      from: { path: '^src/.+\\.module\\.ts$', pathNot: ['-http\\.module\\.ts$', '^src/app\\.module\\.ts$'] },
      to: { path: ['\\.controller\\.ts$', '-http\\.module\\.ts$'] },
    },
    {
      name: 'controllers-only-in-http-modules',
      severity: 'error',
      comment: 'Controllers are declared by HTTP modules; nothing else in src/ builds on a controller.',
      from: { path: '^src/', pathNot: ['-http\\.module\\.ts$', '\\.spec\\.ts$'] },
      to: { path: '\\.controller\\.ts$' },
    },
    {
      name: 'http-modules-only-in-the-app',
      severity: 'error',
      comment: 'HTTP modules are composed by AppModule; feature code depends on service modules only.',
      from: { path: '^src/', pathNot: ['^src/app\\.module\\.ts$', '-http\\.module\\.ts$'] },
      to: { path: '-http\\.module\\.ts$' },
    },
    {
      name: 'src-not-to-test',
      severity: 'error',
      comment: 'The service must not depend on its tests or their helpers (its own specs may use test/support/).',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'src-not-to-dev-dependencies',
      severity: 'error',
      comment: 'The production image installs dependencies only: src/ (specs aside) must not need a devDependency.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'typeorm-internals-only-in-database',
      severity: 'error',
      comment:
        "TypeORM's internals (its driver, its pool) are reached from src/database only; everything else imports " +
        "the package's public entry point.",
      from: { pathNot: '^src/database/' },
      to: { path: '^node_modules/typeorm/(?!index\\.)' },
    },
    {
      name: 'shared-with-console-imports-nothing',
      severity: 'error',
      comment:
        'The console imports src/actions/schema/schema-mistakes.ts into the browser bundle (one wording for the API and ' +
        'the console): it must stay a module with no imports, or it would drag the service into the bundle.',
      from: { path: '^src/actions/schema/schema-mistakes\\.ts$' },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
