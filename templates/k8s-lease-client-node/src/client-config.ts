// Client options for k8s-lease-client from a kubeconfig (kubectl's rules) or from inside a Pod (client-go's InClusterConfig).
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { ApiWarning, ClientOptions, RetryOptions, TokenProvider } from 'k8s-lease-client';
import { defaultUserAgent, release, withApiMiddleware } from 'k8s-lease-client';
import { authProviderToken } from './auth-provider.js';
import { errorCode, InClusterConfigError, KubeconfigError } from './errors.js';
import { execCredentialSource, refreshOnUnauthorized } from './exec/index.js';
import { execTransport } from './exec-transport.js';
import { nodeFetch } from './fetch.js';
import type { NodeTlsOptions } from './fetch.js';
import { impersonationHeaders } from './impersonation.js';
import { loadKubeconfig } from './kubeconfig.js';
import type { Kubeconfig, KubeconfigCluster, KubeconfigUser, LoadKubeconfigOptions } from './kubeconfig.js';
import { proxyFromEnvironment } from './proxy-env.js';
import { redactable, redactUrl } from './redact.js';
import { isIP } from 'node:net';
import { fileTokenProvider } from './token-file.js';

/**
 * What the loaders (`kubeconfigClientOptions`, `inClusterClientOptions`, `loadClientConfig`) return: options for
 * k8s-lease-client's `createClient`, the namespace to work in, and `close()` for the connection pool.
 */
export interface NodeClientConfig {
  /** Hand to createClient: baseUrl, the TLS/proxy fetch, the token provider, basic-auth headers. */
  readonly clientOptions: ClientOptions;
  /** The context's namespace, else "default". */
  readonly namespace: string;
  /** Closes the connection pool behind clientOptions.fetch. */
  close(): Promise<void>;
}

/** Options every loader shares: the environment it reads, and where configuration warnings go. */
export interface WarningOptions {
  /** Environment for exec plugins and the variables read here. Default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Called with warnings such as an insecure-skip-tls-verify cluster. Default: console.warn, once per process and message. */
  onWarning?: ((message: string) => void) | undefined;
}

/** How requests travel once the cluster is known: the client runtime's middleware, on by default here. */
export interface ApiTransportOptions {
  /**
   * Retries (k8s-lease-client's withRetries; false turns them off): reads on 429, 503, 504 (and any other 5xx carrying
   * Retry-After) and on connection resets; writes carrying a resourceVersion precondition on 429 and 503 only. A
   * conditional write is deliberately not retried after a 504 or a reset: it may have been committed, and the retry
   * would then report a Conflict for a change that was applied. Creates and unconditional writes are never retried.
   */
  retries?: RetryOptions | false | undefined;
  /** Each Warning header the API server sends (e.g. a field it dropped). Default: console.warn once per distinct text. */
  onApiWarning?: ((warning: ApiWarning) => void) | undefined;
  /** Default in client-go's shape: `k8s-lease-client/<version> (<os>/<arch>) kubernetes/<release>`; also the default field manager. */
  userAgent?: string | undefined;
  /** Largest response body read into memory (watches are bounded per line instead). Default 64 MiB. */
  maxResponseBytes?: number | undefined;
}

/** Options of `kubeconfigClientOptions`: which kubeconfig and context, plus the transport's retries, warnings and limits. */
export interface KubeconfigClientOptions extends LoadKubeconfigOptions, WarningOptions, ApiTransportOptions {
  /** Context to use instead of current-context (kubectl's --context). */
  context?: string | undefined;
  /**
   * How long an exec credential plugin may run before it (and every process it started) is killed and the request
   * fails. Default 30 000 ms.
   */
  execTimeoutMs?: number | undefined;
}

