// Shared helpers for the k8s-lease-client-node tests: temporary kubeconfig files and a Lease API server over HTTPS.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { stringify } from 'yaml';
import type { Lease } from 'k8s-lease-client';

export { start } from '../k8s-lease-api-server/helpers.js';

const dirs: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lease-node-'));
  dirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export interface NamedCluster {
  name: string;
  cluster: Record<string, unknown>;
}
export interface NamedUser {
  name: string;
  user: Record<string, unknown>;
}
export interface NamedContext {
  name: string;
  context: Record<string, unknown>;
}

export interface KubeconfigDoc {
  'current-context'?: string;
  clusters?: NamedCluster[];
  users?: NamedUser[];
  contexts?: NamedContext[];
}

/** Writes a kubeconfig (YAML, strings double-quoted as kubectl reads YAML 1.1) and returns its path. */
export async function writeKubeconfig(dir: string, name: string, doc: KubeconfigDoc): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    stringify(
      { apiVersion: 'v1', kind: 'Config', ...doc },
      { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 },
    ),
  );
  return path;
}

/** Replaces a file the way kubelet rotates projected tokens: write aside, then rename over it. */
export async function replaceFile(path: string, content: string): Promise<void> {
  const aside = `${path}.tmp-${process.hrtime.bigint()}`;
  await writeFile(aside, content);
  await rename(aside, path);
}

export function lease(name: string, namespace = 'default'): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
    spec: { holderIdentity: 'node-test' },
  };
}

/**
 * Registers the hooks of a suite that opens client configs (closed after each test) and servers (closed, with the
 * temporary directories, after all): `track.config(c)` and `track.later(() => s.close())`.
 */
export function trackResources(): {
  config<T extends { close(): Promise<void> }>(config: T): T;
  later(close: () => Promise<void>): void;
} {
  const closers: Array<() => Promise<void>> = [];
  const configs: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(configs.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await removeTempDirs();
  });
  return {
    config: (config) => {
      configs.push(config);
      return config;
    },
    later: (close) => {
      closers.push(close);
    },
  };
}

/** A kubeconfig whose one user, oidc-user, authenticates with the given auth-provider stanza. */
export async function kubeconfigWith(
  server: { url: string; tls?: { ca: string } | undefined },
  provider: Record<string, unknown>,
): Promise<string> {
  return writeKubeconfig(await tempDir(), 'config', {
    'current-context': 'ctx',
    clusters: [
      { name: 'c', cluster: { server: server.url, 'certificate-authority-data': b64(server.tls?.ca ?? 'none') } },
    ],
    users: [{ name: 'oidc-user', user: { 'auth-provider': provider } }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'oidc-user' } }],
  });
}

/** A TCP server that accepts connections and never says a word (not even a TLS handshake): a hung peer. */
export interface SilentServer {
  port: number;
  /** How many connections are open now. */
  open(): number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.resume(); // read (and drop) what arrives, so the peer's close is seen
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Polls (real time, bounded) until `done` holds. */
export async function eventually(what: string, done: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
