/**
 * The layers of src/ and the rules between them (docs/architecture.md draws them):
 *
 *   entry (app, server, cli, runtime, demo-seed, bench)
 *     -> modules/<domain>   (other domains only through their index.ts; the workforce's
 *                            sub-domains, each other likewise, and no circle between them:
 *                            test/foundation/workforce-sub-domains.test.ts)
 *       -> http             (shared HTTP conventions)
 *         -> platform       (auth, tenancy, jobs, webhooks, mail, caches, errors)
 *           -> db           (database, migrations, paging, column types)
 *             -> config.ts
 *
 * Layers import downwards only. Table row types (`*.tables.ts`) are leaves that db/schema.ts
 * composes into the database type; that composition is db's one look upwards, and type-only.
 * Tests may reach into any folder to set up what they need.
 */
const TEST = '(\\.test\\.ts$|^test/)';
const ENTRY = '^src/(app|server|cli|runtime|demo-seed)\\.ts$|^src/bench/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle ties its files into one: split out what both sides need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'db/ imports config and libraries only; db/schema.ts composes the table files.',
      from: { path: '^src/db/', pathNot: ['^src/db/schema\\.ts$', TEST] },
      to: { path: '^src/(platform|http|modules|bench)/|' + ENTRY },
    },
    {
      name: 'schema-only-composes-tables',
      severity: 'error',
      comment: 'db/schema.ts may look outside db/ only at table files, and only for their types.',
      from: { path: '^src/db/schema\\.ts$' },
      to: { path: '^src/(platform|http|modules)/', pathNot: '\\.tables\\.ts$' },
    },
    {
      name: 'tables-are-leaves',
      severity: 'error',
      comment: 'A table file imports column types only, so composing DB can never make a circle.',
      from: { path: '\\.tables\\.ts$' },
      to: { path: '^src/', pathNot: '^src/db/columns\\.ts$' },
    },
    {
      name: 'platform-below-http-and-domains',
      severity: 'error',
      comment: 'platform/ serves every domain and knows none of them, nor the HTTP conventions.',
      from: { path: '^src/platform/', pathNot: TEST },
      to: { path: '^src/(http|modules|bench)/|' + ENTRY },
    },
    {
      name: 'http-below-domains',
      severity: 'error',
      comment: 'http/ holds conventions every domain uses; it knows no domain.',
      from: { path: '^src/http/', pathNot: TEST },
      to: { path: '^src/(modules|bench)/|' + ENTRY },
    },
    {
      name: 'domains-below-entry',
      severity: 'error',
      comment: 'Domains are mounted by the app; they never import it, the server or the CLI.',
      from: { path: '^src/modules/', pathNot: TEST },
      to: { path: ENTRY },
    },
    {
      name: 'other-domains-through-their-index',
      severity: 'error',
      comment: "Another domain's internals are reached only through what its index.ts exports.",
      from: { path: '^src/modules/([^/]+)/', pathNot: TEST },
      to: { path: '^src/modules/([^/]+)/.+', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'workforce-sub-domains-through-their-index',
      severity: 'error',
      comment: "A workforce sub-domain reaches another's internals only through what its index.ts exports, as domains do.",
      from: { path: '^src/modules/workforce/([^/]+)/', pathNot: TEST },
      to: { path: '^src/modules/workforce/([^/]+)/.+', pathNot: ['^src/modules/workforce/$1/', '^src/modules/workforce/[^/]+/index\\.ts$'] },
    },
    {
      name: 'workforce-root-composes-sub-domains',
      severity: 'error',
      comment: 'workforce/index.ts uses each sub-domain through its index.ts, as other domains use the workforce.',
      from: { path: '^src/modules/workforce/[^/]+\\.ts$', pathNot: TEST },
      to: { path: '^src/modules/workforce/[^/]+/.+', pathNot: '^src/modules/workforce/[^/]+/index\\.ts$' },
    },
    {
      name: 'workforce-sub-domains-below-the-root',
      severity: 'error',
      comment: 'workforce/index.ts composes the sub-domains; none imports it (that would tie them all into one).',
      from: { path: '^src/modules/workforce/[^/]+/', pathNot: TEST },
      to: { path: '^src/modules/workforce/[^/]+\\.ts$' },
    },
    {
      name: 'outside-domains-through-their-index',
      severity: 'error',
      comment: 'The app, the CLI, the benchmark and modules/index.ts use a domain through its index.ts.',
      from: { path: '^src/', pathNot: ['^src/modules/[^/]+/', '^src/db/schema\\.ts$', TEST] },
      to: { path: '^src/modules/[^/]+/.+', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'routes-read-no-queries',
      severity: 'error',
      comment: 'A routes file maps HTTP onto services: rows and their types come through the service, never from *.queries.',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.queries\\.ts$' },
    },
    {
      name: 'routes-get-the-caller-from-the-helper',
      severity: 'error',
      comment: "The caller and its tenant come from the route helper's call (http/resource-routes.ts); routes files import auth and tenancy for types only.",
      from: { path: '\\.routes\\.ts$' },
      to: { path: '^src/platform/(auth/|tenancy\\.ts$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A file nothing imports is dead code (tests, type declarations and entry points aside).',
      from: {
        orphan: true,
        pathNot: [
          '\\.d\\.ts$',
          TEST,
          '^src/(cli|server)\\.ts$',
          '^src/bench/(run|hello-server|bare-fastify-server)\\.ts$',
          '(^|/)\\.[^/]+\\.(c|m)?js$',
          '\\.config\\.ts$',
          // The live page's browser script: served as a file (scripts/bundle.mjs ships it), never imported.
          '^src/modules/events/live-page/live-page-files/',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
