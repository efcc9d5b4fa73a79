// The shape of a conformance case: a client-observable behaviour of kube-apiserver, the upstream source
// that fixes the expected answer, and the requests that show it. Case tables live in ./cases/*.ts and are
// run by conformance.test.ts against the packed server, started as users start it (`lease-api-server serve`).

/**
 * One HTTP exchange. `{ns}` in `path`, in header values and in a string or JSON body becomes the case's own namespace.
 * `{prev.<header>}` in `path`, in header values and in expected header strings becomes that header of the previous
 * step's response (`{prev.<header>|unquoted}` without its surrounding double quotes), e.g. an ETag sent back as
 * If-None-Match. `{prev.metadata.resourceVersion}` in `path`, header values and string or JSON bodies becomes the
 * resourceVersion of the previous step's JSON answer (an update must carry the one it read).
 */
export interface ConformanceStep {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  headers?: Readonly<Record<string, string>>;
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: string | Uint8Array | object;
  /**
   * For a watch: read this many newline-delimited events (fewer if the server ends the stream first or
   * none comes for 10 s), then close the connection. The response's `json` is then the array of events
   * and `text` the lines read.
   */
  readEvents?: number;
  /**
   * Values of this step's JSON answer to keep for later steps: name → dotted path (e.g.
   * `{ token: 'metadata.continue' }`). A later step's `path` takes `{saved.<name>}` percent-encoded, and
   * its JSON body and expected `json` take it as it is (a string equal to the placeholder becomes the value).
   */
  save?: Readonly<Record<string, string>>;
  expect?: ConformanceExpectation;
}

export interface ConformanceResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface ConformanceExpectation {
  status?: number;
  /** Header values, exact (string) or matched (RegExp); `null` means the header is absent. */
  headers?: Readonly<Record<string, string | RegExp | null>>;
  /** A subset the JSON body must contain (objects by key, arrays element by element), as vitest's toMatchObject. */
  json?: unknown;
  /** A pattern the body text must match. */
  text?: RegExp;
  /** Anything else, with vitest's expect. */
  check?: (response: ConformanceResponse) => void | Promise<void>;
}

export interface ConformanceCase {
  /** What a client observes, in one line. */
  name: string;
  /**
   * The upstream file and function, or the upstream test, that fixes the expected answer, e.g.
   * `k8s.io/apiserver/pkg/endpoints/handlers/update.go UpdateResource`.
   */
  source: string;
  /** `lease-api-server serve` flags for this case (cases with equal flags share one server); default none beyond the harness's. */
  serverArgs?: readonly string[];
  /** Requests in order; earlier steps may only set state up. */
  steps: readonly ConformanceStep[];
}

/** A module in ./cases exports its table as `cases`. */
export interface ConformanceCaseModule {
  cases: readonly ConformanceCase[];
}
