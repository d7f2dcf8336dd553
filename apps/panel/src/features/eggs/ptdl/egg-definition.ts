import type { PelicanVersion } from './pelican-egg';

/**
 * An egg as the panel keeps it, whichever PTDL or Pelican (PLCN) version the file was in. Field names follow the export
 * format (snake_case) so the mapping to the database and back to an export stays one to one.
 */
export type EggExportVersion = 'PTDL_v1' | 'PTDL_v2' | PelicanVersion;

export interface EggDefinition {
  /** Format of the imported file; the panel always exports PTDL_v2. */
  version: EggExportVersion;
  update_url: string | null;
  exported_at: string | null;
  /** Present in exports of newer panels only. */
  uuid: string | null;
  name: string;
  author: string;
  description: string | null;
  /** Feature flags that drive client-side prompts, e.g. `eula`, `java_version`. */
  features: string[];
  /** Display label → image reference. A PTDL_v1 image list becomes `{ image: image }` entries. */
  docker_images: Record<string, string>;
  /** Glob patterns the daemon refuses to touch. */
  file_denylist: string[];
  /** Startup command with `{{VARIABLE}}` placeholders; of a Pelican `startup_commands` map, the first. */
  startup: string;
  config: EggConfig;
  scripts: { installation: EggInstallScript };
  variables: EggVariable[];
}

export interface EggConfig {
  /** Config-file rewrite rules by file name, parsed from the export's JSON text. */
  files: Record<string, EggConfigFile>;
  /** The start-up configuration as the export has it, e.g. `{ done: ")! For help, type " }`. */
  startup: Record<string, unknown>;
  /** The `done` matchers as a list: plain substrings, or `regex:`-prefixed patterns. */
  done: string[];
  /** Remove ANSI escapes from console lines before matching `done`. */
  strip_ansi: boolean;
  logs: Record<string, unknown>;
  /** Console command that stops the server, or `^SIGNAL` (`^C` for Ctrl-C). */
  stop: string;
  /** Legacy: the egg whose configuration this one inherits. */
  extends: string | null;
  /** The exact JSON text of files, startup and logs as exported, for storing and re-exporting unchanged. */
  source: { files: string; startup: string; logs: string };
}

export interface EggConfigFile {
  /** yaml, yml, properties, ini, json, xml or file. */
  parser: string;
  find: Record<string, unknown>;
}

export interface EggInstallScript {
  /** Shell script run in `container` with the server files mounted at /mnt/server (CRLF kept as exported). */
  script: string;
  container: string;
  entrypoint: string;
}

export interface EggVariable {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  /** Laravel validation rules, e.g. `required|string|max:20`. */
  rules: string;
  field_type: string;
}
