import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as runtime from '../../../templates/k8s-lease-client/src/runtime/index.js';

const runtimeDir = fileURLToPath(new URL('../../../templates/k8s-lease-client/src/runtime/', import.meta.url));
/** Every .ts file under templates/k8s-lease-client/src/runtime, subfolders included, as paths relative to it with '/' separators. */
const sources = (readdirSync(runtimeDir, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file: file.split(sep).join('/'), text: readFileSync(join(runtimeDir, file), 'utf8') }))
  .sort((a, b) => a.file.localeCompare(b.file));

/** The values the runtime index exports (classes, functions, constants). */
const VALUE_EXPORTS = [
  // transport, streaming, signals
  'createCandidate',
  'createClient',
  'stream',
  'requestWithResponse',
  'combineSignals',
  // called by generated code
  'encodeQuery',
  'nameSegment',
  'namespaceSegment',
  'patchRequest',
  // errors and predicates
  'ClientClosedError',
  'ConnectionError',
  'errorFromResponse',
  'humanDuration',
  'InvalidPathParameterError',
  'isAlreadyExists',
  'isBadRequest',
  'isConflict',
  'isForbidden',
  'isGone',
  'isInternalError',
  'isInvalid',
  'isKubernetesApiError',
  'isNotFound',
  'isServerTimeout',
  'isServiceUnavailable',
  'isTooManyRequests',
  'isUnauthorized',
  'KubernetesApiError',
  'RequestTimeoutError',
  'ResponseDecodeError',
  'ResponseTooLargeError',
  'UnexpectedResponseError',
  // response limits
  'DEFAULT_MAX_RESPONSE_BYTES',
  'limitResponseBytes',
  // time
  'asMicroTime',
  'asTime',
  'formatMicroTime',
  'formatTime',
  'isMicroTime',
  'isTime',
  'microTimeNow',
  'parseMicroTime',
  'parseTime',
  'timeNow',
  // watch
  'createInformer',
  'DEFAULT_MAX_LINE_BYTES',
  'INITIAL_EVENTS_END_ANNOTATION',
  'isNewerResourceVersion',
  'listAll',
  'NdjsonDecoder',
  'objectKey',
  'readNdjson',
  'watch',
  'WatchClosedError',
  'WatchDecodeError',
  'WatchError',
  'WatchIdleTimeoutError',
  // middleware (fetch wrappers)
  'defaultUserAgent',
  'logOncePerText',
  'parseWarningHeaders',
  'withApiMiddleware',
  'withRetries',
  'withWarnings',
  // leader election
  'compareFencingTokens',
  'createHealthzAdaptor',
  'createLeaderElector',
  'ElectorEndedError',
  'fencingTokenOf',
  'holdsFencingToken',
  'realClock',
  'runHeartbeat',
  'withLeaseLock',
];

