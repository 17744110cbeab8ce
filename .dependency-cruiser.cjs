// The layers of README "Architecture", enforced by test/architecture.test.ts (npm test).
// Each folder may import only from the folders listed as below it.
const layer = (name, from, allowed) => ({
  name,
  severity: 'error',
  comment: `${from} may import only ${allowed.join(', ')}`,
  from: { path: `^${from}/` },
  to: {
    path: '^(scanner|domain|db|services|routers|openapi|server|bin|client|web)/',
    pathNot: `^(${[from, ...allowed].join('|')})/`,
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
    layer('domain-is-pure', 'domain', ['scanner']),
    layer('db-below-services', 'db', ['domain', 'scanner']),
    layer('services-know-no-transport', 'services', ['db', 'domain', 'scanner']),
    layer('routers-know-no-transport', 'routers', ['services', 'db', 'domain', 'scanner']),
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
    includeOnly: '^(scanner|domain|db|services|routers|openapi|server|bin|client|web)/',
  },
};
