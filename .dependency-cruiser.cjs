/**
 * The layering of DESIGN.md section 3, enforced in `npm run lint` (and so in `npm test`):
 *   gateway → services → core;  projections → core (+ the event types of services);  core → nothing of ours.
 * cli/ is the composition root and bench/ and test/ may import anything; nobody imports them.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles are forbidden everywhere.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(services|projections|gateway|cli|bench|test)/' },
    },
    {
      name: 'services-import-only-core',
      severity: 'error',
      comment: 'A service never imports the gateway, read models, or another service.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^(gateway|projections|cli|bench|test)/|^services/', pathNot: ['^services/$1/'] },
    },
    {
      name: 'projections-import-core-and-event-types',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: '^(gateway|cli|bench|test)/|^services/', pathNot: '^services/[^/]+/events\\.ts$' },
    },
    {
      name: 'gateway-contains-no-composition',
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: '^(cli|bench|test)/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      severity: 'error',
      from: { pathNot: '^(cli|bench|test)/' },
      to: { path: '^(cli|bench|test)/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