/** The type-only exports (interfaces and type aliases). */
const TYPE_EXPORTS = [
  // middleware
  'ApiMiddlewareOptions',
  'ApiWarning',
  'RetryBudget',
  'RetryEvent',
  'RetryOptions',
  'UserAgentInfo',
  'WarningHeader',
  // transport, signals, query, errors, time, responses
  'ApiResponse',
  'CallOptions',
  'Client',
  'ClientOptions',
  'CombinedSignal',
  'HttpMethod',
  'KubernetesApiErrorInit',
  'KubernetesStatus',
  'MicroTime',
  'ParsedMicroTime',
  'QueryValue',
  'RequestContext',
  'RequestSpec',
  'ResponseDecodeErrorInit',
  'ResponseOf',
  'UnexpectedResponseErrorInit',
  'Time',
  'TokenProvider',
  // patch
  'AnyPatch',
  'ApplyConfiguration',
  'ApplyPatch',
  'JsonPatch',
  'JsonPatchOperation',
  'MergePatch',
  'MergePatchBody',
  'StrategicMergePatch',
  // watch
  'Informer',
  'InformerHandlers',
  'KubeObjectLike',
  'ListAllOptions',
  'ListResponse',
  'ReconnectPolicy',
  'ResyncEvent',
  'WatchConnectInfo',
  'WatchDecodeErrorInit',
  'WatchDisconnectInfo',
  'WatchEvent',
  'WatchEventType',
  'WatchNotification',
  'WatchOptions',
  'WatchResyncInfo',
  'WatchTarget',
  // leader election
  'ElectionClock',
  'ElectionLease',
  'ElectionLeaseSpec',
  'ElectionOwnerReference',
  'FencingToken',
  'HealthzAdaptor',
  'HeartbeatOptions',
  'LeaderElectionMetrics',
  'LeaderElector',
  'LeaderElectorOptions',
  'LeaseLockOptions',
  'CandidateOptions',
  'ElectionLeaseCandidate',
  'ElectionLeaseCandidateSpec',
  'LeaseCandidateRunner',
  'ObservedElection',
];

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('runtime index', () => {
  it('exports exactly the public values', () => {
    expect(Object.keys(runtime).sort(byName)).toEqual([...VALUE_EXPORTS].sort(byName));
  });

  it('exports exactly the public types', () => {
    const indexPath = join(runtimeDir, 'index.ts');
    const program = ts.createProgram([indexPath], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(indexPath);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error('templates/k8s-lease-client/src/runtime/index.ts did not load');
    const exported = checker.getExportsOfModule(moduleSymbol);
    const isValue = (symbol: ts.Symbol): boolean =>
      ((symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags &
        ts.SymbolFlags.Value) !==
      0;
    expect(
      exported
        .filter((symbol) => !isValue(symbol))
        .map((symbol) => symbol.name)
        .sort(byName),
    ).toEqual([...TYPE_EXPORTS].sort(byName));
    // The compiler agrees with the runtime on the values.
    expect(
      exported
        .filter(isValue)
        .map((symbol) => symbol.name)
        .sort(byName),
    ).toEqual([...VALUE_EXPORTS].sort(byName));
  }, 30_000);
});

describe('runtime sources stay portable (copied verbatim into generated packages)', () => {
  it('has the expected files', () => {
    expect(sources.map((s) => s.file)).toEqual(
      expect.arrayContaining([
        'errors.ts',
        'index.ts',
        'patch.ts',
        'path-segments.ts',
        'query.ts',
        'signals.ts',
        'stream.ts',
        'time.ts',
        'transport.ts',
        'watch/index.ts',
        'watch/watch.ts',
      ]),
    );
  });

  it.each(sources)('$file imports only runtime files, relative and with .js extensions', ({ file, text }) => {
    // The compiler's scan, so an `import` inside a JSDoc @example is not taken for one.
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    for (const specifier of specifiers) {
      // Relative, `.js`-suffixed, plain kebab-case folder and file names: no `node:` builtins, no packages, no bare `.ts`.
      expect(specifier).toMatch(/^\.\.?\/(?:[A-Za-z]+(?:-[A-Za-z]+)*\/)*[A-Za-z]+(?:-[A-Za-z]+)*\.js$/);
      // ...and resolving to a runtime source, never outside templates/k8s-lease-client/src/runtime.
      const target = resolve(dirname(join(runtimeDir, file)), specifier.replace(/\.js$/, '.ts'));
      expect(
        relative(runtimeDir, target).startsWith('..'),
        `${file} imports ${specifier}, outside templates/k8s-lease-client/src/runtime`,
      ).toBe(false);
      expect(existsSync(target), `${file} imports ${specifier}, which does not exist`).toBe(true);
    }
    expect(text).not.toMatch(/\brequire\s*\(/);
  });

  it('the import rule rejects what it should', () => {
    const rule = /^\.\.?\/(?:[A-Za-z]+(?:-[A-Za-z]+)*\/)*[A-Za-z]+(?:-[A-Za-z]+)*\.js$/;
    for (const allowed of ['./errors.js', './watch/index.js', '../transport.js', '../path-segments.js'])
      expect(allowed).toMatch(rule);
    for (const rejected of [
      'node:events',
      'events',
      'some-package',
      './errors',
      './errors.ts',
      './watch/',
      './-errors.js',
      './errors-.js',
      '/abs/x.js',
    ])
      expect(rejected).not.toMatch(rule);
  });

  it.each(sources)('$file uses no Node-only globals and no any', ({ text }) => {
    expect(text).not.toMatch(/\b(process|Buffer|__dirname|require)\b\s*[.(]/);
    expect(text).not.toMatch(/:\s*any\b|as any\b|<any>/);
  });
});
