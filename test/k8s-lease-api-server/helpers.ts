// Shared helpers for the Lease API server tests: OpenAPI fixtures, a small HTTP client and a watch reader.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';
import type { LeaseApiServer, LeaseApiServerOptions } from '../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';

// Upstream's per-group OpenAPI v3 document (committed fixture, byte for byte; see test/fixtures/README.md).
export const SNAPSHOT_PATH = fileURLToPath(
  new URL(
    '../fixtures/upstream/kubernetes-v3-snapshots/between-v1.30-and-v1.31/apis__coordination.k8s.io__v1_openapi.json',
    import.meta.url,
  ),
);
export const BASE = '/apis/coordination.k8s.io/v1';
export const NS_BASE = `${BASE}/namespaces/default/leases`;

type Doc = Record<string, unknown>;

/** The coordination.k8s.io/v1 document of a release before 1.31 (no preferredHolder/strategy). */
export function openApi130(): Doc {
  const parsed: Doc = JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8'));
  return parsed;
}

/** The same document with the LeaseSpec fields 1.31 added, standing in for a 1.31+ release. */
export function openApi131(): Doc {
  const doc = openApi130();
  const text = JSON.stringify(doc).replace(
    '"holderIdentity":{',
    '"preferredHolder":{"description":"PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.","type":"string"},"strategy":{"description":"Strategy indicates the strategy for picking the leader for coordinated leader election.","type":"string"},"holderIdentity":{',
  );
  const parsed: Doc = JSON.parse(text);
  return parsed;
}

/** Namespaces the suites create Leases in besides default (creates elsewhere are 404, as on a cluster). */
export const TEST_NAMESPACES: string[] = ['other', 'elsewhere'];

export function start(options: LeaseApiServerOptions = {}): Promise<LeaseApiServer> {
  return startLeaseApiServer({ openapi: openApi131(), namespaces: TEST_NAMESPACES, ...options });
}

export interface ApiResponse<T = JsonBody> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface ManagedEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}

export interface Meta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Record<string, unknown>[];
  finalizers?: string[];
  managedFields?: ManagedEntry[];
  continue?: string;
  remainingItemCount?: number;
}

export interface Cause {
  reason?: string;
  message?: string;
  field?: string;
}

/** Every response shape the tests read (Lease, LeaseList, Status, Table, discovery), all optional. */
export interface JsonBody {
  kind?: string;
  apiVersion?: string;
  metadata?: Meta;
  spec?: Record<string, unknown>;
  items?: JsonBody[];
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; group?: string; kind?: string; causes?: Cause[]; retryAfterSeconds?: number };
  columnDefinitions?: { name: string }[];
  rows?: { cells: unknown[]; object?: JsonBody }[];
  [key: string]: unknown;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function api(
  server: LeaseApiServer,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] = options.contentType ?? 'application/json';
  }
  const res = await fetch(server.url + path, { method, headers, body });
  const text = await res.text();
  let parsed: JsonBody = {};
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = {};
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export function lease(
  name: string,
  spec: Record<string, unknown> = { holderIdentity: 'h1', leaseDurationSeconds: 15 },
  metadata: Record<string, unknown> = {},
): JsonBody {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, ...metadata }, spec };
}

export async function create(
  server: LeaseApiServer,
  name: string,
  spec?: Record<string, unknown>,
  metadata?: Record<string, unknown>,
  namespace = 'default',
): Promise<JsonBody> {
  const res = await api(server, 'POST', `${BASE}/namespaces/${namespace}/leases`, {
    body: lease(name, spec, metadata),
  });
  if (res.status !== 201) throw new Error(`create ${name} failed: ${res.status} ${res.text}`);
  return res.body;
}

export interface WatchEvent {
  type: string;
  object: JsonBody;
}

export interface WatchReader {
  status: number;
  headers: Headers;
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** Resolves when the server ends the stream: 'end' for a clean end, 'error' for a broken connection. */
  ended: Promise<'end' | 'error'>;
  close(): void;
}

export async function watch(
  server: LeaseApiServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<WatchReader> {
  const controller = new AbortController();
  const res = await fetch(server.url + path, { headers, signal: controller.signal });
  const queue: WatchEvent[] = [];
  const waiters: ((e: WatchEvent) => void)[] = [];
  let buffer = '';
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  const ended = (async (): Promise<'end' | 'error'> => {
    if (reader === undefined) return 'end';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'end';
        buffer += decoder.decode(value, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim() !== '') {
            const event: WatchEvent = JSON.parse(line);
            const waiter = waiters.shift();
            if (waiter !== undefined) waiter(event);
            else queue.push(event);
          }
          newline = buffer.indexOf('\n');
        }
      }
    } catch {
      return 'error';
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    ended,
    next(timeoutMs = 3000): Promise<WatchEvent> {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no watch event within ${timeoutMs}ms`)), timeoutMs);
        waiters.push((e) => {
          clearTimeout(timer);
          resolve(e);
        });
      });
    },
    close: () => controller.abort(),
  };
}

/** HTTPS request trusting the server's CA (fetch cannot take a CA without undici options). */
export function httpsJson(
  server: LeaseApiServer,
  path: string,
  options: { headers?: Record<string, string>; cert?: string; key?: string } = {},
): Promise<{ status: number; body: JsonBody }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      server.url + path,
      { ca: server.tls?.ca, headers: options.headers, cert: options.cert, key: options.key },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : {} }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
let intactSerial = 0;

/**
 * Everything a later client relies on still holds after an attack: Object.prototype untouched, the sentinel
 * Lease exactly as it was, and a create and a replace by any client still working.
 */
export async function expectServerIntact(server: LeaseApiServer, sentinel: JsonBody): Promise<void> {
  expect(({} as Record<string, unknown>)['leaseDurationSeconds']).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  const live = await api(server, 'GET', `${NS_BASE}/sentinel`);
  expect(live.status).toBe(200);
  expect(live.body).toEqual(sentinel);
  const name = `after-${intactSerial++}`;
  const created = await api(server, 'POST', NS_BASE, { body: lease(name) });
  expect(created.status).toBe(201);
  const replaced = await api(server, 'PUT', `${NS_BASE}/${name}`, {
    body: { ...created.body, spec: { holderIdentity: 'h2', leaseDurationSeconds: 20 } },
  });
  expect(replaced.status).toBe(200);
  expect(replaced.body.spec).toEqual({ holderIdentity: 'h2', leaseDurationSeconds: 20 });
}
