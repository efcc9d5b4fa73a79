import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPackageFolders } from '../../generator/fs/package-folders.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/**
 * The README is the project's front door: what it is, the two commands, what each package gives, the
 * layout, the pipeline, links; short enough to read at once. Maintainers' matters live in CONTRIBUTING.md, users'
 * walkthroughs in the package READMEs.
 */

const MAX_LINES = 150;
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const packages = listPackageFolders(join(PROJECT_ROOT, 'templates')).map((folder) => folder.name);

describe('the README as a front door', () => {
  it(`is at most ${MAX_LINES} lines`, () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  it('shows the two commands first, as CI runs them', () => {
    const firstBlock = /^```sh\n([\s\S]*?)^```$/m.exec(readme)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npm run generate\s/m);
    expect(firstBlock).toMatch(/^npm test\s/m);
  });

  it('keeps its sections in the order a newcomer needs them', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const order = ['The two commands', 'The packages', 'Layout', 'Links'];
    expect(headings.filter((heading) => order.includes(heading!))).toEqual(order);
  });

  it('draws the pipeline in one line', () => {
    expect(readme).toContain('spec/ → load → ir → diff → emit → generated/');
  });

  it.each(packages)('links %s to its README and its API reference', (pkg) => {
    expect(readme).toContain(`](generated/${pkg}/README.md)`);
    expect(readme).toContain(`](docs/api/${pkg}/README.md)`);
  });

  it('links CONTRIBUTING.md', () => {
    expect(readme).toContain('](CONTRIBUTING.md)');
  });
});
