/** What a server's environment is built from (the panel's server settings, in our words). */
export interface ServerEnvironmentSource {
  /** The startup command with `{{VAR}}` placeholders, passed on as STARTUP. */
  invocation: string;
  memoryMb: number;
  ip: string;
  port: number;
  /** The panel's `environment`: egg variables plus P_SERVER_UUID, P_SERVER_LOCATION, P_SERVER_ALLOCATION_LIMIT… */
  variables: Readonly<Record<string, string | number | boolean | null>>;
  /** The daemon's time zone; defaults to the machine's. */
  timezone?: string;
}

/**
 * The variables Wings hands every server, in its order where the first definition wins: TZ, STARTUP,
 * SERVER_MEMORY, SERVER_IP, SERVER_PORT, then each panel variable (upper-cased) that does not collide.
 */
export function wingsEnvironment(source: ServerEnvironmentSource): Record<string, string> {
  const environment: Record<string, string> = {
    TZ: source.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    STARTUP: source.invocation,
    SERVER_MEMORY: String(source.memoryMb),
    SERVER_IP: source.ip,
    SERVER_PORT: String(source.port),
  };
  for (const [key, value] of Object.entries(source.variables)) {
    const name = key.toUpperCase();
    if (name in environment) continue;
    environment[name] = value === null ? '' : String(value);
  }
  return environment;
}

const PLACEHOLDER = /\{\{\s*(?:env\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/y;

/**
 * Resolves `{{VAR}}` in a startup command for `/bin/sh -c`. A placeholder becomes a shell parameter that the shell
 * expands from the environment, so a variable's value is data and never shell syntax (a user-editable `MOTD` of
 * `x; rm -rf ~` stays a message), and it is always expanded inside double quotes: never split into words nor
 * globbed (a value of `*` stays `*`, not the file list). The quoting follows where the placeholder stands: bare
 * `"${VAR}"`, inside double quotes `${VAR}`, inside single quotes the quote is closed around it. Unknown names
 * expand to nothing. One pass over the text.
 */
export function substituteStartup(startup: string): string {
  let out = '';
  let quote: '' | "'" | '"' = '';
  let index = 0;
  while (index < startup.length) {
    PLACEHOLDER.lastIndex = index;
    const match = startup[index] === '{' ? PLACEHOLDER.exec(startup) : null;
    if (match) {
      const name = match[1] as string;
      out += quote === '"' ? `\${${name}}` : quote === "'" ? `'"\${${name}}"'` : `"\${${name}}"`;
      index += match[0].length;
      continue;
    }
    const char = startup[index] as string;
    if (char === '\\' && quote !== "'" && index + 1 < startup.length) {
      out += char + startup[index + 1];
      index += 2;
      continue;
    }
    if ((char === '"' || char === "'") && (quote === '' || quote === char)) quote = quote === '' ? char : '';
    out += char;
    index += 1;
  }
  return out;
}
