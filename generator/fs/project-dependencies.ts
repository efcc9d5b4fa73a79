import { readFile } from 'node:fs/promises';
import { GeneratorError } from '../errors.js';
import { isJsonObject, parseJsonFile } from '../shared/json.js';

/**
 * Caret ranges for `names`, from the exact versions this project's own package.json pins: the server
 * package is published depending on the versions its tests ran against. A name the project does not
 * pin is a one-line error naming the file and the dependency.
 */
export async function dependencyRanges(packageJson: string, names: readonly string[]): Promise<Map<string, string>> {
  const parsed = parseJsonFile(packageJson, await readFile(packageJson, 'utf8'));
  const pinned = isJsonObject(parsed)
    ? { ...asStrings(parsed['dependencies']), ...asStrings(parsed['devDependencies']) }
    : {};
  const ranges = new Map<string, string>();
  for (const name of names) {
    const version = pinned[name];
    if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) {
      throw new GeneratorError(
        'usage',
        `devDependencies.${name}: the server package depends on it, so pin an exact version here`,
        { file: packageJson },
      );
    }
    ranges.set(name, `^${version}`);
  }
  return ranges;
}

function asStrings(value: unknown): Record<string, string> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
