// @peculiar/x509 resolves its algorithms through tsyringe, which refuses to load unless a Reflect
// metadata API (the reflect-metadata package's) exists. That package is not a dependency yet, so this
// installs the smallest compatible subset, and only when nothing else has: tsyringe reads
// getMetadata/getOwnMetadata and writes defineMetadata, keyed by class (no property keys).
// Replace with `import 'reflect-metadata'` once the package depends on it.

type MetadataTable = Map<unknown, unknown>;

interface ReflectMetadataApi {
  defineMetadata(key: unknown, value: unknown, target: object): void;
  getOwnMetadata(key: unknown, target: object): unknown;
  getMetadata(key: unknown, target: object): unknown;
  hasOwnMetadata(key: unknown, target: object): boolean;
  hasMetadata(key: unknown, target: object): boolean;
}

function hasMetadataApi(value: object): value is ReflectMetadataApi {
  return 'getMetadata' in value && typeof value.getMetadata === 'function';
}

function metadataApi(): ReflectMetadataApi {
  const tables = new WeakMap<object, MetadataTable>();
  const own = (target: object): MetadataTable | undefined => tables.get(target);
  const lookup = (key: unknown, target: object): { found: boolean; value: unknown } => {
    for (let at: object | null = target; at !== null; at = Object.getPrototypeOf(at)) {
      const table = own(at);
      if (table?.has(key) === true) return { found: true, value: table.get(key) };
    }
    return { found: false, value: undefined };
  };
  return {
    defineMetadata(key, value, target) {
      const table = own(target) ?? new Map<unknown, unknown>();
      table.set(key, value);
      tables.set(target, table);
    },
    getOwnMetadata: (key, target) => own(target)?.get(key),
    getMetadata: (key, target) => lookup(key, target).value,
    hasOwnMetadata: (key, target) => own(target)?.has(key) === true,
    hasMetadata: (key, target) => lookup(key, target).found,
  };
}

/** Installs the metadata functions on Reflect unless a polyfill (e.g. reflect-metadata) already did. */
export function ensureReflectMetadata(): void {
  if (hasMetadataApi(Reflect)) return;
  for (const [name, fn] of Object.entries(metadataApi())) {
    Object.defineProperty(Reflect, name, { value: fn, configurable: true, writable: true, enumerable: false });
  }
}
