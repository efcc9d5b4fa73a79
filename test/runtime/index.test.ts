import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as runtime from '../../templates/runtime/index.js';

const runtimeDir = fileURLToPath(new URL('../../templates/runtime/', import.meta.url));
const sources = readdirSync(runtimeDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(`${runtimeDir}${file}`, 'utf8') }));

describe('runtime index', () => {
  it('exports the public API the generator calls', () => {
    expect(Object.keys(runtime).sort()).toEqual(
      [
        'asMicroTime',
        'asTime',
        'combineSignals',
        'createClient',
        'encodeQuery',
        'errorFromResponse',
        'formatMicroTime',
        'formatTime',
        'InvalidPathParameterError',
        'isAlreadyExists',
        'isBadRequest',
        'isConflict',
        'isForbidden',
        'isGone',
        'isInternalError',
        'isInvalid',
        'isKubernetesApiError',
        'isMicroTime',
        'isNotFound',
        'isServerTimeout',
        'isServiceUnavailable',
        'isTime',
        'isTooManyRequests',
        'isUnauthorized',
        'KubernetesApiError',
        'microTimeNow',
        'nameSegment',
        'namespaceSegment',
        'parseMicroTime',
        'parseTime',
        'RequestTimeoutError',
        'ResponseDecodeError',
        'timeNow',
      ].sort(),
    );
  });
});

describe('runtime sources stay portable (copied verbatim into generated packages)', () => {
  it('has the expected files', () => {
    expect(sources.map((s) => s.file)).toEqual(
      expect.arrayContaining(['errors.ts', 'index.ts', 'pathSegments.ts', 'query.ts', 'signals.ts', 'time.ts', 'transport.ts']),
    );
  });

  it.each(sources)('$file imports only sibling runtime files, with .js extensions', ({ text }) => {
    const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)].map((m) => m[1] ?? m[2]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[A-Za-z]+\.js$/);
    expect(text).not.toMatch(/\brequire\s*\(/);
  });

  it.each(sources)('$file uses no Node-only globals and no any', ({ text }) => {
    expect(text).not.toMatch(/\b(process|Buffer|__dirname|require)\b\s*[.(]/);
    expect(text).not.toMatch(/:\s*any\b|as any\b|<any>/);
  });
});
