// Kubeconfig loading with kubectl's semantics (k8s.io/client-go/tools/clientcmd loader.go and validation.go).
// Hand-written where it encodes clientcmd's rules (precedence, merge, path resolution); YAML parsing is the yaml library's.
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { errorCode, KubeconfigError } from './errors.js';
import type { KubeconfigExec } from './exec/index.js';
import { redactable } from './redact.js';

/** A `clusters[].cluster` entry of a kubeconfig, keys camel-cased: where the API server is and how to trust it. */
export interface KubeconfigCluster {
  /** The API server's URL, e.g. `https://127.0.0.1:6443`. */
  server?: string | undefined;
  /** Absolute path (resolved against the directory of the file that named it). */
  certificateAuthority?: string | undefined;
  /** PEM, decoded from base64. */
  certificateAuthorityData?: string | undefined;
  /** `insecure-skip-tls-verify`: the server's certificate is not verified. */
  insecureSkipTlsVerify?: boolean | undefined;
  /** `tls-server-name`: the name the server's certificate must carry, when it differs from the URL's host. */
  tlsServerName?: string | undefined;
  /** `proxy-url`: an http(s) proxy requests are tunnelled through. */
  proxyUrl?: string | undefined;
  /** The kubeconfig file this entry came from. */
  origin: string;
}

/** A `users[].user` entry of a kubeconfig, keys camel-cased: the credentials and impersonation of one user. */
export interface KubeconfigUser {
  /** A bearer token. */
  token?: string | undefined;
  /** A file holding a bearer token, re-read as it rotates (absolute path). */
  tokenFile?: string | undefined;
  /** A PEM client certificate file for mTLS (absolute path). */
  clientCertificate?: string | undefined;
  /** A PEM client certificate, decoded from base64. */
  clientCertificateData?: string | undefined;
  /** The client certificate's PEM key file (absolute path). */
  clientKey?: string | undefined;
  /** The client certificate's PEM key, decoded from base64. */
  clientKeyData?: string | undefined;
  /** Basic-auth user name. */
  username?: string | undefined;
  /** Basic-auth password. */
  password?: string | undefined;
  /** An exec credential plugin that prints the credential. */
  exec?: KubeconfigExec | undefined;
  /** `auth-provider` (client-go's AuthProviderConfig): a name and a string map (oidc keeps its tokens there). */
  authProvider?: KubeconfigAuthProvider | undefined;
  /** `as`: the user to impersonate (Impersonate-User). */
  impersonate?: string | undefined;
  /** `as-uid` (Impersonate-Uid). */
  impersonateUid?: string | undefined;
  /** `as-groups` (one Impersonate-Group line each). */
  impersonateGroups?: string[] | undefined;
  /** `as-user-extra` (Impersonate-Extra-<key> lines). */
  impersonateUserExtra?: Map<string, string[]> | undefined;
  /** The kubeconfig file this entry came from. */
  origin: string;
}

/** A user's `auth-provider` stanza: a named provider (only `oidc` is supported) and its settings. */
export interface KubeconfigAuthProvider {
  /** The provider, e.g. `oidc`. */
  name: string;
  /** Keys as written (`id-token`, `refresh-token`, `client-secret`…); a Map, so `__proto__` is just a key. */
  config: Map<string, string>;
}

/** A `contexts[].context` entry of a kubeconfig: which cluster, which user, which namespace. */
export interface KubeconfigContext {
  /** Name of the cluster entry. */
  cluster?: string | undefined;
  /** Name of the user entry. */
  user?: string | undefined;
  /** The namespace to work in; "default" when absent. */
  namespace?: string | undefined;
  /** The kubeconfig file this entry came from. */
  origin: string;
}

