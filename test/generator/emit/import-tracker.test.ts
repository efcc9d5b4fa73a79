/**
 * The import tracker writes an emitted module's import declarations from what the emitter referenced: these are
 * the declarations a user reads at the top of every generated file.
 */
import { describe, expect, it } from 'vitest';
import { createImportTracker, type ImportTracker } from '../../../generator/emit/import-tracker.js';
import { printSourceFile } from '../../../generator/emit/print-source-file.js';
import { emitRelease } from '../../../generator/emit/emit-release.js';
import { GeneratorError } from '../../../generator/errors.js';
import type { GroupVersionIr } from '../../../generator/ir/types.js';
import { leaseIr } from '../../helpers/project.js';

/** The import declarations as printed into a file. */
function printed(imports: ImportTracker): string {
  return printSourceFile('', imports.declarations()).trim();
}

type Use = readonly ['type' | 'value', string, string] | readonly ['type' | 'value', string, string, string];

const CASES: ReadonlyArray<{ name: string; uses: readonly Use[]; expected: string[]; written?: string[] }> = [
  {
    name: 'nothing referenced imports nothing',
    uses: [],
    expected: [],
  },
  {
    name: 'types and values from one module get a type-only and a value declaration',
    uses: [
      ['value', '../runtime/patch.js', 'patchRequest'],
      ['type', '../runtime/patch.js', 'JsonPatch'],
    ],
    expected: [
      "import type { JsonPatch } from '../runtime/patch.js';",
      "import { patchRequest } from '../runtime/patch.js';",
    ],
  },
  {
    name: 'modules sort by code point, so ../ comes before ./ whatever order they were used in',
    uses: [
      ['value', './paths.js', 'leasesPath'],
      ['type', './models.js', 'Lease'],
      ['type', '../runtime/transport.js', 'Client'],
      ['value', '../runtime/query.js', 'encodeQuery'],
    ],
    expected: [
      "import { encodeQuery } from '../runtime/query.js';",
      "import type { Client } from '../runtime/transport.js';",
      "import type { Lease } from './models.js';",
      "import { leasesPath } from './paths.js';",
    ],
  },
  {
    name: 'names sort by code point (upper case first) and a name used twice is imported once',
    uses: [
      ['type', './models.js', 'LeaseList'],
      ['type', './models.js', 'Lease'],
      ['type', './models.js', 'APIResourceList'],
      ['type', './models.js', 'Lease'],
      ['type', './models.js', 'DeleteOptions'],
    ],
    expected: ["import type { APIResourceList, DeleteOptions, Lease, LeaseList } from './models.js';"],
  },
  {
    name: 'a name used as a type and as a value is imported once, as a value',
    uses: [
      ['type', '../runtime/errors.js', 'KubernetesApiError'],
      ['type', '../runtime/errors.js', 'Status'],
      ['value', '../runtime/errors.js', 'KubernetesApiError'],
    ],
    expected: [
      "import type { Status } from '../runtime/errors.js';",
      "import { KubernetesApiError } from '../runtime/errors.js';",
    ],
  },
  {
    name: 'an alias is written as `name as alias` and returned as the name to use',
    uses: [
      ['type', '../runtime/time.js', 'Time', 'TimeString'],
      ['type', '../runtime/time.js', 'MicroTime', 'MicroTimeString'],
    ],
    expected: ["import type { MicroTime as MicroTimeString, Time as TimeString } from '../runtime/time.js';"],
    written: ['TimeString', 'MicroTimeString'],
  },
];

describe('import tracker', () => {
  it.each(CASES)('$name', ({ uses, expected, written }) => {
    const imports = createImportTracker();
    const names = uses.map(([kind, module, name, alias]) => imports[kind](module, name, alias));
    expect(printed(imports).split('\n').filter(Boolean)).toEqual(expected);
    expect(names).toEqual(written ?? uses.map(([, , name]) => name));
  });

  it('imports from where the module sits: specifiers are rewritten, then sorted', () => {
    // A group version one folder deeper: `../runtime/` becomes `../../runtime/`, which sorts before `../models.js`.
    const imports = createImportTracker((module) => module.replace(/^\.\.\/runtime\//, '../../runtime/'));
    imports.type('../models.js', 'ObjectMeta');
    imports.type('../runtime/time.js', 'MicroTime', 'MicroTimeString');
    expect(printed(imports).split('\n')).toEqual([
      "import type { MicroTime as MicroTimeString } from '../../runtime/time.js';",
      "import type { ObjectMeta } from '../models.js';",
    ]);
  });

  it.each([
    { name: 'one name from two modules', other: ['./models.js', 'Client'] as const },
    { name: 'two names under one alias', other: ['../runtime/transport.js', 'CallOptions'] as const },
  ])('refuses $name instead of emitting a module that cannot compile', ({ other }) => {
    const imports = createImportTracker();
    imports.type('../runtime/transport.js', 'Client');
    const clash = (): string => imports.type(other[0], other[1], other[1] === 'Client' ? undefined : 'Client');
    expect(clash).toThrow(GeneratorError);
    expect(clash).toThrow(
      `Client would be imported twice: Client from ../runtime/transport.js and ${other[1]} from ${other[0]}`,
    );
  });
});

describe('a spec model named like a runtime export', () => {
  it('stops generation with one line naming the document, the module and both imports', () => {
    // `Status` renamed to `Client`: the delete operations' 200 body would then clash with the runtime's Client.
    const lease = JSON.parse(JSON.stringify(leaseIr('1.35.0')).replaceAll('"Status"', '"Client"')) as GroupVersionIr;
    let error: unknown;
    try {
      emitRelease({
        ir: { release: lease.release, groupVersions: [lease] },
        documentPath: 'spec/openapi/test.json',
        contentHash: 'sha256:test',
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(GeneratorError);
    expect((error as GeneratorError).toLine()).toBe(
      'error: spec/openapi/test.json: src/v1_35/operations.ts: Client would be imported twice: Client from ../runtime/transport.js and Client from ./models.js',
    );
  });
});
