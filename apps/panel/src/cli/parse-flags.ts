import { CliError } from './cli-error';

/**
 * `--name value`, `--name=value` and boolean `--flag`. Unknown flags are refused so a typo is not silently
 * ignored.
 */
export function parseFlags(
  argv: string[],
  spec: { values: string[]; booleans: string[] },
): { values: Record<string, string>; booleans: Set<string> } {
  const values: Record<string, string> = {};
  const booleans = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const match = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new CliError(`Unexpected argument "${arg}".`);
    const [, name = '', inline] = match;
    if (spec.booleans.includes(name) && inline === undefined) {
      booleans.add(name);
    } else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new CliError(`--${name} needs a value.`);
      values[name] = value;
    } else {
      throw new CliError(`Unknown option --${name}.`);
    }
  }
  return { values, booleans };
}
