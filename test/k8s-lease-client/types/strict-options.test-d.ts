import type {
  ConnectionResetFault,
  HttpErrorFault,
  KubeconfigOptions,
  LeaseApiFaults,
  LeaseApiServerOptions,
  ServerErrorFault,
  ThrottleFault,
  TlsOptions,
  WatchErrorStatus,
  WatchFault,
} from 'k8s-lease-api-server';
import type {
  ApiTransportOptions,
  ExecClusterInfo,
  ExecCredentialSourceOptions,
  InClusterOptions,
  KubeconfigClientOptions,
  KubeconfigExec,
  LoadKubeconfigOptions,
  NodeFetchOptions,
  NodeTlsOptions,
  RefreshOptions,
  WarningOptions,
} from 'k8s-lease-client-node';
import type {
  HeartbeatOptions,
  InformerHandlers,
  Lease,
  LeaderElectorOptions,
  RetryOptions,
  UserAgentInfo,
} from 'k8s-lease-client';
import { describe, expectTypeOf, it } from 'vitest';

/**
 * Under exactOptionalPropertyTypes an optional member `p?: T` refuses `undefined`, so a user's
 * `{ kubeconfig: process.env.KUBECONFIG }` fails to compile (TS2379). Every optional member of an options type users
 * construct must therefore be written `p?: T | undefined`. These checks run under tsconfig.strictest.json
 * (exactOptionalPropertyTypes on) and fail when someone adds an optional member without `| undefined`.
 */

/** Keys of T that are optional. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * Paths (`a.b`) of optional members of T, and of the plain objects it nests, whose type refuses `undefined`;
 * `never` when all take it. Functions and arrays are leaves; depth is bounded for recursive types.
 */
type RefusingUndefined<T, Depth extends unknown[] = []> = Depth['length'] extends 4
  ? never
  : T extends (...args: never[]) => unknown
    ? never
    : T extends readonly unknown[]
      ? RefusingUndefined<T[number], [...Depth, 0]>
      : T extends object
        ? {
            // Assignability itself, as the compiler judges a user's `{ p: undefined }` (T[K] reads `| undefined` anyway).
            [K in keyof T]-?:
              | (K extends OptionalKeys<T> ? ({ [P in K]: undefined } extends Pick<T, K> ? never : K & string) : never)
              | `${K & string}.${RefusingUndefined<NonNullable<T[K]>, [...Depth, 0]>}`;
          }[keyof T]
        : never;

/**
 * Whether this compilation has exactOptionalPropertyTypes on: it does under tsconfig.strictest.json (vitest's type
 * tests); the project's own tsconfig.json also type-checks this file with it off, where nothing can refuse undefined.
 */
type ExactOptional = { a: undefined } extends { a?: string } ? false : true;
type UnderExact<K> = ExactOptional extends true ? K : never;

describe('every optional option of the three packages takes undefined', () => {
  it('the check itself finds a member without `| undefined`, nested ones included', () => {
    expectTypeOf<RefusingUndefined<{ a?: string; b?: number | undefined; c: string }>>().toEqualTypeOf<
      UnderExact<'a'>
    >();
    expectTypeOf<RefusingUndefined<{ tls?: { ca?: string } | undefined }>>().toEqualTypeOf<UnderExact<'tls.ca'>>();
    expectTypeOf<RefusingUndefined<{ faults?: Array<{ n?: number }> | undefined }>>().toEqualTypeOf<
      UnderExact<'faults.n'>
    >();
    expectTypeOf<
      RefusingUndefined<{ a?: string | undefined; f?: ((x?: number) => void) | undefined }>
    >().toEqualTypeOf<never>();
  });

  it('k8s-lease-client-node', () => {
    expectTypeOf<RefusingUndefined<LoadKubeconfigOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<WarningOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ApiTransportOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<KubeconfigClientOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<InClusterOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<KubeconfigClientOptions & InClusterOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<NodeFetchOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<NodeTlsOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ExecCredentialSourceOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ExecClusterInfo>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<KubeconfigExec>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<RefreshOptions>>().toEqualTypeOf<never>();
  });

  it('k8s-lease-api-server', () => {
    expectTypeOf<RefusingUndefined<LeaseApiServerOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<TlsOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<KubeconfigOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<LeaseApiFaults>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ThrottleFault>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ServerErrorFault>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<HttpErrorFault>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<ConnectionResetFault>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<WatchFault>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<WatchErrorStatus>>().toEqualTypeOf<never>();
  });

  it('k8s-lease-client: the options of leader election, heartbeats, informers and the middleware', () => {
    expectTypeOf<RefusingUndefined<LeaderElectorOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<HeartbeatOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<InformerHandlers<Lease>>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<RetryOptions>>().toEqualTypeOf<never>();
    expectTypeOf<RefusingUndefined<UserAgentInfo>>().toEqualTypeOf<never>();
  });

  it('the entry points accept possibly-undefined values', () => {
    const env: string | undefined = process.env['KUBECONFIG'];
    expectTypeOf({ kubeconfig: env, context: env }).toExtend<KubeconfigClientOptions & InClusterOptions>();
    expectTypeOf({ port: 0, token: env, release: env }).toExtend<LeaseApiServerOptions>();
  });
});
