// The conformance catalogue: every case in ./cases/*.ts, run against the packed server package installed
// into a fresh project and started as users start it (`lease-api-server serve`). Each case names the
// kube-apiserver, apiserver, apimachinery or structured-merge-diff source that fixes its expected answer.
/// <reference types="vite/client" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPackedPackages,
  startPackedServer,
  type PackedInstall,
  type PackedServer,
} from '../../helpers/packed-packages.js';
import type { ConformanceCase, ConformanceCaseModule, ConformanceResponse, ConformanceStep } from './case.js';

const TOKEN = 'conformance-token';

const modules = import.meta.glob<ConformanceCaseModule>('./cases/*.ts', { eager: true });
const tables: Array<[string, readonly ConformanceCase[]]> = Object.entries(modules)
  .map(([path, module]): [string, readonly ConformanceCase[]] => [
    path.replace(/^\.\/cases\/|\.ts$/g, ''),
    module.cases,
  ])
  .sort(([a], [b]) => a.localeCompare(b));

let install: PackedInstall;
const servers = new Map<string, Promise<PackedServer>>();

function serverFor(args: readonly string[] = []): Promise<PackedServer> {
  const key = JSON.stringify(args);
  let server = servers.get(key);
  if (server === undefined) {
    server = startPackedServer(install, ['--token', TOKEN, ...args]);
    servers.set(key, server);
  }
  return server;
}

const substitute = (text: string, namespace: string): string => text.replaceAll('{ns}', namespace);

/** The metadata.resourceVersion of the previous step's JSON answer, or '' when it has none. */
function previousResourceVersion(previous: ConformanceResponse | undefined): string {
  const json = previous?.json;
  const metadata = typeof json === 'object' && json !== null ? Reflect.get(json, 'metadata') : undefined;
  const rv = typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'resourceVersion') : undefined;
  return typeof rv === 'string' ? rv : '';
}

/**
 * `{prev.<header>}` and `{prev.<header>|unquoted}`: a header of the previous step's response;
 * `{prev.metadata.resourceVersion}`: the resourceVersion of its JSON body (case.ts).
 */
function fromPrevious(text: string, previous: ConformanceResponse | undefined): string {
  return text
    .replaceAll('{prev.metadata.resourceVersion}', previousResourceVersion(previous))
    .replace(/\{prev\.([A-Za-z0-9-]+)(\|unquoted)?\}/g, (_match, name: string, unquoted?: string) => {
      const value = previous?.headers.get(name) ?? '';
      return unquoted === undefined ? value : value.replace(/^"(.*)"$/, '$1');
    });
}

/** `{ns}` replaced in every string of a plain JSON-like value; matchers and other objects are kept as they are. */
function substituteDeep(value: unknown, namespace: string): unknown {
  if (typeof value === 'string') return substitute(value, namespace);
  if (Array.isArray(value)) return value.map((item) => substituteDeep(item, namespace));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, namespace)]));
  return value;
}

function bodyOf(
  step: ConformanceStep,
  namespace: string,
  previous: ConformanceResponse | undefined,
): { body?: string | Uint8Array; type?: string } {
  if (step.body === undefined) return {};
  if (step.body instanceof Uint8Array) return { body: step.body };
  if (typeof step.body === 'string') return { body: fromPrevious(substitute(step.body, namespace), previous) };
  return { body: fromPrevious(substitute(JSON.stringify(step.body), namespace), previous), type: 'application/json' };
}

async function send(
  base: string,
  step: ConformanceStep,
  namespace: string,
  previous?: ConformanceResponse,
): Promise<ConformanceResponse> {
  const { body, type } = bodyOf(step, namespace, previous);
  const headers = new Headers({ Authorization: `Bearer ${TOKEN}` });
  if (type !== undefined) headers.set('Content-Type', type);
  for (const [name, value] of Object.entries(step.headers ?? {}))
    headers.set(name, fromPrevious(substitute(value, namespace), previous));
  const controller = new AbortController();
  const response = await fetch(base + fromPrevious(substitute(step.path, namespace), previous), {
    method: step.method,
    headers,
    redirect: 'manual',
    signal: controller.signal,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : new Uint8Array(body) }),
  });
  if (step.readEvents !== undefined && response.ok)
    return readEvents(response, step.readEvents, () => controller.abort());
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