/**
 * Reads the kubeconfig as kubectl does (KUBECONFIG, else ~/.kube/config; merge rules, relative paths) and turns
 * its current context (or `options.context`) into client options: the server, TLS (CA, client certificate, server
 * name), a proxy, a token, a token file, basic auth, an exec credential plugin or an auth-provider, and
 * impersonation, over one keep-alive connection pool with retries and API warnings.
 *
 * @example
 * ```ts
 * import { createClient, readNamespacedLease } from 'k8s-lease-client';
 * import { kubeconfigClientOptions } from 'k8s-lease-client-node';
 *
 * const config = await kubeconfigClientOptions({ context: 'kind-kind' });
 * const client = createClient(config.clientOptions);
 * try {
 *   const lease = await readNamespacedLease(client, { namespace: config.namespace, name: 'my-controller' });
 * } finally {
 *   await config.close();
 * }
 * ```
 *
 * @param options - Which kubeconfig files and context; retries, warnings, user agent and size limits.
 * @returns The client options, the context's namespace ("default" when it names none), and `close()`.
 * @throws KubeconfigError when no kubeconfig exists, it cannot be parsed, or the context, cluster or user is
 *   missing or unusable (an unreadable certificate file, conflicting credentials).
 * @throws AuthProviderError for an auth-provider that is unsupported, removed or misconfigured.
 */
export async function kubeconfigClientOptions(options: KubeconfigClientOptions = {}): Promise<NodeClientConfig> {
  const config = await loadKubeconfig(options);
  return clientConfigFromKubeconfig(config, options);
}

/** The chosen context of an already loaded kubeconfig, checked as clientcmd's ConfirmUsable checks it. */
export async function clientConfigFromKubeconfig(
  config: Kubeconfig,
  options: KubeconfigClientOptions = {},
): Promise<NodeClientConfig> {
  if (config.files.length === 0) throw new KubeconfigError(`no kubeconfig found: ${lookedAt(config)}`);
  const where = config.files.join(', ');
  const name = options.context ?? config.currentContext;
  if (name === undefined)
    throw new KubeconfigError(`no current-context is set in ${where || 'any kubeconfig'}`, config.files[0]);
  const context = config.contexts.get(name);
  if (!context) throw new KubeconfigError(`context ${JSON.stringify(name)} not found in ${where}`, config.files[0]);
  const at = `${context.origin}: context ${JSON.stringify(name)}`;
  if (context.cluster === undefined) throw new KubeconfigError(`${at}: cluster was not specified`, context.origin);
  const cluster = config.clusters.get(context.cluster);
  if (!cluster)
    throw new KubeconfigError(
      `${at}: cluster ${JSON.stringify(context.cluster)} not found in ${where}`,
      context.origin,
    );
  // validation.go requires a user too; kubectl treats a missing one as an error rather than anonymous.
  if (context.user === undefined) throw new KubeconfigError(`${at}: user was not specified`, context.origin);
  const user = config.users.get(context.user);
  if (!user)
    throw new KubeconfigError(`${at}: user ${JSON.stringify(context.user)} not found in ${where}`, context.origin);
  return build(context.cluster, cluster, context.user, user, context.namespace ?? 'default', options);
}

/** The files a kubeconfig was looked for in, and why those: for the error when none exists. */
function lookedAt(config: Kubeconfig): string {
  const files = config.searched.join(', ');
  if (config.searchedFrom === 'KUBECONFIG') return `none of the KUBECONFIG entries exists (${files})`;
  if (config.searchedFrom === 'option') return `none of the given kubeconfig files exists (${files})`;
  return `KUBECONFIG is not set and ${files} (~/.kube/config) does not exist`;
}

