/**
 * The layering the build checks (`npm run lint`): no import circles, the ground floor (db/, time/, lib/,
 * vocabulary/, errors, home) imports no feature folder, and the fake marketplace stands apart from the product. Any
 * violation fails the lint.
 */
const ground = '^src/(db|time|lib|vocabulary)/|^src/(errors|home)\\.ts$';
const features =
  '^src/(actions|api|backup|catalog|cli|connectors|console|demo|exports|files|ingest|mcp|metrics|models|pipelines|publish|scale|webhooks|control)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a loop: one of them holds what belongs to a third, lower file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'ground-floor',
      severity: 'error',
      comment: 'db/, time/, lib/, vocabulary/, errors.ts and home.ts are used by every feature and import none.',
      from: { path: ground },
      to: { path: features },
    },
    {
      name: 'connectors-are-clients',
      severity: 'error',
      comment:
        "connectors/ holds the marketplace's clients; fetching and landing what they bring are stages of a pipeline run.",
      from: { path: '^src/connectors/' },
      to: { path: '^src/(ingest|pipelines|models|publish|exports|api|console|cli|scale|webhooks|actions)/' },
    },
    {
      name: 'landing-from-a-fetch',
      severity: 'error',
      comment: 'Only pipelines/ lands what a fetch brings; the CLI lands the files an operator drops.',
      from: { path: '^src/', pathNot: '^src/(pipelines|ingest|cli)/' },
      to: { path: '^src/ingest/(landing|land-file|land-files)\\.ts$' },
    },
    {
      name: 'vocabulary-imports-nothing',
      severity: 'error',
      comment: "The spec's vocabulary (action and webhook types, statuses) imports nothing of the project.",
      from: { path: '^src/vocabulary/' },
      to: { path: '^src/', pathNot: '^src/vocabulary/' },
    },
    {
      name: 'fake-marketplace-stands-alone',
      severity: 'error',
      comment:
        "The fake imitates the marketplace's published APIs: it borrows nothing of the product it is tested with.",
      from: { path: '^packages/fake-marketplace/' },
      to: { path: '^src/' },
    },
    {
      name: 'fake-marketplace-only-for-the-demo',
      severity: 'error',
      comment:
        'The product knows only a base-URL override; the demo (and `mktdata fake-marketplace`) load the fake lazily.',
      from: { path: '^src/', pathNot: '^src/demo/fake-marketplace\\.ts$' },
      to: { path: '^packages/fake-marketplace/|@mktdata/fake-marketplace' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no JavaScript API for the cruiser to parse with: swc reads the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
};
