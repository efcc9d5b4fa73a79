import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallOptions,
  Client,
  ClientOptions,
  HttpMethod,
  KubernetesStatus,
  MicroTime,
  QueryValue,
  RequestSpec,
  Time,
} from '../../../templates/k8s-lease-client/src/runtime/index.js';
import {
  asMicroTime,
  combineSignals,
  createClient,
  encodeQuery,
  errorFromResponse,
  formatMicroTime,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isKubernetesApiError,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTooManyRequests,
  isUnauthorized,
  type KubernetesApiError,
  nameSegment,
  parseMicroTime,
  stream,
} from '../../../templates/k8s-lease-client/src/runtime/index.js';

describe('runtime types', () => {
  it('accepts a generated-style Status model as KubernetesStatus', () => {
    interface IoK8sApimachineryPkgApisMetaV1Status {
      apiVersion?: string;
      code?: number;
      details?: {
        causes?: Array<{ field?: string; message?: string; reason?: string }>;
        group?: string;
        kind?: string;
        name?: string;
        retryAfterSeconds?: number;
        uid?: string;
      };
      kind?: string;
      message?: string;
      metadata?: { continue?: string; remainingItemCount?: number; resourceVersion?: string; selfLink?: string };
      reason?: string;
      status?: string;
    }
    expectTypeOf<IoK8sApimachineryPkgApisMetaV1Status>().toExtend<KubernetesStatus>();
  });

  it('brands times so plain strings are not accepted where a MicroTime is required', () => {
    expectTypeOf<string>().not.toExtend<MicroTime>();
    expectTypeOf<MicroTime>().toExtend<string>();
    expectTypeOf<Time>().not.toExtend<MicroTime>();
    expectTypeOf(asMicroTime('x')).toEqualTypeOf<MicroTime>();
    expectTypeOf(formatMicroTime).parameters.toEqualTypeOf<[date: Date, microseconds?: number]>();
    expectTypeOf(parseMicroTime('x')).toEqualTypeOf<{ date: Date; microseconds: number }>();
  });

  it('keeps the generator-facing signatures', () => {
    expectTypeOf(createClient).toEqualTypeOf<(options: ClientOptions) => Client>();
    expectTypeOf<Client['request']>().toEqualTypeOf<<T>(spec: RequestSpec, options?: CallOptions) => Promise<T>>();
    expectTypeOf(stream).toEqualTypeOf<
      (client: Client, spec: RequestSpec, options?: CallOptions) => Promise<Response>
    >();
    expectTypeOf<keyof Client>().toEqualTypeOf<'baseUrl' | 'request'>();
    expectTypeOf<RequestSpec['method']>().toEqualTypeOf<HttpMethod>();
    expectTypeOf<HttpMethod>().toEqualTypeOf<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>();
    expectTypeOf(encodeQuery).toEqualTypeOf<(params: Readonly<Record<string, QueryValue>> | undefined) => string>();
    expectTypeOf(nameSegment).toEqualTypeOf<(value: string) => string>();
    expectTypeOf(errorFromResponse).returns.toEqualTypeOf<Promise<KubernetesApiError>>();
    expectTypeOf(combineSignals).returns.toExtend<{ signal: AbortSignal | undefined; dispose(): void }>();
  });

  it('narrows unknown errors', () => {
    const error: unknown = undefined;
    if (isKubernetesApiError(error)) {
      expectTypeOf(error).toEqualTypeOf<KubernetesApiError>();
      expectTypeOf(error.statusObject).toEqualTypeOf<KubernetesStatus | undefined>();
      expectTypeOf(error.retryAfterSeconds).toEqualTypeOf<number | undefined>();
    }
  });

  it('every status predicate is a type guard that narrows to KubernetesApiError', () => {
    const error: unknown = undefined;
    for (const predicate of [
      isAlreadyExists,
      isBadRequest,
      isConflict,
      isForbidden,
      isGone,
      isInternalError,
      isInvalid,
      isNotFound,
      isServerTimeout,
      isServiceUnavailable,
      isTooManyRequests,
      isUnauthorized,
    ]) {
      expectTypeOf(predicate).guards.toEqualTypeOf<KubernetesApiError>();
      if (predicate(error)) expectTypeOf(error.status).toEqualTypeOf<number>();
    }
    if (isConflict(error)) expectTypeOf(error.statusObject).toEqualTypeOf<KubernetesStatus | undefined>();
  });

  it('rejects RequestInit fields the transport owns', () => {
    // @ts-expect-error method is set per request
    const options: ClientOptions = { baseUrl: 'http://x', init: { method: 'POST' } };
    expectTypeOf(options).toEqualTypeOf<ClientOptions>();
  });
});
