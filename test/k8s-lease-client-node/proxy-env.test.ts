// Which requests go through HTTPS_PROXY/HTTP_PROXY: Go's httpproxy rules with client-go's CIDR support in NO_PROXY.
import { describe, expect, it } from 'vitest';
import { proxyFromEnvironment } from '../../templates/k8s-lease-client-node/src/index.js';

const P = 'http://proxy.corp:3128';
const cases: Array<{ target: string; env: NodeJS.ProcessEnv; proxy: string | undefined }> = [
  { target: 'https://api.example.com', env: {}, proxy: undefined },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: P }, proxy: P },
  { target: 'https://api.example.com', env: { https_proxy: P }, proxy: P },
  { target: 'https://api.example.com', env: { HTTP_PROXY: P }, proxy: undefined },
  { target: 'http://api.example.com', env: { HTTP_PROXY: P }, proxy: P },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: 'proxy.corp:3128' }, proxy: P },
  // Loopback is never proxied from the environment.
  { target: 'https://127.0.0.1:6443', env: { HTTPS_PROXY: P }, proxy: undefined },
  { target: 'https://localhost:6443', env: { HTTPS_PROXY: P }, proxy: undefined },
  { target: 'https://[::1]:6443', env: { HTTPS_PROXY: P }, proxy: undefined },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: P, NO_PROXY: '*' }, proxy: undefined },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: P, NO_PROXY: 'example.com' }, proxy: undefined },
  { target: 'https://example.com', env: { HTTPS_PROXY: P, NO_PROXY: 'example.com' }, proxy: undefined },
  { target: 'https://example.com', env: { HTTPS_PROXY: P, NO_PROXY: '.example.com' }, proxy: P },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: P, NO_PROXY: '*.example.com' }, proxy: undefined },
  { target: 'https://notexample.com', env: { HTTPS_PROXY: P, NO_PROXY: 'example.com' }, proxy: P },
  { target: 'https://api.example.com:6443', env: { HTTPS_PROXY: P, NO_PROXY: 'api.example.com:443' }, proxy: P },
  { target: 'https://api.example.com', env: { HTTPS_PROXY: P, no_proxy: 'api.example.com:443' }, proxy: undefined },
  { target: 'https://10.1.2.3:6443', env: { HTTPS_PROXY: P, NO_PROXY: '10.0.0.0/8' }, proxy: undefined },
  { target: 'https://11.1.2.3:6443', env: { HTTPS_PROXY: P, NO_PROXY: '10.0.0.0/8' }, proxy: P },
  { target: 'https://[fd00::5]:6443', env: { HTTPS_PROXY: P, NO_PROXY: 'fd00::/8' }, proxy: undefined },
  { target: 'https://10.1.2.3:6443', env: { HTTPS_PROXY: P, NO_PROXY: '10.1.2.3' }, proxy: undefined },
];

describe('proxyFromEnvironment', () => {
  it.each(cases)('$target with $env → $proxy', ({ target, env, proxy }) => {
    expect(proxyFromEnvironment(target, env)).toBe(proxy);
  });
});
