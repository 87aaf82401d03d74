/**
 * The architecture in code (docs/architecture.md): what may import what under src/. Checked by
 * `npm run lint` through scripts/check-architecture.mjs, which also fails on a cycle between modules
 * (dependency-cruiser's own no-circular sees files only).
 *
 * A module is src/<context>/<module>/; the contexts are layered, each importing only the layers below it.
 * The web layer (src/web/: the reader site and the admin console, as its rooms src/web/site/ and src/web/console/)
 * is the top layer: it may import every context and platform, and no context and no platform file imports it.
 * The root files (src/app.ts, src/server.ts, src/composition.ts, src/config.ts, src/local-demo.ts, the entry points
 * src/*-cli.ts and src/demo/) may import anything, and no context and no platform file imports them, except
 * src/config.ts: a service may take its slice of the typed configuration (`Config`), which imports nothing back.
 * Tests, benchmarks and scripts are outside these rules.
 */

/** The context layers, lowest first: a context imports only contexts of a lower layer; web, the pages, is last. */
const LAYERS = [['platform'], ['delivery', 'operations'], ['identity'], ['governance'], ['rewards'], ['newsroom'], ['readers'], ['web']];
const CONTEXTS = LAYERS.flat().filter((c) => c !== 'platform');

const layerOf = (context) => LAYERS.findIndex((layer) => layer.includes(context));

/** One rule per context (platform has its own rule below): no import of a context on its own layer or above. */
const layerRules = CONTEXTS.map((context) => {
  const notBelow = LAYERS.flat().filter((other) => other !== context && layerOf(other) >= layerOf(context));
  return {
    name: `layer-${context}`,
    comment: `${context} imports only the contexts below it (${LAYERS.slice(0, layerOf(context)).flat().join(', ') || 'none'})`,
    severity: 'error',
    from: { path: `^src/${context}/` },
    to: { path: `^src/(${notBelow.join('|')})/` },
  };
});

module.exports = {
  LAYERS,
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file imports itself through others at run time (a cycle closed by a type-only import is erased by the compiler).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-foreign-repository',
      comment:
        "A module reaches another through its service, a policy or rules file, its schemas or a port it declares: never another module's *repository.ts. A context-level repository (src/<context>/<name>-repository.ts: SQL conditions its modules share) serves the modules of its own context.",
      severity: 'error',
      from: { path: `^src/(${['platform', ...CONTEXTS].join('|')})/([^/]+)/` },
      to: { path: 'repository\\.ts$', pathNot: '^src/$1/($2/|[^/]+$)' },
    },
    {
      name: 'platform-imports-no-context',
      comment: 'src/platform is shared by every context and knows none of them.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: `^src/(${CONTEXTS.join('|')})/` },
    },
    {
      name: 'no-root-file',
      comment:
        'The root files wire the contexts together (app, server, composition root, entry points, the demo): a context or platform file imports none of them; what it needs moves down into platform or its context.',
      severity: 'error',
      from: { path: `^src/(${['platform', ...CONTEXTS].join('|')})/` },
      to: { path: '^src/([^/]+\\.tsx?$|demo/)', pathNot: '^src/config\\.ts$' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test|bench|scripts|sdk|examples)/' },
    // type-only imports are dependencies too ('./x.js' resolves to ./x.ts as with NodeNext)
    tsPreCompilationDeps: true,
  },
};
