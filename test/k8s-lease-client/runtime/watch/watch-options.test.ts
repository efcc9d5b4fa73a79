// watch-options.ts is the leaf both the driver (watch.ts) and the backoff (backoff.ts) import their option types
// from; while it imports nothing and compiles to nothing, neither can close an import cycle through it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const file = fileURLToPath(
  new URL('../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.ts', import.meta.url),
);
const text = readFileSync(file, 'utf8');

describe('watch-options.ts: the options of a watch, as types only', () => {
  it('imports nothing', () => {
    expect(ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)).toEqual([]);
  });

  it('compiles to no code: every declaration is a type', () => {
    const js = ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, removeComments: true },
    }).outputText;
    expect(js.trim()).toBe('export {};');
  });

  it('declares the option types the package exports', () => {
    const exported = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(exported.sort()).toEqual([
      'ReconnectPolicy',
      'WatchConnectInfo',
      'WatchDisconnectInfo',
      'WatchOptions',
      'WatchResyncInfo',
    ]);
  });
});
