// The watch runtime is copied verbatim into generated packages that run in browsers, Deno, Bun and
// Node: it may only use the platform (fetch, streams, TextDecoder, AbortSignal, timers) and its
// sibling runtime files.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as runtime from '../../../../templates/k8s-lease-client/src/runtime/index.js';

const dir = fileURLToPath(new URL('../../../../templates/k8s-lease-client/src/runtime/watch/', import.meta.url));
const sources = readdirSync(dir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(`${dir}${file}`, 'utf8') }));

describe('templates/k8s-lease-client/src/runtime/watch stays portable', () => {
  it('has the expected files', () => {
    expect(sources.map((s) => s.file).sort()).toEqual([
      'abort.ts',
      'backoff.ts',
      'batch.ts',
      'connection-reader.ts',
      'deduplicator.ts',
      'errors.ts',
      'event-shape.ts',
      'hand-out.ts',
      'idle-watchdog.ts',
      'index.ts',
      'informer.ts',
      'line-decision.ts',
      'list-all.ts',
      'ndjson.ts',
      'resource-version.ts',
      'state-holder.ts',
      'state.ts',
      'watch-config.ts',
      'watch-options.ts',
      'watch.ts',
    ]);
  });

  it.each(sources)('$file imports only runtime files, with .js extensions', ({ text }) => {
    const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)].map((m) => m[1] ?? m[2]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\.?\/[a-z]+(?:-[a-z]+)*\.js$/);
    expect(text).not.toMatch(/\brequire\s*\(/);
  });

  it('has no import cycle among its files, type-only imports included', () => {
    const siblings = new Map(
      sources.map(({ file, text }) => {
        const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
        const local = specifiers.filter((specifier) => specifier.startsWith('./'));
        return [file, [...new Set(local.map((specifier) => specifier.slice(2).replace(/\.js$/, '.ts')))]];
      }),
    );
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: readonly string[]): void => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      if (done.has(file)) return;
      for (const next of siblings.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of siblings.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it.each(sources)('$file uses no Node-only globals and no any', ({ text }) => {
    expect(text).not.toMatch(/\b(process|Buffer|__dirname|require|setImmediate)\b\s*[.(]/);
    expect(text).not.toMatch(/:\s*any\b|as any\b|<any>/);
  });

  it('is exported from the runtime index', () => {
    for (const name of [
      'watch',
      'listAll',
      'createInformer',
      'readNdjson',
      'NdjsonDecoder',
      'WatchDecodeError',
      'WatchError',
      'WatchIdleTimeoutError',
      'WatchClosedError',
      'isNewerResourceVersion',
      'objectKey',
      'INITIAL_EVENTS_END_ANNOTATION',
    ]) {
      expect(runtime, name).toHaveProperty(name);
    }
  });
});
