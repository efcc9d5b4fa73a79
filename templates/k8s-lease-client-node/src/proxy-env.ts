// HTTPS_PROXY / HTTP_PROXY / NO_PROXY as kubectl honours them when a cluster has no proxy-url: client-go's
// default transport uses Go's http.ProxyFromEnvironment (golang.org/x/net/http/httpproxy) with
// k8s.io/apimachinery's NewProxierWithNoProxyCIDR, which adds CIDR entries to NO_PROXY. Hand-written
// because it encodes those rules (undici's EnvHttpProxyAgent reads process.env and proxies loopback).
import { BlockList, isIP } from 'node:net';

/** The proxy URL for `target`, or undefined to connect directly. */
export function proxyFromEnvironment(target: string, env: NodeJS.ProcessEnv): string | undefined {
  const url = new URL(target);
  const raw =
    url.protocol === 'https:' ? (env['HTTPS_PROXY'] ?? env['https_proxy']) : (env['HTTP_PROXY'] ?? env['http_proxy']);
  if (!raw) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    isLoopback(host) ||
    noProxyMatches(
      host,
      url.port || (url.protocol === 'https:' ? '443' : '80'),
      env['NO_PROXY'] ?? env['no_proxy'] ?? '',
    )
  )
    return undefined;
  // httpproxy: a value without a scheme means http://.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 4) return host.startsWith('127.');
  return family === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

function noProxyMatches(host: string, port: string, noProxy: string): boolean {
  for (const rawEntry of noProxy.split(',')) {
    const entry = rawEntry.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (inCidr(host, entry)) return true;
      continue;
    }
    // An entry may name a port ("host:port", "[v6]:port"); it then matches that port only.
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    const entryPort = match?.[2];
    if (entryPort !== undefined && entryPort !== port) continue;
    let entryHost = (match?.[1] ?? entry).replace(/^\[|\]$/g, '');
    if (isIP(entryHost) !== 0) {
      if (entryHost === host) return true;
      continue;
    }
    // "example.com" matches it and its subdomains; ".example.com" and "*.example.com" only subdomains.
    if (entryHost.startsWith('*.')) entryHost = entryHost.slice(1);
    if (host.endsWith(entryHost.startsWith('.') ? entryHost : `.${entryHost}`) || host === entryHost) return true;
  }
  return false;
}

function inCidr(host: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const family = network === undefined ? 0 : isIP(network);
  const hostFamily = isIP(host);
  const prefix = Number(bits);
  if (network === undefined || family === 0 || family !== hostFamily || !Number.isInteger(prefix)) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
