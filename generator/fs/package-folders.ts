import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';
// ts-morph's own TypeScript: the standalone `typescript` package is a second 9 MB compiler for V8 to load.
import { ts } from 'ts-morph';

/**
 * One shipped package as it lives in templates/: a folder named after the package, holding its skeletons
 * (`package.json.hbs`, `README.md.hbs`) and, under `src/`, its hand-written TypeScript. Beside the package folders,
 * `package-tsconfig.json` is the tsconfig.json of every package.
 */
export interface PackageFolder {
  /** The npm package name, which is the folder's name. */
  readonly name: string;
  /** The folder itself: the skeletons sit directly in it. */
  readonly dir: string;
}

/** The file that makes a folder of templates/ a package. */
const SKELETON_MARK = 'package.json.hbs';

/** Every package the generator writes: each folder of `templatesDir` with a package.json skeleton, by name. */
export function listPackageFolders(templatesDir: string): PackageFolder[] {
  return readdirSync(templatesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(templatesDir, entry.name, SKELETON_MARK)))
    .map((entry) => ({ name: entry.name, dir: join(templatesDir, entry.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A package's hand-written TypeScript, keyed by its path below `src/` (tests live in test/, not here),
 * each with a header naming the file it was copied from.
 */
export function packageSources(folder: PackageFolder): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
        files.set(`${prefix}${entry.name}`, withCopyHeader(readFileSync(path, 'utf8'), sourceName(folder, path)));
    }
  };
  walk(join(folder.dir, 'src'), '');
  return files;
}

/** `templates/<package>/src/<file>` as the copy's header names it, whichever directory the templates are read from. */
function sourceName(folder: PackageFolder, file: string): string {
  return `templates/${folder.name}/${relative(folder.dir, file).split('\\').join('/')}`;
}

/**
 * Hand-written sources are copied verbatim into the package as build output (git ignores them), so each copy
 * says where its source is (after a shebang, which must stay the first line).
 */
function withCopyHeader(text: string, source: string): string {
  const header = `// Copied by lease-api-generator from ${source}. DO NOT EDIT: edit that file and run \`npm run generate\`.\n`;
  if (!text.startsWith('#!')) return header + text;
  const lineEnd = text.indexOf('\n') + 1;
  return text.slice(0, lineEnd) + header + text.slice(lineEnd);
}

/**
 * Text that a package import needs somewhere: `from`, `import` (side-effect or dynamic) or `require`, then a
 * quoted specifier that is neither relative nor a `node:` built-in, whitespace or comments between. Most files
 * import only their siblings and Node, and skipping their full scan spares most of preProcessFile's cost (~90 ms
 * of a cold generate).
 */
const GAP = String.raw`(?:\s|/\*[\s\S]*?\*/|//[^\n]*\n)*`;
const MAY_IMPORT_A_PACKAGE = new RegExp(String.raw`\b(?:from|import|require)${GAP}\(?${GAP}['"\`](?!\.|node:)`);

/**
 * The npm packages a package's sources import (static, dynamic and side-effect imports; comments and JSDoc
 * examples are not imports), without Node's built-ins and without `exclude` (the project's own packages).
 * A package depends on exactly what its code imports, so the list cannot drift from the code.
 */
export function importedPackages(sources: ReadonlyMap<string, string>, exclude: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  for (const text of sources.values()) {
    if (!MAY_IMPORT_A_PACKAGE.test(text)) continue;
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const specifier = imported.fileName;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const segments = specifier.split('/');
      const name = specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0]!;
      if (!exclude.has(name)) names.add(name);
    }
  }
  return [...names].sort();
}