/** How long a watch step waits for its next event before it stops reading. */
const EVENT_WAIT_MS = 10_000;

/** Reads up to `count` newline-delimited events of a watch response, then closes it. */
async function readEvents(response: Response, count: number, close: () => void): Promise<ConformanceResponse> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let buffer = '';
  while (reader !== undefined && lines.length < count) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), EVENT_WAIT_MS);
    });
    const chunk = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
    if (chunk === 'timeout' || chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter((line) => line.trim() !== ''));
  }
  close();
  const read = lines.slice(0, count);
  const text = read.join('\n');
  return {
    status: response.status,
    headers: response.headers,
    bytes: new TextEncoder().encode(text),
    text,
    json: read.map((line) => JSON.parse(line) as unknown),
  };
}

/** Values kept by `save` (case.ts), by name. */
type Saved = Map<string, string>;

/** The value at a dotted path of a JSON answer, as a string ('' when absent or not a scalar). */
function valueAt(json: unknown, path: string): string {
  let value: unknown = json;
  for (const key of path.split('.'))
    value = typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** `{saved.<name>}` in a path, percent-encoded. */
function savedInPath(path: string, saved: Saved): string {
  return path.replace(/\{saved\.([A-Za-z0-9]+)\}/g, (_match, name: string) =>
    encodeURIComponent(saved.get(name) ?? ''),
  );
}

/** `{saved.<name>}` strings in an expected JSON value or a JSON body become the saved value. */
function savedInJson(value: unknown, saved: Saved): unknown {
  if (typeof value === 'string')
    return value.replace(/^\{saved\.([A-Za-z0-9]+)\}$/, (_m, name: string) => saved.get(name) ?? '');
  if (Array.isArray(value)) return value.map((item) => savedInJson(item, saved));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, savedInJson(v, saved)]));
  return value;
}

async function runStep(
  base: string,
  given: ConformanceStep,
  namespace: string,
  index: number,
  previous: ConformanceResponse | undefined,
  saved: Saved = new Map(),
): Promise<ConformanceResponse> {
  const step: ConformanceStep = {
    ...given,
    path: savedInPath(given.path, saved),
    ...(given.body === undefined || typeof given.body === 'string' || given.body instanceof Uint8Array
      ? {}
      : { body: savedInJson(given.body, saved) as object }),
    ...(given.expect?.json === undefined
      ? {}
      : { expect: { ...given.expect, json: savedInJson(given.expect.json, saved) } }),
  };
  const response = await send(base, step, namespace, previous);
  for (const [name, path] of Object.entries(step.save ?? {})) saved.set(name, valueAt(response.json, path));
  const expected = step.expect;
  if (expected === undefined) return response;
  const where = `step ${index + 1}: ${step.method} ${step.path} → ${response.status} ${response.text.slice(0, 600)}`;
  if (expected.status !== undefined) expect(response.status, where).toBe(expected.status);
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const actual = response.headers.get(name);
    if (value === null) expect(actual, `${where}\nheader ${name}`).toBeNull();
    else if (typeof value === 'string')
      expect(actual, `${where}\nheader ${name}`).toBe(fromPrevious(substitute(value, namespace), previous));
    else expect(actual ?? '', `${where}\nheader ${name}`).toMatch(value);
  }
  if (expected.json !== undefined)
    expect(response.json, where).toMatchObject(substituteDeep(expected.json, namespace) as object);
  if (expected.text !== undefined) expect(response.text, where).toMatch(expected.text);
  await expected.check?.(response);
  return response;
}

describe('conformance with kube-apiserver (packed server)', () => {
  beforeAll(async () => {
    install = await installPackedPackages();
  }, 240_000);
  afterAll(async () => {
    await Promise.all([...servers.values()].map(async (server) => (await server).close()));
  });

  let counter = 0;
  describe.each(tables)('%s', (_table, cases) => {
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
      const server = await serverFor(testCase.serverArgs);
      const namespace = `conformance-${++counter}`;
      const created = await send(
        server.url,
        {
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
        },
        namespace,
      );
      expect(created.status, `creating namespace ${namespace}: ${created.text}`).toBe(201);
      let previous: ConformanceResponse | undefined;
      const saved: Saved = new Map();
      for (const [index, step] of testCase.steps.entries())
        previous = await runStep(server.url, step, namespace, index, previous, saved);
    });
  });
});
