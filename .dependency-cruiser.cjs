// The layering of docs/architecture.md, checked: one folder a layer, bottom to top. A module may import its own
// layer and the layers below it, never one above, and no import cycle is allowed. Run by tests/unit/layers.test.ts
// (npm test).

/** Bottom to top: each layer is one folder. */
const LAYERS = [
  { name: 'records', path: ['^lib/records/'] },
  { name: 'net', path: ['^lib/net/'] },
  { name: 'parse', path: ['^lib/parse/'] },
  { name: 'policy', path: ['^lib/policy/'] },
  { name: 'strategies', path: ['^lib/strategies/'] },
  { name: 'ports', path: ['^lib/ports/'] },
  { name: 'learning', path: ['^lib/learning/'] },
  { name: 'run', path: ['^lib/run/'] },
  { name: 'store', path: ['^lib/store/'] },
  { name: 'export', path: ['^lib/export/'] },
  { name: 'app', path: ['^lib/app/'] },
  { name: 'ui', path: ['^lib/ui/'] },
  { name: 'platform', path: ['^lib/platform/'] },
  { name: 'pages', path: ['^entrypoints/'] },
];

/** The files that run only in Node, beside the runner: Redis and the loopback bridge to it. */
const NODE_SIDE = '^lib/(store/shared/(redis-[a-z-]+|bridge-server)|app/shared-run)\\.ts$';

const upper = (i) => LAYERS.slice(i + 1).flatMap((l) => l.path);

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer.name}-imports-down`,
  comment: `${layer.name} may import only ${LAYERS.slice(0, i + 1).map((l) => l.name).join(', ')}`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: upper(i) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'an import cycle fails the build', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'store-holds-no-policy',
      comment: 'the store applies decisions (lib/run/commit-plan.ts) and ranks nothing itself: it never imports learning',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: { path: '^lib/learning/' },
    },
    {
      name: 'in-a-layer',
      comment: 'every file of lib/ and entrypoints/ is in one layer: add a new file to LAYERS',
      severity: 'error',
      from: { path: '^(lib|entrypoints)/', pathNot: LAYERS.flatMap((l) => l.path) },
      to: {},
    },
    {
      name: 'imports-a-layer',
      comment: 'every file of lib/ and entrypoints/ is in one layer: add a new file to LAYERS',
      severity: 'error',
      from: {},
      to: { path: '^(lib|entrypoints)/', pathNot: LAYERS.flatMap((l) => l.path) },
    },
    {
      name: 'lib-runs-in-node',
      comment: 'lib/ runs unchanged in the service worker and in Node: only lib/platform/ may use the browser',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/platform/' },
      to: { path: '^(node_modules/)?(wxt|@wxt-dev|webextension-polyfill)(/|$)|^#imports$' },
    },
    {
      name: 'node-only-in-the-runner',
      comment: "Node's modules and Redis only in the runner's side of a shared crawl (lib/store/shared/ and lib/app/shared-run.ts)",
      severity: 'error',
      from: { path: '^lib/', pathNot: NODE_SIDE },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'redis-only-in-the-runner',
      comment: 'Redis only in the runner\'s side of a shared crawl (lib/store/shared/ and lib/app/shared-run.ts)',
      severity: 'error',
      from: { path: '^lib/', pathNot: NODE_SIDE },
      to: { path: '^(node_modules/)?ioredis(/|$)' },
    },
    {
      name: 'extension-runs-no-node',
      comment: "the extension's pages and worker never load the runner's Node side",
      severity: 'error',
      from: { path: '^entrypoints/' },
      to: { path: NODE_SIDE, reachable: true },
    },
    {
      name: 'lib-below-entrypoints',
      comment: 'entrypoints/ only wire: lib/ never imports them',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^entrypoints/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    webpackConfig: { fileName: 'scripts/build/resolve-alias.cjs' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.wxt|\\.output)/' },
  },
};
