// The package's typed errors: each a named class with the fields a program tests, one below another so a catch of
// KubeconfigError also takes the in-cluster and auth-provider cases, and ClusterConnectionError a TypeError as fetch's
// own network errors are.
import { describe, expect, it } from 'vitest';
import {
  AuthProviderError,
  AuthProviderTimeoutError,
  ClusterConnectionError,
  errorCode,
  InClusterConfigError,
  KubeconfigError,
} from '../../templates/k8s-lease-client-node/src/errors.js';

describe('KubeconfigError', () => {
  it('names the file at fault, when there is one, and keeps a cause', () => {
    const cause = new Error('EACCES');
    const error = new KubeconfigError('/home/me/.kube/config: cannot read', '/home/me/.kube/config', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'KubeconfigError', file: '/home/me/.kube/config', cause });
    expect(String(error)).toBe('KubeconfigError: /home/me/.kube/config: cannot read');
    expect(new KubeconfigError('no kubeconfig').file).toBeUndefined();
  });
});

describe('InClusterConfigError', () => {
  it('is a KubeconfigError naming the variable, not its value', () => {
    const error = new InClusterConfigError('KUBERNETES_SERVICE_PORT is not a port', 'KUBERNETES_SERVICE_PORT');
    expect(error).toBeInstanceOf(KubeconfigError);
    expect(error).toMatchObject({ name: 'InClusterConfigError', variable: 'KUBERNETES_SERVICE_PORT', file: undefined });
  });
});

describe('AuthProviderError', () => {
  it('is a KubeconfigError naming the provider and the file', () => {
    const error = new AuthProviderError('the gcp auth-provider was removed', 'gcp', '/kubeconfig');
    expect(error).toBeInstanceOf(KubeconfigError);
    expect(error).toMatchObject({ name: 'AuthProviderError', provider: 'gcp', file: '/kubeconfig' });
  });
});

describe('AuthProviderTimeoutError', () => {
  it('is an AuthProviderError naming the issuer and the timeout', () => {
    const error = new AuthProviderTimeoutError(
      'issuer did not answer',
      'oidc',
      'https://idp/realm',
      500,
      '/kubeconfig',
    );
    expect(error).toBeInstanceOf(AuthProviderError);
    expect(error).toMatchObject({
      name: 'AuthProviderTimeoutError',
      provider: 'oidc',
      issuer: 'https://idp/realm',
      timeoutMs: 500,
      file: '/kubeconfig',
    });
  });
});

describe('ClusterConnectionError', () => {
  it('is a TypeError with the Node error code, not a KubeconfigError', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const error = new ClusterConnectionError('GET https://127.0.0.1:1/: connection refused', 'ECONNREFUSED', {
      cause,
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(KubeconfigError);
    expect(error).toMatchObject({ name: 'ClusterConnectionError', code: 'ECONNREFUSED', cause });
    expect(new ClusterConnectionError('x', undefined).code).toBeUndefined();
  });
});

describe('errorCode', () => {
  it('reads a string code off whatever was thrown', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errorCode({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it.each([
    ['a numeric code', { code: 42 }],
    ['no code', new Error('x')],
    ['a string', 'ENOENT'],
    ['null', null],
    ['undefined', undefined],
  ])('undefined for %s', (_name, value) => {
    expect(errorCode(value)).toBeUndefined();
  });
});
