import { usageError } from './run-cli.js';

/** One option: its kind, the placeholder of its value in the usage text, and what it does. */
export type OptionSpec =
  | { readonly kind: 'string'; readonly value: string; readonly help: string }
  | { readonly kind: 'boolean'; readonly help: string };
export type FlagSpec = Readonly<Record<string, OptionSpec>>;
export type Flags<S extends FlagSpec> = { [K in keyof S]?: S[K] extends { kind: 'string' } ? string : boolean };

/** A command: its name as `npm run` spells it, the synopsis line, and every option. */
export interface CommandSpec<S extends FlagSpec> {
  readonly name: string;
  readonly synopsis: string;
  readonly summary: string;
  readonly options: S;
}

/** What the command line asked for: the flags, or the usage text (`--help`/`-h` anywhere). */
export type ParsedCommandLine<S extends FlagSpec> =
  | { readonly help: true; readonly usage: string }
  | { readonly help: false; readonly flags: Flags<S> };

/** `--help` wins over everything else on the line, as with most CLIs, so a user can always ask. */
export function parseCommandLine<S extends FlagSpec>(
  argv: readonly string[],
  command: CommandSpec<S>,
): ParsedCommandLine<S> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { help: true, usage: usageText(command) };
  return { help: false, flags: parseFlags(argv, command.options) };
}

export function usageText<S extends FlagSpec>(command: CommandSpec<S>): string {
  const rows = Object.entries(command.options).map(
    ([name, option]) => [option.kind === 'string' ? `--${name} ${option.value}` : `--${name}`, option.help] as const,
  );
  rows.push(['--help, -h', 'print this help and exit']);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `usage: npm run ${command.name} -- ${command.synopsis}`,
    '',
    command.summary,
    '',
    'options:',
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`),
    '',
  ].join('\n');
}

/** `--name value`, `--name=value` and boolean `--name`; anything else is a usage error. */
export function parseFlags<S extends FlagSpec>(argv: readonly string[], spec: S): Flags<S> {
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (match === null) throw usageError(`unexpected argument ${JSON.stringify(arg)} (see --help)`);
    const name = match[1]!;
    const option = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (option === undefined)
      throw usageError(
        `unknown option --${name} (known: ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(', ')}, --help)`,
      );
    if (option.kind === 'boolean') {
      flags[name] = true;
      continue;
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined || value === '' || (match[2] === undefined && value.startsWith('--')))
      throw usageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return flags as Flags<S>;
}
