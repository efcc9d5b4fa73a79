import { LEASE_TARGET, PACKAGE_VERSION, TEMPLATES_DIR } from '../../../generator/config.js';
import { packageChangelogPath } from '../../../generator/generate.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfSpecDir, runCommand, tempDir, treeDigest } from '../../helpers/cli.js';
import { PROJECT_ROOT, manifestReleases, upstreamSwagger } from '../../helpers/project.js';
import { releaseModuleName, releaseSubpath } from '../../../generator/shared/release-names.js';
import { buildReleaseIr } from '../../../generator/ir/build-release-ir.js';
import { renderModelTables, renderOperationTables } from '../../../generator/ir/render-tables.js';
import { typeCheckDirectory } from '../../helpers/type-check.js';

/**
 * A release the generator has never seen works with no code change. The
 * fixture is derived from a real release by the test itself: the newest
 * release's swagger.json plus a new query parameter, a new LeaseSpec field
 * and a new schema, published as the next minor release. Both are read from
 * spec/releases.json, so adding a real release needs no edit here.
 */
const NEWEST = manifestReleases().at(-1)!.release;
const FUTURE = `${NEWEST.split('.')[0]}.${Number(NEWEST.split('.')[1]) + 1}.0`;
const FUTURE_SUBPATH = releaseSubpath(FUTURE).slice(2);
const escaped = (text: string): string => text.replaceAll('.', '\\.');
type Json = Record<string, unknown>;

function futureSwagger(): Json {
  const doc = JSON.parse(readFileSync(upstreamSwagger(NEWEST), 'utf8')) as Json;
  const paths = doc['paths'] as Record<string, Record<string, Json>>;
  const list = paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases']!['get']!;
  (list['parameters'] as Json[] | undefined) ?? (list['parameters'] = []);
  (list['parameters'] as Json[]).push({
    name: 'holderSelector',
    in: 'query',
    type: 'string',
    uniqueItems: true,
    description: 'holderSelector restricts the list to one shard.',
  });
  const definitions = doc['definitions'] as Record<string, Json>;
  definitions['io.k8s.api.coordination.v1.LeaseFencing'] = {
    description: 'LeaseFencing carries a fencing token.',
    type: 'object',
    required: ['token'],
    properties: { token: { description: 'token increases with every new holder.', type: 'integer', format: 'int64' } },
  };
  const specProperties = definitions['io.k8s.api.coordination.v1.LeaseSpec']!['properties'] as Record<string, Json>;
  specProperties['fencing'] = {
    $ref: '#/definitions/io.k8s.api.coordination.v1.LeaseFencing',
    description: 'fencing protects writers from stale holders.',
  };
  specProperties['renewCount'] = {
    description: 'renewCount counts renewals by the current holder.',
    type: 'integer',
    format: 'int32',
  };
  return doc;
}

