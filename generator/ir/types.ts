/**
 * The intermediate representation: everything emitters need, derived from a
 * normalised OpenAPI document and nothing else. Emitters read only this.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The kinds of operations the Kubernetes reference pages list. The `…ForAllNamespaces` ones list a namespaced
 * resource across namespaces; a cluster-scoped resource's list is a plain `list`.
 */
export type OperationKind =
  | 'getAPIResources'
  | 'read'
  | 'list'
  | 'listForAllNamespaces'
  | 'create'
  | 'replace'
  | 'patch'
  | 'delete'
  | 'deleteCollection'
  | 'watch'
  | 'watchList'
  | 'watchListForAllNamespaces';

/**
 * The one description of a type: kind, `format`, `enum` and nullability as the spec gives them. The
 * golden tables and the API diff print it with describeType (ir/type-description.ts); the emitters map it
 * to TypeScript (emit/type-text.ts), which forgets what TypeScript cannot say (an int32 and an int64 are
 * both `number`) — so nothing but the emitters may compare types by their TypeScript text.
 */
export type TypeRef = TypeShape & {
  /** OpenAPI 3.0 `nullable: true`: the value may be JSON `null`. */
  readonly nullable?: boolean;
};

export type TypeShape =
  | { readonly kind: 'model'; readonly name: string }
  | { readonly kind: 'string'; readonly format?: string; readonly enum?: readonly string[] }
  | { readonly kind: 'integer'; readonly format?: string }
  | { readonly kind: 'number'; readonly format?: string }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'array'; readonly items: TypeRef }
  | { readonly kind: 'map'; readonly values: TypeRef }
  | { readonly kind: 'object' }
  | { readonly kind: 'unknown' };

/** The first release in the manifest that has the element (set by annotateSince). */
export interface SinceIr {
  readonly since?: string;
}

export interface ParameterIr extends SinceIr {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly type: TypeRef;
  readonly required: boolean;
  readonly description: string;
}

export interface RequestBodyIr {
  readonly type: TypeRef;
  readonly required: boolean;
  readonly contentTypes: readonly string[];
}

export interface ResponseIr {
  /** HTTP status code as the spec lists it, e.g. "200". */
  readonly code: string;
  readonly description: string;
  readonly type: TypeRef | undefined;
  readonly contentTypes: readonly string[];
}

export interface OperationIr extends SinceIr {
  readonly operationId: string;
  /** The client function name: the operationId without the group-version infix. */
  readonly name: string;
  readonly kind: OperationKind;
  /** `x-kubernetes-action` (get, list, watch, watchlist, post, put, patch, delete, deletecollection). */
  readonly action: string | undefined;
  readonly method: HttpMethod;
  readonly path: string;
  /** Name of the path builder for `path` (see GroupVersionIr.paths). */
  readonly pathBuilder: string;
  /** The plural of the resource it acts on (see GroupVersionIr.resources); undefined for the discovery operation. */
  readonly resource: string | undefined;
  readonly description: string;
  readonly deprecated: boolean;
  readonly pathParameters: readonly ParameterIr[];
  readonly queryParameters: readonly ParameterIr[];
  readonly requestBody: RequestBodyIr | undefined;
  readonly responses: readonly ResponseIr[];
}

export interface PropertyIr extends SinceIr {
  readonly name: string;
  readonly type: TypeRef;
  readonly required: boolean;
  readonly description: string;
}

export type ModelShape =
  | {
      readonly kind: 'object';
      readonly properties: readonly PropertyIr[];
      readonly additionalProperties: TypeRef | undefined;
    }
  | { readonly kind: 'alias'; readonly type: TypeRef }
  /** A timestamp carried as an exact string: Kubernetes `Time` (seconds) or `MicroTime` (6 fractional digits). */
  | { readonly kind: 'timestamp'; readonly precision: 'seconds' | 'microseconds' };

export interface ModelIr extends SinceIr {
  /** TypeScript name, e.g. `ObjectMeta`. */
  readonly name: string;
  /** Name of the schema in the document, e.g. `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
  readonly schemaName: string;
  readonly description: string;
  readonly shape: ModelShape;
}

/** A resource a group version serves, as its paths and `x-kubernetes-group-version-kind` say. */
export interface ResourceIr {
  /** The resource's name in URLs, e.g. `leases`, `priorityclasses`. */
  readonly plural: string;
  /** Its kind, e.g. `PriorityClass`; undefined when the spec names none. */
  readonly kind: string | undefined;
  /** Whether its objects live in a namespace (its paths are under `namespaces/{namespace}/`); else cluster-scoped. */
  readonly namespaced: boolean;
}

/** One URL path template and the name of the function that builds it. */
export interface PathTemplateIr {
  readonly template: string;
  readonly builderName: string;
  /** Path parameters in the order they appear in the template. */
  readonly parameters: readonly string[];
  readonly deprecated: boolean;
}

/**
 * One group version as a release serves it: its operations, path templates, and the models its operations
 * reach (shared meta types such as ObjectMeta appear in every group version that uses them).
 */
export interface GroupVersionIr {
  readonly release: string;
  readonly group: string;
  readonly version: string;
  /** The generation target's root version: its modules are the release's own, the others get a namespace each. */
  readonly root: boolean;
  readonly resources: readonly ResourceIr[];
  readonly paths: readonly PathTemplateIr[];
  readonly operations: readonly OperationIr[];
  readonly models: readonly ModelIr[];
}

/** A release: one entry per group version it serves that the target covers, the root version first, then by Kubernetes version priority. */
export interface ReleaseIr {
  readonly release: string;
  readonly groupVersions: readonly GroupVersionIr[];
}