async function build(
  clusterName: string,
  cluster: KubeconfigCluster,
  userName: string,
  user: KubeconfigUser,
  namespace: string,
  options: WarningOptions & ApiTransportOptions & { execTimeoutMs?: number | undefined },
): Promise<NodeClientConfig> {
  const clusterAt = `${cluster.origin}: cluster ${JSON.stringify(clusterName)}`;
  const userAt = `${user.origin}: user ${JSON.stringify(userName)}`;
  const server = checkServer(cluster, clusterAt);
  const tls = { ...(await clusterTls(cluster, clusterAt)), ...(await clientCertificate(user, userAt)) };
  checkAuthMethods(user, userAt);
  const impersonate = impersonationHeaders(user, userName, userAt);
  if (cluster.proxyUrl !== undefined) checkProxy(cluster.proxyUrl, clusterAt, cluster.origin);
  if (cluster.insecureSkipTlsVerify)
    warn(options, `${clusterAt}: insecure-skip-tls-verify is set; the server's certificate is not verified`);
  const fetchOptions = {
    tls,
    proxyUrl: cluster.proxyUrl ?? environmentProxy(server, options),
    description: `cluster ${JSON.stringify(clusterName)} in ${cluster.origin}`,
    ...(impersonate ? { impersonate } : {}),
  };
  // client-go's DirectClientConfig.ClientConfig: "only try to read the auth information if we are secure". Over
  // http:// no token, password, exec plugin, auth-provider or client certificate is used (impersonation still is).
  if (!server.startsWith('https:')) {
    if (hasCredentials(user))
      warn(
        options,
        `${clusterAt}: server ${redactUrl(server)} is not https://; the credentials of user ${JSON.stringify(userName)} are not sent`,
      );
    const transport = nodeFetch({ ...fetchOptions, tls: {} });
    return nodeClientConfig({ baseUrl: server, fetch: transport.fetch }, namespace, transport.close, options);
  }
  // As rest.TransportFor: the provider is built (and a removed or unknown one refused) even when a token wins.
  const provider = user.authProvider
    ? authProviderToken(user.authProvider, { userName, at: userAt, origin: user.origin })
    : undefined;
  if (user.exec) {
    const source = execCredentialSource(
      user.exec,
      // PEM, decoded from the kubeconfig's base64 (or read from certificate-authority).
      {
        server,
        certificateAuthorityData: tls.ca,
        tlsServerName: cluster.tlsServerName,
        insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
        proxyUrl: cluster.proxyUrl,
      },
      {
        kubeconfigPath: user.origin,
        env: options.env,
        errorContext: userAt,
        ...(options.execTimeoutMs !== undefined ? { timeoutMs: options.execTimeoutMs } : {}),
      },
    );
    // As client-go's exec.UpdateTransportConfig: a token, basic auth or a client certificate of the same user wins,
    // and the plugin (validated above, as GetAuthenticator does) never runs.
    if (!hasOtherAuth(user, tls)) {
      const transport = execTransport(fetchOptions, source);
      const token = async (): Promise<string> => (await source.token()) ?? '';
      return nodeClientConfig(
        { baseUrl: server, fetch: refreshOnUnauthorized(transport.fetch, source), token },
        namespace,
        transport.close,
        options,
      );
    }
  }
  // client-go: a token wins over tokenFile; the oidc round tripper adds its id-token only to a request without an
  // Authorization header, so a token or basic auth of the same user wins over the auth-provider.
  const token: TokenProvider | undefined =
    user.token ??
    (user.tokenFile !== undefined
      ? await readableTokenFile(user.tokenFile, userAt, user.origin)
      : user.username === undefined && user.password === undefined
        ? provider
        : undefined);
  const transport = nodeFetch(fetchOptions);
  const headers: Record<string, string> = redactable({});
  if (user.username !== undefined || user.password !== undefined) {
    headers['authorization'] =
      `Basic ${Buffer.from(`${user.username ?? ''}:${user.password ?? ''}`).toString('base64')}`;
  }
  return nodeClientConfig(
    { baseUrl: server, fetch: transport.fetch, token, headers },
    namespace,
    transport.close,
    options,
  );
}

/** Anything that identifies the user, which client-go keeps off a connection without TLS. */
function hasCredentials(user: KubeconfigUser): boolean {
  return (
    user.token !== undefined ||
    user.tokenFile !== undefined ||
    user.username !== undefined ||
    user.password !== undefined ||
    user.exec !== undefined ||
    user.authProvider !== undefined ||
    user.clientCertificate !== undefined ||
    user.clientCertificateData !== undefined
  );
}

