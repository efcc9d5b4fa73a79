/**
 * A User-Agent in client-go's shape, so the API server's audit log and the
 * field manager it derives from the User-Agent's product token name this
 * client instead of `node` (what Node's fetch sends).
 *
 * Recipe: `createClient({ baseUrl, headers: { 'user-agent': defaultUserAgent({ release }) } })`,
 * with `release` from the release module the client is imported from.
 * Browsers refuse to set User-Agent (a forbidden header), so there it has no effect.
 */

export interface UserAgentInfo {
  /** Product token; also the default field manager. Default `k8s-lease-client`. */
  product?: string | undefined;
  /** This package's version. `unknown` when not given, as client-go's adjustVersion. */
  version?: string | undefined;
  /** The Kubernetes release the client was generated from (the release module's `release`). `unknown` when not given. */
  release?: string | undefined;
}

/** Node's names where Go's differ, so the platform reads as in client-go's User-Agent (runtime.GOOS/GOARCH). */
const GO_NAMES: Readonly<Record<string, string>> = { win32: 'windows', x64: 'amd64', ia32: '386', x32: '386' };

/**
 * `product/version (os/arch) kubernetes/release`, as client-go's
 * rest.DefaultKubernetesUserAgent (`command/version (GOOS/GOARCH)
 * kubernetes/commit`); where there is no `process` (browsers, workers), the
 * platform part is left out.
 */
export function defaultUserAgent(info: UserAgentInfo = {}): string {
  const { product = 'k8s-lease-client', version, release } = info;
  const platform = runtimePlatform();
  return `${token(product)}/${adjustVersion(version)}${platform ? ` (${platform})` : ''} kubernetes/${adjustVersion(release)}`;
}

function runtimePlatform(): string | undefined {
  const process: unknown = Reflect.get(globalThis, 'process');
  const os: unknown = typeof process === 'object' && process !== null ? Reflect.get(process, 'platform') : undefined;
  const arch: unknown = typeof process === 'object' && process !== null ? Reflect.get(process, 'arch') : undefined;
  if (typeof os !== 'string' || typeof arch !== 'string') return undefined;
  return `${GO_NAMES[os] ?? os}/${GO_NAMES[arch] ?? arch}`;
}

/** client-go's adjustVersion keeps what precedes the first `-` (`1.35.0-rc.1` → `1.35.0`); empty is `unknown`. */
function adjustVersion(version: string | undefined): string {
  return token(version?.split('-')[0] || 'unknown');
}

/** Only token characters (RFC 9110), so a value never breaks the header or smuggles a second one. */
function token(value: string): string {
  return value.replace(/[^!#$%&'*+.^`|~\w-]/g, '_') || 'unknown';
}
