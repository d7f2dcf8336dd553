import { readFileSync } from 'node:fs';
import { DaemonConfigError } from './env';

/**
 * The daemon settings a node's configuration document may give (the environment variable names of env.ts).
 * Other keys of its `aerie.env` block are ignored, so a document from a newer panel still starts an older daemon.
 */
export const CONFIG_FILE_KEYS = [
  'DAEMON_HOST',
  'DAEMON_PORT',
  'DAEMON_SFTP_PORT',
  'DAEMON_TOKEN_ID',
  'DAEMON_TOKEN',
  'PANEL_URL',
  'DAEMON_ALLOWED_ORIGINS',
  'DAEMON_ALLOWED_MOUNTS',
  'DAEMON_DATA_DIR',
  'DAEMON_UPLOAD_LIMIT_MB',
  'DAEMON_TRANSFER_LIMIT_MB',
  'RUNTIME',
  'LOG_LEVEL',
] as const;

/**
 * DAEMON_CONFIG: the node's configuration document as the panel serves it
 * (`GET /api/application/nodes/{id}/configuration`), saved as JSON on the daemon's machine. Its `aerie.env`
 * block holds the daemon's settings by environment variable name (DAEMON_PORT, DAEMON_TOKEN_ID, DAEMON_TOKEN,
 * PANEL_URL…); the Wings keys around it are not read. Numbers are taken as their text.
 * @throws DaemonConfigError when the file cannot be read, is not JSON, or has no `aerie.env` object
 */
export function readDaemonConfigFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DaemonConfigError(
      `Invalid daemon configuration:\n  - DAEMON_CONFIG: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // The file holds the token: its text is not echoed.
    throw new DaemonConfigError(
      `Invalid daemon configuration:\n  - DAEMON_CONFIG: ${file} is not valid JSON`,
    );
  }
  const env = (document as { aerie?: { env?: unknown } } | null)?.aerie?.env;
  if (typeof env !== 'object' || env === null || Array.isArray(env)) {
    throw new DaemonConfigError(
      `Invalid daemon configuration:\n  - DAEMON_CONFIG: ${file} has no "aerie.env" block; save the node's configuration from the panel (GET /api/application/nodes/<id>/configuration)`,
    );
  }
  const values: Record<string, string> = {};
  for (const key of CONFIG_FILE_KEYS) {
    const value = (env as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') values[key] = String(value);
  }
  // Wings' own key, which the panel fills from the node's mounts: the daemon's setting when `aerie.env` has none.
  const wingsMounts = (document as { allowed_mounts?: unknown }).allowed_mounts;
  if (values.DAEMON_ALLOWED_MOUNTS === undefined && Array.isArray(wingsMounts)) {
    values.DAEMON_ALLOWED_MOUNTS = wingsMounts.filter((entry) => typeof entry === 'string').join(',');
  }
  return values;
}