/** client-go's transport.Config HasTokenAuth, HasBasicAuth (a username) and HasCertAuth (certificate and key). */
function hasOtherAuth(user: KubeconfigUser, tls: NodeTlsOptions): boolean {
  return (
    user.token !== undefined ||
    user.tokenFile !== undefined ||
    user.username !== undefined ||
    (tls.cert !== undefined && tls.key !== undefined)
  );
}

/**
 * The tokenFile's provider, read once now: as client-go's NewBearerAuthWithRefreshRoundTripper (and an unreadable
 * client-certificate here), a file that cannot be read fails when the config is built, naming the key and the file.
 */
async function readableTokenFile(path: string, at: string, origin: string): Promise<TokenProvider> {
  const provider = fileTokenProvider(path);
  try {
    await provider();
  } catch (cause) {
    const reason = cause instanceof KubeconfigError ? cause.message : `${path}: cannot read token file`;
    throw new KubeconfigError(`${at}: tokenFile: ${reason}`, origin, { cause });
  }
  return provider;
}

/** This package's version (the client's: they are generated and released together); undefined when run from templates/. */
const VERSION: string | undefined = packageVersion();

function packageVersion(): string | undefined {
  try {
    return (createRequire(import.meta.url)('../package.json') as { version?: string | undefined }).version;
  } catch {
    return undefined;
  }
}

function nodeClientConfig(
  parts: ClientOptions,
  namespace: string,
  close: () => Promise<void>,
  options: ApiTransportOptions,
): NodeClientConfig {
  // Only what is set, so the redacted view shows no empty members.
  const clientOptions: ClientOptions = redactable({ baseUrl: parts.baseUrl });
  if (parts.fetch) {
    // One pass: retries outermost, so every attempt's warnings are reported and an exec refresh on 401 happens per
    // attempt; the size bound per attempt.
    clientOptions.fetch = withApiMiddleware(parts.fetch, {
      retries: options.retries,
      onWarning: options.onApiWarning,
      maxResponseBytes: options.maxResponseBytes,
    });
  }
  if (parts.token !== undefined) clientOptions.token = parts.token;
  const headers: Record<string, string> = redactable({
    ...parts.headers,
    'user-agent': options.userAgent ?? defaultUserAgent({ version: VERSION, release }),
  });
  clientOptions.headers = headers;
  return redactable({ clientOptions, namespace, close });
}

