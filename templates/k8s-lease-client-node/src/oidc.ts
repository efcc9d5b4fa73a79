// The `oidc` auth-provider. Hand-written: it encodes client-go's plugin/pkg/client/auth/oidc/oidc.go (idToken,
// tokenEndpoint, idTokenExpired) and golang.org/x/oauth2's refresh-token grant as that plugin uses it.
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Dispatcher } from 'undici';
import type { AuthProviderContext } from './auth-provider-context.js';
import { AuthProviderError, AuthProviderTimeoutError, errorCode } from './errors.js';
import { abortableConnector } from './issuer-connector.js';
import { persistAuthProviderConfig } from './kubeconfig-persist.js';
import { REDACTED } from './redact.js';
import { sharedFlight } from './shared-flight.js';
import type { TokenCall } from './shared-flight.js';

/** oidc.go's expiryDelta: an id-token expiring within 10 s is refreshed first. */
const EXPIRY_DELTA_MS = 10_000;
/** A discovery document or token response is a few KiB; a hostile issuer must not fill memory. */
const MAX_ISSUER_RESPONSE_BYTES = 1024 * 1024;

/**
 * The bearer token of an oidc user: the id-token while it has not expired (JWT `exp`, 10 s early), else a new one
 * from the issuer's token endpoint (discovered at idp-issuer-url/.well-known/openid-configuration) with the
 * refresh-token, client-id and client-secret. The new id-token (and refresh-token, when the issuer rotated it) is
 * written back into the user's kubeconfig file, as kubectl's persister does; a failed write fails the request with
 * client-go's "could not persist new tokens". Discovery and refresh are bounded by the call's `timeoutMs` (an
 * AuthProviderTimeoutError naming the issuer) and its signal (its reason), where client-go's plugin waits on the
 * issuer without a deadline; the write-back, once the issuer has answered, always completes.
 */
export function oidcTokenProvider(
  initial: ReadonlyMap<string, string>,
  context: AuthProviderContext,
): (call?: TokenCall) => Promise<string> {
  const fail = (message: string, cause?: unknown): AuthProviderError =>
    new AuthProviderError(`${context.at}: oidc: ${message}`, 'oidc', context.origin, cause ? { cause } : undefined);
  // newOIDCAuthProvider: both are required when the config is built.
  const issuer = initial.get('idp-issuer-url') ?? '';
  if (issuer === '') throw fail('Must provide idp-issuer-url');
  if ((initial.get('client-id') ?? '') === '') throw fail('Must provide client-id');
  let cfg = new Map(initial);
  const ca = issuerCa(cfg, fail);
  const now = context.now ?? Date.now;
  const issuerName = withoutSecrets(issuer);

  const refreshed = async (signal: AbortSignal): Promise<string> => {
    const refreshToken = cfg.get('refresh-token') ?? '';
    if (refreshToken === '') throw fail('No valid id-token, and cannot refresh without refresh-token');
    // A pool per refresh, closed after it: refreshes are rare and an idle pool must not outlive the client.
    const dispatcher = new Agent({ connect: abortableConnector(ca, signal) });
    const issuerCall: IssuerCall = { dispatcher, signal, fail };
    let tokens: Refreshed;
    try {
      const tokenUrl = await tokenEndpoint(issuer, issuerCall);
      tokens = await refresh(tokenUrl, cfg, refreshToken, issuerCall);
    } finally {
      // close() would wait for a request the issuer never answers; an aborted refresh drops its connections.
      await (signal.aborted ? dispatcher.destroy() : dispatcher.close());
    }
    const changes = new Map([['id-token', tokens.idToken]]);
    if (tokens.refreshToken !== undefined && tokens.refreshToken !== refreshToken)
      changes.set('refresh-token', tokens.refreshToken);
    const problem = await persistAuthProviderConfig(context.origin, context.userName, changes);
    if (problem !== undefined) throw fail(`could not persist new tokens: ${problem}`);
    cfg = new Map([...cfg, ...changes]);
    return tokens.idToken;
  };

  // oidc.go holds a mutex across the refresh: concurrent requests wait for the one refresh.
  const refreshOnce = sharedFlight(
    refreshed,
    (timeoutMs) =>
      new AuthProviderTimeoutError(
        `${context.at}: oidc: issuer ${issuerName} did not answer within ${timeoutMs} ms`,
        'oidc',
        issuerName,
        timeoutMs,
        context.origin,
      ),
  );
  return async (call) => {
    const current = cfg.get('id-token') ?? '';
    if (current !== '' && expiresAt(current, fail) > now() + EXPIRY_DELTA_MS) return current;
    return refreshOnce(call);
  };
}

type Fail = (message: string, cause?: unknown) => AuthProviderError;

/** What every request to the issuer shares: its connection pool, the refresh's signal, how errors are made. */
interface IssuerCall {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  fail: Fail;
}

/** The issuer as errors name it: scheme, host, port and path; user-info, query and fragment may hold credentials. */
function withoutSecrets(issuer: string): string {
  try {
    const url = new URL(issuer);
    return `${url.origin}${url.pathname}`;
  } catch {
    return REDACTED;
  }
}

