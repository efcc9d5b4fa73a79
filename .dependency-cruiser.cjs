// Import rules of the project, checked by `npm run check:cycles` (dependency-cruiser; CI runs it over generator/,
// templates/, test/ and bench/). Type-only imports count like any other: a cycle through types still ties two
// modules together for a reader, even when it vanishes at run time.

/**
 * The generator's stages in the order they run: load reads and normalises documents, ir builds the IR (and the
 * facts about the client surface read off it), diff compares IRs, emit renders IRs and diffs into files.
 */
const STAGES = ['load', 'ir', 'diff', 'emit'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No module may reach itself through its imports: every folder reads from the bottom up.',
      from: {},
      to: { circular: true },
    },
    // A stage may use earlier ones, never a later one.
    ...STAGES.slice(0, -1).map((stage, index) => ({
      name: `${stage}-imports-no-later-stage`,
      severity: 'error',
      comment: `generator/${stage}/ runs before ${STAGES.slice(index + 1).join(', ')}: it may not import them.`,
      from: { path: `^generator/${stage}/` },
      // The drivers (generate.ts, spec-update.ts, cli/) run every stage, so they count as later than all of them.
      to: { path: `^generator/(${STAGES.slice(index + 1).join('|')}|cli)/|^generator/(generate|spec-update)\\.ts$` },
    })),
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve is an edge it cannot see: the checks above would pass unseen.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'helpers-use-no-stage',
      severity: 'error',
      comment: 'shared/, fs/, manifest/, config.ts and errors.ts are usable by every stage, so they import none.',
      from: { path: '^generator/(shared/|fs/|manifest/|config\\.ts$|errors\\.ts$)' },
      to: { path: '^generator/(cli|load|ir|diff|emit)/|^generator/(generate|spec-update)\\.ts$' },
    },
    {
      name: 'packages-import-only-themselves',
      severity: 'error',
      comment:
        "A package's hand-written code is copied into generated/<package>/src, where a relative path out of its own " +
        'folder leads nowhere: other packages are imported by name (k8s-lease-client), never by path.',
      from: { path: '^templates/([^/]+)/' },
      to: { path: '^(generator|test|bench)/|^templates/', pathNot: '^templates/$1/' },
    },
  ],
  options: {
    // generated/ is build output (its sources are copies of templates/); test/fixtures is data; packages are not ours.
    exclude: { path: ['^generated/', '^test/fixtures/', 'node_modules'] },
    // Resolves `./x.js` to `./x.ts` as tsc does.
    tsConfig: { fileName: 'tsconfig.json' },
    // Package subpaths (`k8s-lease-client/v1.35`) resolve through `exports`, as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    // Keeps type-only imports, which the compiler erases, in the graph (see the top of this file).
    tsPreCompilationDeps: true,
  },
};