function checkServer(cluster: KubeconfigCluster, at: string): string {
  if (cluster.server === undefined) throw new KubeconfigError(`${at}: no server found (key "server")`, cluster.origin);
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    // Not echoed: a string that is not a URL cannot be redacted piecewise and may hold a credential.
    throw new KubeconfigError(`${at}: server is not a URL`, cluster.origin);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new KubeconfigError(`${at}: server must be an http:// or https:// URL`, cluster.origin);
  if (url.username || url.password)
    throw new KubeconfigError(`${at}: server must not carry credentials`, cluster.origin);
  // client-go's ClientConfig drops the query and fragment of a server with a path, and its requests replace the
  // base URL's query with their own: a `?token=…` there is never sent, so it is not kept here either.
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

async function clusterTls(cluster: KubeconfigCluster, at: string): Promise<NodeTlsOptions> {
  const hasCa = cluster.certificateAuthority !== undefined || cluster.certificateAuthorityData !== undefined;
  if (cluster.certificateAuthority !== undefined && cluster.certificateAuthorityData !== undefined) {
    throw new KubeconfigError(
      `${at}: certificate-authority-data and certificate-authority are both specified`,
      cluster.origin,
    );
  }
  // client-go's transport refuses the combination rather than silently ignoring the CA.
  if (hasCa && cluster.insecureSkipTlsVerify)
    throw new KubeconfigError(
      `${at}: specifying a root certificates file with insecure-skip-tls-verify is not allowed`,
      cluster.origin,
    );
  const ca =
    cluster.certificateAuthorityData ??
    (cluster.certificateAuthority !== undefined
      ? await readPem(cluster.certificateAuthority, `${at}: certificate-authority`, cluster.origin)
      : undefined);
  return { ca, servername: cluster.tlsServerName, insecureSkipVerify: cluster.insecureSkipTlsVerify };
}

async function clientCertificate(user: KubeconfigUser, at: string): Promise<NodeTlsOptions> {
  const certSet = user.clientCertificate !== undefined || user.clientCertificateData !== undefined;
  const keySet = user.clientKey !== undefined || user.clientKeyData !== undefined;
  if (!certSet && !keySet) return {};
  if (user.clientCertificate !== undefined && user.clientCertificateData !== undefined)
    throw new KubeconfigError(`${at}: client-certificate-data and client-certificate are both specified`, user.origin);
  if (user.clientKey !== undefined && user.clientKeyData !== undefined)
    throw new KubeconfigError(`${at}: client-key-data and client-key are both specified`, user.origin);
  if (!keySet)
    throw new KubeconfigError(
      `${at}: client-key-data or client-key must be specified to use the client certificate`,
      user.origin,
    );
  if (!certSet)
    throw new KubeconfigError(
      `${at}: client-certificate-data or client-certificate must be specified to use the client key`,
      user.origin,
    );
  const cert =
    user.clientCertificateData ??
    (await readPem(user.clientCertificate ?? '', `${at}: client-certificate`, user.origin));
  const key = user.clientKeyData ?? (await readPem(user.clientKey ?? '', `${at}: client-key`, user.origin));
  return { cert, key };
}

/** validation.go: token (or tokenFile) and basic auth are exclusive. */
function checkAuthMethods(user: KubeconfigUser, at: string): void {
  const methods = [
    user.token !== undefined || user.tokenFile !== undefined ? 'token' : '',
    user.username !== undefined || user.password !== undefined ? 'basicAuth' : '',
  ].filter(Boolean);
  if (methods.length > 1)
    throw new KubeconfigError(
      `${at}: more than one authentication method found (${methods.join(', ')}); only one is allowed`,
      user.origin,
    );
  if (user.exec && user.authProvider)
    throw new KubeconfigError(`${at}: authProvider cannot be provided in combination with an exec plugin`, user.origin);
}

function checkProxy(proxyUrl: string, at: string, origin: string): void {
  let url: URL | undefined;
  try {
    url = new URL(proxyUrl);
  } catch {
    // Reported below.
  }
  // client-go also accepts socks5; undici's ProxyAgent speaks HTTP CONNECT only.
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new KubeconfigError(`${at}: proxy-url must be an http:// or https:// URL`, origin);
}

/** kubectl's proxy when the cluster names none; one undici cannot speak (socks5) is skipped with a warning. */
function environmentProxy(server: string, options: WarningOptions): string | undefined {
  const proxy = proxyFromEnvironment(server, options.env ?? process.env);
  if (proxy === undefined || /^https?:\/\//i.test(proxy)) return proxy;
  warn(
    options,
    `the proxy from HTTPS_PROXY/HTTP_PROXY for ${server} is not an http:// or https:// URL; connecting directly`,
  );
  return undefined;
}

async function readPem(path: string, what: string, origin: string | undefined): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new KubeconfigError(`${what}: cannot read ${path} (${errorCode(cause) ?? 'unknown error'})`, origin, {
      cause,
    });
  }
}