/** A merged kubeconfig: entries keyed by name (Maps, so a name like `__proto__` is just a name). */
export interface Kubeconfig {
  /** `current-context` of the first file that sets it. */
  currentContext: string | undefined;
  /** Cluster entries by name; the first file that names one wins. */
  clusters: ReadonlyMap<string, KubeconfigCluster>;
  /** User entries by name; the first file that names one wins. */
  users: ReadonlyMap<string, KubeconfigUser>;
  /** Context entries by name; the first file that names one wins. */
  contexts: ReadonlyMap<string, KubeconfigContext>;
  /** The files that were read, in precedence order (missing files of a KUBECONFIG list are left out). */
  files: readonly string[];
  /** Every file that was considered, for error messages. */
  searched: readonly string[];
  /** Where `searched` came from: the `kubeconfig` option, the KUBECONFIG variable, or the default ~/.kube/config. */
  searchedFrom: 'option' | 'KUBECONFIG' | 'default';
}

/** Options of `loadKubeconfig` (and of the loaders built on it): which files, and the environment to read. */
export interface LoadKubeconfigOptions {
  /**
   * A path: that file only, which must exist (kubectl's --kubeconfig). A list: merged like KUBECONFIG.
   * Default: the KUBECONFIG list, else ~/.kube/config.
   */
  kubeconfig?: string | readonly string[] | undefined;
  /** Default process.env (KUBECONFIG, HOME). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** Kubeconfigs are small; this bounds memory against a hostile or mistaken path (e.g. a device). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** YAML aliases expand; kubectl's go-yaml also caps alias expansion ("billion laughs"). */
const MAX_ALIASES = 100;

/**
 * Reads and merges kubeconfig files with clientcmd's rules (the `kubeconfig` option, else KUBECONFIG, else
 * ~/.kube/config; first file wins per entry; relative paths resolved against the file naming them), without
 * choosing a context. Missing files of a KUBECONFIG list are skipped; a missing explicit file is an error.
 *
 * @param options - The files to read (default: KUBECONFIG, else ~/.kube/config) and the environment.
 * @returns The merged kubeconfig; an empty one when no file exists (`files` is then empty).
 * @throws KubeconfigError for a file that cannot be read or parsed, or an explicit file that does not exist.
 */
export async function loadKubeconfig(options: LoadKubeconfigOptions = {}): Promise<Kubeconfig> {
  const env = options.env ?? process.env;
  const { paths, explicit, from } = precedence(options.kubeconfig, env);
  const files: string[] = [];
  const parsed: ParsedFile[] = [];
  for (const path of paths) {
    const text = await readKubeconfigFile(path, explicit);
    if (text === undefined) continue;
    files.push(path);
    parsed.push(parseKubeconfig(text, path));
  }
  return redactable({ ...merge(parsed), files, searched: paths, searchedFrom: from });
}

/** clientcmd's ClientConfigLoadingRules: explicit path, else KUBECONFIG (deduplicated, empties dropped), else ~/.kube/config. */
function precedence(
  option: string | readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
): { paths: string[]; explicit: boolean; from: Kubeconfig['searchedFrom'] } {
  if (typeof option === 'string') return { paths: [resolve(option)], explicit: true, from: 'option' };
  const list = option ?? (env['KUBECONFIG'] ? env['KUBECONFIG'].split(delimiter) : undefined);
  const unique = (paths: readonly string[]): string[] => [
    ...new Set(paths.filter((p) => p !== '').map((p) => resolve(p))),
  ];
  if (list) return { paths: unique(list), explicit: false, from: option ? 'option' : 'KUBECONFIG' };
  return { paths: [join(env['HOME'] || homedir(), '.kube', 'config')], explicit: false, from: 'default' };
}

/** The text, or undefined for a missing file that may be skipped (clientcmd skips missing files of the list). */
async function readKubeconfigFile(path: string, explicit: boolean): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    // A FIFO or a device (/dev/zero) would block or never end: only regular files of bounded size are read.
    const info = await stat(path);
    if (!info.isFile()) throw new KubeconfigError(`${path}: cannot read kubeconfig (not a regular file)`, path);
    if (info.size > MAX_FILE_BYTES)
      throw new KubeconfigError(`${path}: kubeconfig larger than ${MAX_FILE_BYTES} bytes`, path);
    bytes = await readFile(path);
  } catch (cause) {
    if (cause instanceof KubeconfigError) throw cause;
    const code = errorCode(cause);
    if (code === 'ENOENT' && !explicit) return undefined;
    throw new KubeconfigError(`${path}: cannot read kubeconfig (${code ?? 'unknown error'})`, path, { cause });
  }
  if (bytes.length > MAX_FILE_BYTES)
    throw new KubeconfigError(`${path}: kubeconfig larger than ${MAX_FILE_BYTES} bytes`, path);
  return bytes.toString('utf8');
}

