// The layers of README "Architecture", enforced by test/architecture.test.ts (npm test).
// Each folder may import only from the folders listed as below it.
const layer = (name, from, allowed, alsoAllowed = []) => ({
  name,
  severity: 'error',
  comment: `${from} may import only ${allowed.join(', ')}`,
  from: { path: `^${from}/` },
  to: {
    path: '^(scanner|infra|domain|db|services|routers|openapi|server|bin|client|web)/',
    pathNot: [`^(${[from, ...allowed].join('|')})/`, ...alsoAllowed],
  },
});

// A service's input type is the router's zod schema (z.infer), read as a type: no code crosses.
const ROUTER_SCHEMAS = '^routers/[^/]+/schemas\\.ts$';

// Inside scanner/ the flow runs down too: the scan and its assessment at the root, then the registry
// of tests (scanner/tests/), the report, the checks and the probes, the catalog and fixes, the secret rules, the network clients, the rule
// tables and the vulnerability data, and the leaves (value lists, errors, turns). Type-only imports (the evidence types of
// scanner/types.ts) may cross: they add no run-time dependency.
const LEAVES = 'scanner/(vocabulary|errors|turns)\\.ts$';
const inScanner = (name, from, allowed) => ({
  name,
  severity: 'error',
  comment: `scanner/${from}/ may import only ${allowed.join(', ')} of the scanner`,
  from: { path: `^scanner/${from}/` },
  to: {
    path: '^scanner/',
    pathNot: [`^scanner/(${[from, ...allowed].join('|')})/`, LEAVES],
    dependencyTypesNot: ['type-only'],
  },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'import circles hide the real order of layers',
      from: {},
      to: { circular: true },
    },
    layer('scanner-is-a-leaf', 'scanner', []),
    layer('infra-is-a-leaf', 'infra', []),
    inScanner('scanner-rules-are-data', 'rules', []),
    inScanner('scanner-vulndata-is-data', 'vulndata', []),
    inScanner('scanner-net-below-probes', 'net', ['rules']),
    inScanner('scanner-secrets-are-pure', 'secrets', []),
    inScanner('scanner-catalog-is-data', 'catalog', ['secrets', 'vulndata']),
    inScanner('scanner-fixes-are-data', 'fixes', ['catalog', 'secrets', 'vulndata']),
    inScanner('scanner-probes-gather-evidence', 'probes', ['net', 'rules', 'secrets', 'catalog', 'vulndata']),
    inScanner('scanner-checks-over-evidence', 'checks', ['catalog', 'rules', 'secrets', 'probes', 'net', 'vulndata']),
    inScanner('scanner-report-from-findings', 'report', ['catalog', 'rules']),
    // The crawl finds and reads pages, and merges what the per-page tests of the registry report.
    inScanner('scanner-crawl-reads-pages', 'crawl', ['tests', 'probes', 'net', 'report', 'catalog']),
    inScanner('scanner-tests-own-probes-and-checks', 'tests', [
      'checks',
      'probes',
      'net',
      'catalog',
      'rules',
      'secrets',
      'vulndata',
    ]),
    layer('domain-is-pure', 'domain', ['scanner']),
    layer('db-below-services', 'db', ['domain', 'scanner', 'infra']),
    layer('services-know-no-transport', 'services', ['db', 'domain', 'scanner', 'infra'], [ROUTER_SCHEMAS]),
    {
      name: 'services-take-router-schemas-as-types',
      severity: 'error',
      comment: "services read the routers' schemas for their input types only (import type)",
      from: { path: '^services/' },
      to: { path: ROUTER_SCHEMAS, dependencyTypesNot: ['type-only'] },
    },
    layer('routers-know-no-transport', 'routers', ['services', 'db', 'domain', 'scanner', 'infra']),
    layer('openapi-from-routers', 'openapi', ['routers', 'domain']),
    layer('client-types-only', 'client', ['routers']),
    layer('dashboard-talks-to-the-router', 'web', ['domain', 'routers']),
    {
      name: 'dashboard-imports-router-types-only',
      severity: 'error',
      comment: 'the browser bundle holds no server code: only the router type crosses over',
      from: { path: '^web/' },
      to: { path: '^routers/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^(scanner|infra|domain|db|services|routers|openapi|server|bin|client|web)/',
  },
};