const warned = new Set<string>();
function warn(options: WarningOptions, message: string): void {
  if (options.onWarning) return options.onWarning(message);
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

/** Options of `inClusterClientOptions`: where the service-account mount is, plus the transport's options. */
export interface InClusterOptions extends WarningOptions, ApiTransportOptions {
  /** The service-account mount. Default /var/run/secrets/kubernetes.io/serviceaccount. */
  root?: string | undefined;
  /** Default process.env (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT, POD_NAMESPACE). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** Where Kubernetes mounts a Pod's service-account token, CA and namespace (client-go's default). */
export const SERVICE_ACCOUNT_ROOT = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * client-go's rest.InClusterConfig: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, the mounted
 * CA, and the mounted token re-read as kubelet rotates it. Namespace: POD_NAMESPACE, else the mounted
 * namespace file, else "default" (clientcmd's inClusterClientConfig.Namespace).
 */
export async function inClusterClientOptions(options: InClusterOptions = {}): Promise<NodeClientConfig> {
  const env = options.env ?? process.env;
  const root = options.root ?? SERVICE_ACCOUNT_ROOT;
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (!host || !port)
    throw new InClusterConfigError(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
      host ? 'KUBERNETES_SERVICE_PORT' : 'KUBERNETES_SERVICE_HOST',
    );
  checkServiceEnvironment(host, port);
  const tokenPath = join(root, 'token');
  const token = fileTokenProvider(tokenPath);
  await token(); // As InClusterConfig: fail now, naming the file, rather than on the first request.
  // As InClusterConfig: an unreadable ca.crt is reported and the system's roots are used instead.
  const ca = (await readOptional(join(root, 'ca.crt'))) || undefined;
  if (ca === undefined)
    warn(options, `${join(root, 'ca.crt')}: cannot read the in-cluster CA; using the system's trusted roots`);
  const namespace = env['POD_NAMESPACE'] || (await readOptional(join(root, 'namespace')))?.trim() || 'default';
  // net.JoinHostPort: an IPv6 address is bracketed.
  const baseUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const transport = nodeFetch({ tls: { ca }, proxyUrl: environmentProxy(baseUrl, options) });
  return nodeClientConfig({ baseUrl, fetch: transport.fetch, token }, namespace, transport.close, options);
}

/**
 * The service variables kubelet sets are an IP address (or a host name) and a port; anything else would be spliced
 * into the URL (`evil.example/#`, `1.2.3.4:1@other`) or fail deep inside URL parsing. Values are not echoed.
 */
function checkServiceEnvironment(host: string, port: string): void {
  const hostName =
    /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(host) === 0 && !hostName.test(host))
    throw new InClusterConfigError(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST is not an IP address or host name',
      'KUBERNETES_SERVICE_HOST',
    );
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    throw new InClusterConfigError(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_PORT is not a port number (1-65535)',
      'KUBERNETES_SERVICE_PORT',
    );
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * client-go's default loading (DeferredLoadingClientConfig): the kubeconfig, unless none is configured
 * and the process runs in a Pod (service host set and the token mounted), then in-cluster.
 */
export async function loadClientConfig(
  options: KubeconfigClientOptions & InClusterOptions = {},
): Promise<NodeClientConfig> {
  const config = await loadKubeconfig(options);
  const env = options.env ?? process.env;
  const empty =
    config.currentContext === undefined &&
    config.contexts.size === 0 &&
    config.clusters.size === 0 &&
    config.users.size === 0;
  if (
    empty &&
    options.context === undefined &&
    env['KUBERNETES_SERVICE_HOST'] &&
    env['KUBERNETES_SERVICE_PORT'] &&
    (await exists(join(options.root ?? SERVICE_ACCOUNT_ROOT, 'token')))
  ) {
    return inClusterClientOptions(options);
  }
  if (config.files.length === 0 && options.context === undefined)
    throw new KubeconfigError(
      `no kubeconfig found: ${lookedAt(config)}; and no in-cluster environment (${await inClusterAbsence(options, env)})`,
    );
  return clientConfigFromKubeconfig(config, options);
}

/** Why the in-cluster configuration was not used, for the error when there is no kubeconfig either. */
async function inClusterAbsence(options: InClusterOptions, env: NodeJS.ProcessEnv): Promise<string> {
  if (!env['KUBERNETES_SERVICE_HOST'] || !env['KUBERNETES_SERVICE_PORT'])
    return 'KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set';
  return `no service-account token at ${join(options.root ?? SERVICE_ACCOUNT_ROOT, 'token')}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