interface ParsedFile {
  currentContext: string | undefined;
  clusters: Map<string, KubeconfigCluster>;
  users: Map<string, KubeconfigUser>;
  contexts: Map<string, KubeconfigContext>;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: a `__proto__` or `constructor` key in the file must not reach Object.prototype. */
function own(obj: Obj, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Parses one file (YAML 1.1, as kubectl's go-yaml) and resolves its relative paths against its directory. */
export function parseKubeconfig(text: string, path: string): ParsedFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: true, lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    // Our own message: the library's quotes the offending source line, which may hold a token.
    const at = lines.linePos(first.pos[0]);
    throw new KubeconfigError(`${path}: malformed YAML at line ${at.line}, column ${at.col} (${first.code})`, path);
  }
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch {
    throw new KubeconfigError(`${path}: malformed YAML (too many alias expansions)`, path);
  }
  if (root === null || root === undefined) return emptyFile();
  // Annotated, so that its `never`-returning fail narrows `root`.
  const reader: Reader = new Reader(path, dirname(path));
  if (!isObj(root)) reader.fail('', 'must be a mapping');
  const r = root;
  return {
    currentContext: reader.string(r, 'current-context', ''),
    clusters: reader.named(r, 'clusters', 'cluster', (o, at) => reader.cluster(o, at)),
    users: reader.named(r, 'users', 'user', (o, at) => reader.user(o, at)),
    contexts: reader.named(r, 'contexts', 'context', (o, at) => reader.context(o, at)),
  };
}

function emptyFile(): ParsedFile {
  return { currentContext: undefined, clusters: new Map(), users: new Map(), contexts: new Map() };
}

/** Typed field access that fails with the file and the key path, as clientcmd's decoding does (a bool where a string belongs is an error). */
class Reader {
  constructor(
    private readonly file: string,
    private readonly dir: string,
  ) {}

  fail(at: string, problem: string): never {
    throw new KubeconfigError(`${this.file}: ${at || 'document'}: ${problem}`, this.file);
  }

  string(obj: Obj, key: string, at: string): string | undefined {
    const value = own(obj, key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(join2(at, key), 'must be a string');
    return value === '' ? undefined : value;
  }

  bool(obj: Obj, key: string, at: string): boolean | undefined {
    const value = own(obj, key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') this.fail(join2(at, key), 'must be a boolean');
    return value;
  }

  /** A relative path resolved against the file's directory (clientcmd's ResolveLocalPaths). */
  path(obj: Obj, key: string, at: string): string | undefined {
    const value = this.string(obj, key, at);
    return value === undefined || isAbsolute(value) ? value : resolve(this.dir, value);
  }

  /** A `-data` field: base64 as Go's encoding/json decodes []byte (standard alphabet, padded; newlines ignored). */
  data(obj: Obj, key: string, at: string): string | undefined {
    const value = this.string(obj, key, at);
    if (value === undefined) return undefined;
    const compact = value.replace(/[\r\n]/g, '');
    if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact))
      this.fail(join2(at, key), 'is not valid base64');
    return Buffer.from(compact, 'base64').toString('utf8');
  }