describe('a Kubernetes release the generator has never seen', () => {
  it('spec:update --from regenerates cleanly and the diff lists what is new', async () => {
    const mirror = tempDir('lease-mirror-');
    mkdirSync(join(mirror, `v${FUTURE}`));
    writeFileSync(join(mirror, `v${FUTURE}`, 'swagger.json'), JSON.stringify(futureSwagger()));
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-out-'), 'generated');

    const result = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirror,
      '--spec-dir',
      spec,
      '--out',
      out,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`${escaped(FUTURE)}: updated .*; API vs ${escaped(NEWEST)}: 0 breaking, 4 additive, 0 docs-only`),
    );

    const manifest = JSON.parse(readFileSync(join(spec, 'releases.json'), 'utf8')) as {
      releases: Array<{ release: string; contentHash: string }>;
    };
    expect(manifest.releases.map((r) => r.release).at(-1)).toBe(FUTURE);
    expect(manifest.releases.at(-1)!.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const changelog = readFileSync(join(out, 'k8s-lease-client', 'CHANGELOG.md'), 'utf8');
    const section = changelog.slice(changelog.indexOf(`## ${FUTURE}`), changelog.indexOf(`## ${NEWEST}`));
    expect(section).toContain('0 breaking, 4 additive');
    expect(section).toContain('`listNamespacedLease ?holderSelector` — query parameter added: string');
    expect(section).toContain('`LeaseSpec.fencing` — field added: LeaseFencing');
    expect(section).toContain('`LeaseSpec.renewCount` — field added: integer(int32)');
    expect(section).toContain('`LeaseFencing` — model added');
    const apiDiff = JSON.parse(readFileSync(join(out, 'k8s-lease-client', 'api-diff.json'), 'utf8')) as {
      diffs: Array<{ to: string; counts: { breaking: number } }>;
    };
    expect(apiDiff.diffs.at(-1)).toMatchObject({ to: FUTURE, counts: { breaking: 0 } });

    const models = readFileSync(join(out, 'k8s-lease-client', 'src', releaseModuleName(FUTURE), 'models.ts'), 'utf8');
    expect(models).toMatch(new RegExp(`@since ${escaped(FUTURE)}\\s+\\*/\\s+renewCount\\?: number \\| undefined;`));
    expect(models).toMatch(/export interface LeaseFencing/);
    const packageJson = JSON.parse(readFileSync(join(out, 'k8s-lease-client', 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(packageJson.exports)).toContain(`./${FUTURE_SUBPATH}`);
    expect(readFileSync(join(out, 'k8s-lease-client', 'src', 'index.ts'), 'utf8')).toContain(
      `export * from './${releaseModuleName(FUTURE)}/index.js';`,
    );

    expect(typeCheckDirectory(join(out, 'k8s-lease-client', 'src'))).toEqual([]);
  });
});

describe('adding a release keeps npm test green without test:update-golden', () => {
  function mirrorWithFuture(): string {
    const mirror = tempDir('lease-mirror-');
    mkdirSync(join(mirror, `v${FUTURE}`));
    writeFileSync(join(mirror, `v${FUTURE}`, 'swagger.json'), JSON.stringify(futureSwagger()));
    return mirror;
  }

  it("spec:update --golden-dir writes the new release's golden tables, as the golden test renders them", async () => {
    const spec = copyOfSpecDir();
    const golden = tempDir('lease-golden-');
    const result = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirrorWithFuture(),
      '--spec-dir',
      spec,
      '--golden-dir',
      golden,
      '--no-generate',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `golden tables: .*v${escaped(FUTURE)}\\.operations\\.md, .*v${escaped(FUTURE)}\\.models\\.md \\(review with git diff\\)`,
      ),
    );
    // Exactly what test/generator/ir/golden-tables.test.ts compares against, from the spec/ the command wrote.
    const ir = buildReleaseIr(
      FUTURE,
      JSON.parse(readFileSync(join(spec, 'openapi', `v${FUTURE}.json`), 'utf8')) as Record<string, unknown>,
      `spec/openapi/v${FUTURE}.json`,
      LEASE_TARGET,
    );
    expect(readFileSync(join(golden, `v${FUTURE}.operations.md`), 'utf8')).toBe(renderOperationTables(ir));
    expect(readFileSync(join(golden, `v${FUTURE}.models.md`), 'utf8')).toBe(renderModelTables(ir));
    expect(readFileSync(join(golden, `v${FUTURE}.models.md`), 'utf8')).toContain('renewCount');
  });

  it('with another --spec-dir and no --golden-dir, test/golden is left alone', async () => {
    const before = treeDigest(join(PROJECT_ROOT, 'test', 'golden'));
    const result = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirrorWithFuture(),
      '--spec-dir',
      copyOfSpecDir(),
      '--no-generate',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('golden tables');
    expect(treeDigest(join(PROJECT_ROOT, 'test', 'golden'))).toBe(before);
  });

  it('when generated/ cannot be written, the golden tables are left as they were too', async () => {
    const spec = copyOfSpecDir();
    const golden = tempDir('lease-golden-');
    writeFileSync(join(golden, `v${FUTURE}.models.md`), 'previous tables\n');
    const before = [treeDigest(spec), treeDigest(golden)];
    const blocker = join(tempDir('lease-blocked-'), 'file');
    writeFileSync(blocker, 'not a directory');
    const result = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirrorWithFuture(),
      '--spec-dir',
      spec,
      '--golden-dir',
      golden,
      '--out',
      join(blocker, 'generated'),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot write output/);
    expect([treeDigest(spec), treeDigest(golden)]).toEqual(before);
  });
});

