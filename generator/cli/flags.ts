import { usageError } from './runCli.js';

type FlagSpec = Record<string, 'string' | 'boolean'>;
type Flags<S extends FlagSpec> = { [K in keyof S]?: S[K] extends 'string' ? string : boolean };

/** `--name value`, `--name=value` and boolean `--name`; anything else is a usage error. */
export function parseFlags<S extends FlagSpec>(argv: readonly string[], spec: S): Flags<S> {
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (match === null) throw usageError(`unexpected argument ${JSON.stringify(arg)}`);
    const name = match[1]!;
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw usageError(`unknown option --${name} (known: ${Object.keys(spec).map((k) => '--' + k).join(', ')})`);
    if (kind === 'boolean') {
      flags[name] = true;
      continue;
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined || value === '' || (match[2] === undefined && value.startsWith('--'))) throw usageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return flags as Flags<S>;
}