/** idp-certificate-authority(-data): the CA the issuer is verified with (Node's roots when neither is set). */
function issuerCa(cfg: ReadonlyMap<string, string>, fail: Fail): string | undefined {
  const data = cfg.get('idp-certificate-authority-data') ?? '';
  const file = cfg.get('idp-certificate-authority') ?? '';
  let ca: string | undefined;
  if (data !== '') {
    if (!/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(data)) throw fail('idp-certificate-authority-data is not valid base64');
    ca = Buffer.from(data, 'base64').toString('utf8');
  } else if (file !== '') {
    try {
      ca = readFileSync(file, 'utf8');
    } catch (cause) {
      throw fail(`cannot read idp-certificate-authority ${file} (${errorCode(cause) ?? 'unknown error'})`, cause);
    }
  }
  return ca;
}

/** idTokenExpired: the JWT's `exp` (seconds, integer or float) in ms; a token that is not a JWT is an error. */
function expiresAt(token: string, fail: Fail): number {
  const parts = token.split('.');
  if (parts.length !== 3) throw fail('ID Token is not a valid JWT');
  let exp: unknown;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    exp = typeof claims === 'object' && claims !== null ? Reflect.get(claims, 'exp') : undefined;
  } catch {
    throw fail('parsing claims: the id-token payload is not JSON');
  }
  // Go's zero time when exp is absent: expired.
  return typeof exp === 'number' && Number.isFinite(exp) ? Math.trunc(exp) * 1000 : 0;
}

/** tokenEndpoint: the discovery document's token_endpoint. */
async function tokenEndpoint(issuer: string, call: IssuerCall): Promise<string> {
  const { fail } = call;
  const wellKnown = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const { status, text } = await send(wellKnown, { method: 'GET' }, call);
  if (status !== 200) throw fail(`failed to query metadata endpoint: status ${status}`);
  let tokenUrl: unknown;
  try {
    const doc: unknown = JSON.parse(text);
    tokenUrl = typeof doc === 'object' && doc !== null ? Reflect.get(doc, 'token_endpoint') : undefined;
  } catch {
    throw fail('failed to decode provider discovery object');
  }
  if (typeof tokenUrl !== 'string' || tokenUrl === '') throw fail("discovery object doesn't contain a token_endpoint");
  return tokenUrl;
}

interface Refreshed {
  idToken: string;
  refreshToken: string | undefined;
}

/**
 * oauth2's refresh-token grant with AuthStyleAutoDetect: client credentials in HTTP Basic auth first (each part
 * form-escaped), and in the form body when the endpoint refuses that. The response must carry an access_token
 * (oauth2) and an id_token (oidc.go).
 */
async function refresh(
  tokenUrl: string,
  cfg: ReadonlyMap<string, string>,
  refreshToken: string,
  call: IssuerCall,
): Promise<Refreshed> {
  const { fail } = call;
  const clientId = cfg.get('client-id') ?? '';
  const clientSecret = cfg.get('client-secret') ?? '';
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const basic = Buffer.from(`${formEscape(clientId)}:${formEscape(clientSecret)}`).toString('base64');
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  let answer = await send(
    tokenUrl,
    { method: 'POST', headers: { ...headers, authorization: `Basic ${basic}` }, body: form.toString() },
    call,
  );
  if (answer.status === 400 || answer.status === 401) {
    const inBody = new URLSearchParams(form);
    inBody.set('client_id', clientId);
    if (clientSecret !== '') inBody.set('client_secret', clientSecret);
    answer = await send(tokenUrl, { method: 'POST', headers, body: inBody.toString() }, call);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const field = (name: string): string | undefined => {
    const value = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  if (answer.status < 200 || answer.status > 299) {
    // The OAuth error code only: error_description is the issuer's text and may quote what was sent.
    const code = field('error');
    throw fail(
      `failed to refresh token: oauth2: cannot fetch token: status ${answer.status}${code ? ` (${code.replace(/[^\w.-]/g, '_')})` : ''}`,
    );
  }
  if (field('access_token') === undefined)
    throw fail('failed to refresh token: oauth2: server response missing access_token');
  const idToken = field('id_token');
  if (idToken === undefined)
    throw fail(
      'token response did not contain an id_token, either the scope "openid" wasn\'t requested upon login, or the provider doesn\'t support id_tokens as part of the refresh response',
    );
  return { idToken, refreshToken: field('refresh_token') };
}

/** Go's url.QueryEscape, which oauth2 applies to the client id and secret before Basic auth. */
function formEscape(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

/** One request to the issuer, its body read up to MAX_ISSUER_RESPONSE_BYTES; errors name the URL's origin only. */
async function send(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
  { dispatcher, signal, fail }: IssuerCall,
): Promise<{ status: number; text: string }> {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw fail('the issuer or its token_endpoint is not a URL');
  }
  try {
    const response = await undiciFetch(url, { ...init, dispatcher, signal, redirect: 'error' });
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > MAX_ISSUER_RESPONSE_BYTES) {
        await reader?.cancel();
        throw fail(`${origin} answered with more than ${MAX_ISSUER_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk.value);
    }
    return { status: response.status, text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    if (error instanceof AuthProviderError) throw error;
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw fail(`cannot reach ${origin} (${errorCode(cause) ?? 'unknown error'})`, error);
  }
}