describe('the package version moves as CONTRIBUTING.md promises', () => {
  function versions(out: string): Record<string, unknown> {
    const read = (name: string): Record<string, unknown> =>
      JSON.parse(readFileSync(join(out, name, 'package.json'), 'utf8')) as Record<string, unknown>;
    const server = read('k8s-lease-api-server');
    return {
      client: read('k8s-lease-client')['version'],
      server: server['version'],
      node: read('k8s-lease-client-node')['version'],
      serverDependsOn: (server['dependencies'] as Record<string, string>)['k8s-lease-client'],
    };
  }
  function manifestVersion(spec: string): string {
    const version = (JSON.parse(readFileSync(join(spec, 'releases.json'), 'utf8')) as Record<string, unknown>)[
      'packageVersion'
    ];
    return typeof version === 'string' ? version : PACKAGE_VERSION;
  }
  function changelogCopy(): string {
    const file = join(tempDir('lease-changelog-'), 'PACKAGE_CHANGELOG.md');
    writeFileSync(file, readFileSync(packageChangelogPath(TEMPLATES_DIR)));
    return file;
  }

  /** The version after `version` (X.Y.Z) by CONTRIBUTING.md's rule, independent of where the manifest stands today. */
  function bumped(version: string, part: 'minor' | 'patch'): string {
    const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
    return part === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
  }

  it('a new Kubernetes release is a minor bump, with an entry in the package changelog the package ships', async () => {
    const mirror = tempDir('lease-mirror-');
    mkdirSync(join(mirror, `v${FUTURE}`));
    writeFileSync(join(mirror, `v${FUTURE}`, 'swagger.json'), JSON.stringify(futureSwagger()));
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-out-'), 'generated');
    const changelog = changelogCopy();
    const current = manifestVersion(spec);
    const minor = bumped(current, 'minor');
    const result = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirror,
      '--spec-dir',
      spec,
      '--out',
      out,
      '--package-changelog',
      changelog,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`packages: version ${minor}, entry added to `);
    expect(manifestVersion(spec)).toBe(minor);
    expect(versions(out)).toEqual({ client: minor, server: minor, node: minor, serverDependsOn: minor });
    const text = readFileSync(changelog, 'utf8');
    expect(text.indexOf(`## ${minor}\n`)).toBeLessThan(text.indexOf(`## ${current}\n`));
    expect(text).toContain(
      `- Kubernetes ${FUTURE} added: \`k8s-lease-client/${FUTURE_SUBPATH}\`, now also the root export.`,
    );
    expect(readFileSync(join(out, 'k8s-lease-client', 'PACKAGE_CHANGELOG.md'), 'utf8')).toBe(text);

    // Refreshing a release whose document did not change moves nothing.
    const again = await runCommand('spec-update', [
      '--release',
      FUTURE,
      '--from',
      mirror,
      '--spec-dir',
      spec,
      '--out',
      out,
      '--package-changelog',
      changelog,
    ]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('packages: version');
    expect(manifestVersion(spec)).toBe(minor);
    expect(readFileSync(changelog, 'utf8')).toBe(text);
  });

  it('refreshing an unchanged release changes no byte of spec/ nor of the package changelog', async () => {
    const spec = copyOfSpecDir();
    const changelog = changelogCopy();
    const before = [treeDigest(spec), readFileSync(changelog, 'utf8')];
    const result = await runCommand('spec-update', [
      '--release',
      NEWEST,
      '--spec',
      upstreamSwagger(NEWEST),
      '--spec-dir',
      spec,
      '--package-changelog',
      changelog,
      '--no-generate',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${NEWEST}: unchanged`);
    expect([treeDigest(spec), readFileSync(changelog, 'utf8')]).toEqual(before);
  });

  it('a refreshed release whose document changed is a patch bump', async () => {
    const doc = JSON.parse(readFileSync(upstreamSwagger(NEWEST), 'utf8')) as Json;
    (
      (doc['definitions'] as Record<string, Json>)['io.k8s.api.coordination.v1.LeaseSpec']!['properties'] as Record<
        string,
        unknown
      >
    )['renewCount'] = { type: 'integer', format: 'int32' };
    const file = join(tempDir('lease-refresh-'), 'swagger.json');
    writeFileSync(file, JSON.stringify(doc));
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-out-'), 'generated');
    const changelog = changelogCopy();
    const patch = bumped(manifestVersion(spec), 'patch');
    const result = await runCommand('spec-update', [
      '--release',
      NEWEST,
      '--spec',
      file,
      '--spec-dir',
      spec,
      '--out',
      out,
      '--package-changelog',
      changelog,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(manifestVersion(spec)).toBe(patch);
    expect(versions(out)).toEqual({ client: patch, server: patch, node: patch, serverDependsOn: patch });
    expect(readFileSync(changelog, 'utf8')).toMatch(
      new RegExp(
        `## ${patch.replaceAll('.', '\\.')}\\n\\n- Kubernetes ${escaped(NEWEST)}'s document refreshed \\(sha256:[0-9a-f]{64}\\)`,
      ),
    );
  });
});