  /** clientcmd's v1 lists of {name, <item>} become maps; a duplicate name is an error, as in its conversion. */
  named<T>(root: Obj, key: string, item: string, read: (obj: Obj, at: string) => T): Map<string, T> {
    const out = new Map<string, T>();
    const list = own(root, key);
    if (list === undefined || list === null) return out;
    if (!Array.isArray(list)) this.fail(key, 'must be a list');
    list.forEach((entry: unknown, index) => {
      const at = `${key}[${index}]`;
      if (!isObj(entry)) this.fail(at, 'must be a mapping');
      const name = this.string(entry, 'name', at);
      if (name === undefined) this.fail(`${at}.name`, 'must be set');
      if (out.has(name)) this.fail(`${at}.name`, `duplicate name ${JSON.stringify(name)}`);
      const body = own(entry, item) ?? {};
      if (!isObj(body)) this.fail(`${at}.${item}`, 'must be a mapping');
      out.set(name, read(body, `${at}.${item}`));
    });
    return out;
  }

  cluster(o: Obj, at: string): KubeconfigCluster {
    // Redactable: proxy-url may carry user:password.
    return redactable(
      compact({
        server: this.string(o, 'server', at),
        certificateAuthority: this.path(o, 'certificate-authority', at),
        certificateAuthorityData: this.data(o, 'certificate-authority-data', at),
        insecureSkipTlsVerify: this.bool(o, 'insecure-skip-tls-verify', at),
        tlsServerName: this.string(o, 'tls-server-name', at),
        proxyUrl: this.string(o, 'proxy-url', at),
        origin: this.file,
      }),
    );
  }

  user(o: Obj, at: string): KubeconfigUser {
    return redactable(
      compact({
        token: this.string(o, 'token', at),
        tokenFile: this.path(o, 'tokenFile', at),
        clientCertificate: this.path(o, 'client-certificate', at),
        clientCertificateData: this.data(o, 'client-certificate-data', at),
        clientKey: this.path(o, 'client-key', at),
        clientKeyData: this.data(o, 'client-key-data', at),
        username: this.string(o, 'username', at),
        password: this.string(o, 'password', at),
        exec: this.exec(o, at),
        authProvider: this.authProvider(o, at),
        impersonate: this.string(o, 'as', at),
        impersonateUid: this.string(o, 'as-uid', at),
        impersonateGroups: this.strings(o, 'as-groups', at),
        impersonateUserExtra: this.stringLists(o, 'as-user-extra', at),
        origin: this.file,
      }),
    );
  }

  context(o: Obj, at: string): KubeconfigContext {
    return compact({
      cluster: this.string(o, 'cluster', at),
      user: this.string(o, 'user', at),
      namespace: this.string(o, 'namespace', at),
      origin: this.file,
    });
  }

  exec(o: Obj, parent: string): KubeconfigExec | undefined {
    const value = own(o, 'exec');
    if (value === undefined || value === null) return undefined;
    const at = `${parent}.exec`;
    if (!isObj(value)) this.fail(at, 'must be a mapping');
    const command = this.string(value, 'command', at);
    const apiVersion = this.string(value, 'apiVersion', at);
    // validation.go: both are required for an exec plugin.
    if (command === undefined) this.fail(`${at}.command`, 'must be specified to use an exec plugin');
    if (apiVersion === undefined) this.fail(`${at}.apiVersion`, 'must be specified to use an exec plugin');
    const mode = this.string(value, 'interactiveMode', at);
    if (mode !== undefined && !isInteractiveMode(mode))
      this.fail(`${at}.interactiveMode`, 'must be Never, IfAvailable or Always');
    // Redactable: args and env often carry secrets (client-go's ExecConfig.String redacts both).
    return redactable(
      compact({
        // ResolveLocalPaths resolves the command only when it names a path, not a program looked up in PATH.
        command: command.includes(sep) && !isAbsolute(command) ? resolve(this.dir, command) : command,
        args: this.strings(value, 'args', at),
        env: this.env(value, at),
        apiVersion,
        installHint: this.string(value, 'installHint', at),
        interactiveMode: mode,
        provideClusterInfo: this.bool(value, 'provideClusterInfo', at),
      }),
    );
  }

