import type { DaemonProcessConfiguration } from '@aerie/shared/daemon/remote-wire';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';

/** The egg's stored configuration texts, already resolved through `config_from`. */
export interface EggConfigTexts {
  startup: string | null;
  stop: string | null;
  files: string | null;
}

type Config = DaemonProcessConfiguration['configs'][number];

const parseObject = (text: string | null): Record<string, unknown> => {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

/**
 * `process_configuration` for the daemon (Pterodactyl's EggConfigurationService): `done` always a list,
 * `user_interaction` empty, the stop command parsed (`^C` → SIGINT), and each `config.files` entry with a
 * `find` map turned into `{file, parser, replace:[{match, (if_value,) replace_with}]}` with the server's values
 * filled in. A damaged entry is skipped rather than failing the daemon's whole boot.
 */
export function eggProcessConfiguration(
  egg: EggConfigTexts,
  placeholders: Record<string, string>,
): DaemonProcessConfiguration {
  const startup = parseObject(egg.startup);
  const done = startup.done;
  return {
    startup: {
      done: (Array.isArray(done) ? done : [done]).filter((line): line is string => typeof line === 'string'),
      user_interaction: [],
      strip_ansi: startup.strip_ansi === true,
    },
    stop: parseStopCommand(egg.stop ?? '^C'),
    configs: configFiles(parseObject(egg.files), placeholders),
  };
}

function configFiles(files: Record<string, unknown>, placeholders: Record<string, string>): Config[] {
  const configs: Config[] = [];
  for (const [file, data] of Object.entries(files)) {
    if (typeof data !== 'object' || data === null) continue;
    const { find, parser } = data as { find?: unknown; parser?: unknown };
    if (typeof find !== 'object' || find === null) continue;
    const replace: Config['replace'] = [];
    for (const [match, value] of Object.entries(find)) {
      if (typeof value === 'object' && value !== null) {
        for (const [ifValue, replaceWith] of Object.entries(value)) {
          replace.push({ match, if_value: ifValue, replace_with: fill(replaceWith, placeholders) });
        }
      } else {
        replace.push({ match, replace_with: fill(value, placeholders) });
      }
    }
    configs.push({ file, parser: typeof parser === 'string' ? parser : 'file', replace });
  }
  return configs;
}

/** Replaces the `{{server.…}}` / `{{env.…}}` placeholders the panel knows; `{{config.…}}` is the daemon's. */
function fill(value: unknown, placeholders: Record<string, string>): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, key: string) => placeholders[key] ?? whole);
}

/** The placeholder values of one server, under the names Pterodactyl's eggs use. */
export function configPlaceholders(server: {
  uuid: string;
  name: string;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  ip: string;
  port: number;
  environment: Record<string, string>;
}): Record<string, string> {
  const values: Record<string, string> = {
    'server.uuid': server.uuid,
    'server.name': server.name,
    'server.build.default.ip': server.ip,
    'server.build.default.port': String(server.port),
    'server.build.memory': String(server.memory),
    'server.build.swap': String(server.swap),
    'server.build.disk': String(server.disk),
    'server.build.io': String(server.io),
    'server.build.cpu': String(server.cpu),
  };
  for (const [name, value] of Object.entries(server.environment)) {
    values[`server.build.env.${name}`] = value;
    values[`env.${name}`] = value;
  }
  return values;
}
