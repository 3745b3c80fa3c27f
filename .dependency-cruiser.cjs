// The layering of docs/architecture.md, checked: records and config < net < parse < policy and strategies <
// learning < the run < the store < the app and its pages. A module may import its own layer and the layers
// below it, never one above, and no import cycle is allowed. Run by tests/unit/layers.test.ts (npm test).

/** Bottom to top: each layer's files, as path patterns relative to the project's root. */
const LAYERS = [
  {
    name: 'records',
    // A folder's config.ts holds its settings and their defaults, read by everything above.
    path: ['^lib/(types|records|url|random|bytes|page-body)\\.ts$', '^lib/text/', '^lib/crawl/(config|patterns|safety-rules)\\.ts$', '^lib/(classifier|template)/config\\.ts$'],
  },
  { name: 'net', path: ['^lib/fetch/'] },
  { name: 'parse', path: ['^lib/parse/'] },
  {
    name: 'policy',
    // lib/ports.ts declares the decisions policy makes and the store applies, and what the run and learning
    // ask of the store: above the policy it carries, below everything that uses or implements it.
    path: [
      '^lib/crawl/(safety|safety-words|safety-lexicon|scope|parse-config|render-policy)\\.ts$',
      '^lib/strategies/',
      '^lib/template/(?!config\\.ts$|cycle\\.ts$|harvest\\.ts$)',
      '^lib/ports\\.ts$',
    ],
  },
  {
    name: 'learning',
    // children.ts plans a page's links: the policy's rules and the strategy, and the link classifier's rank.
    path: ['^lib/classifier/(?!config\\.ts$)', '^lib/crawl/(learner|model|link-model|children|reach-index)\\.ts$'],
  },
  { name: 'run', path: ['^lib/run/', '^lib/crawl/(crawler|commit-queue)\\.ts$', '^lib/template/(cycle|harvest)\\.ts$'] },
  { name: 'store', path: ['^lib/store/'] },
  {
    name: 'app',
    path: ['^lib/crawl/(service|topic-service|identity)\\.ts$', '^lib/(protocol|message-policy|label-input)\\.ts$', '^lib/(export|ui|platform)/', '^entrypoints/'],
  },
];

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
      comment: 'the store applies decisions (lib/run/commit-plan.ts) and ranks nothing itself: it never imports the classifier',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: { path: '^lib/classifier/' },
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