  authProvider(o: Obj, parent: string): KubeconfigAuthProvider | undefined {
    const value = own(o, 'auth-provider');
    if (value === undefined || value === null) return undefined;
    const at = `${parent}.auth-provider`;
    if (!isObj(value)) this.fail(at, 'must be a mapping');
    const name = this.string(value, 'name', at);
    if (name === undefined) this.fail(`${at}.name`, 'must be set');
    const config = new Map<string, string>();
    const raw = own(value, 'config');
    if (raw !== undefined && raw !== null) {
      if (!isObj(raw)) this.fail(`${at}.config`, 'must be a mapping');
      for (const [key, item] of Object.entries(raw)) {
        if (typeof item !== 'string') this.fail(`${at}.config.${key}`, 'must be a string');
        config.set(key, item);
      }
    }
    // Redactable: config holds id-token, refresh-token and client-secret.
    return redactable({ name, config });
  }

  /** A map of string lists (`as-user-extra`), as a Map so that any key is just a key. */
  stringLists(o: Obj, key: string, at: string): Map<string, string[]> | undefined {
    const value = own(o, key);
    if (value === undefined || value === null) return undefined;
    if (!isObj(value)) this.fail(join2(at, key), 'must be a mapping');
    const out = new Map<string, string[]>();
    for (const name of Object.keys(value)) out.set(name, this.strings(value, name, join2(at, key)) ?? []);
    return out;
  }

  strings(o: Obj, key: string, at: string): string[] | undefined {
    const value = own(o, key);
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || !value.every((v: unknown) => typeof v === 'string'))
      this.fail(join2(at, key), 'must be a list of strings');
    return value;
  }

  env(o: Obj, at: string): Array<{ name: string; value: string }> | undefined {
    const value = own(o, 'env');
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) this.fail(`${at}.env`, 'must be a list');
    return value.map((entry: unknown, i) => {
      const here = `${at}.env[${i}]`;
      if (!isObj(entry)) this.fail(here, 'must be a mapping');
      const name = this.string(entry, 'name', here);
      if (name === undefined) this.fail(`${here}.name`, 'must be specified');
      return redactable({ name, value: this.string(entry, 'value', here) ?? '' });
    });
  }
}

function isInteractiveMode(mode: string): mode is NonNullable<KubeconfigExec['interactiveMode']> {
  return mode === 'Never' || mode === 'IfAvailable' || mode === 'Always';
}

function join2(at: string, key: string): string {
  return at ? `${at}.${key}` : key;
}

/** Drops undefined members, so a merged or printed entry shows only what the file set. */
function compact<T extends object>(value: T): T {
  for (const key in value) if (value[key] === undefined) delete value[key];
  return value;
}

/**
 * clientcmd's merge: the first file that sets current-context wins; in clusters/users/contexts the first
 * definition of a name wins, whole (entries are not merged field by field).
 */
function merge(files: readonly ParsedFile[]): Omit<Kubeconfig, 'files' | 'searched' | 'searchedFrom'> {
  const clusters = new Map<string, KubeconfigCluster>();
  const users = new Map<string, KubeconfigUser>();
  const contexts = new Map<string, KubeconfigContext>();
  let currentContext: string | undefined;
  for (const file of files) {
    currentContext ??= file.currentContext;
    for (const [name, v] of file.clusters) if (!clusters.has(name)) clusters.set(name, v);
    for (const [name, v] of file.users) if (!users.has(name)) users.set(name, v);
    for (const [name, v] of file.contexts) if (!contexts.has(name)) contexts.set(name, v);
  }
  return { currentContext, clusters, users, contexts };
}
