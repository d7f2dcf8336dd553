import { isIP } from 'node:net';
import { nodeReportedActivityEvents } from '@aerie/shared/activity/activity-events';
import {
  remoteActivityLimits as limits,
  type RemoteActivityRow,
} from '@aerie/shared/activity/remote-activity-wire';

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
const EVENTS = new Set<string>(nodeReportedActivityEvents);

const isPath = (value: unknown) =>
  typeof value === 'string' && value.length > 0 && value.length <= limits.pathLength;
const isMove = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  isPath((value as { from?: unknown }).from) &&
  isPath((value as { to?: unknown }).to);

/**
 * Whether the panel would take this row (the rules of its `POST /api/remote/activity`): a row it would refuse
 * refuses the whole batch, so such a row (a line from an older daemon, a path past PATH_MAX) never goes in one.
 */
export function isShippableRow(value: unknown): value is RemoteActivityRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Partial<Record<keyof RemoteActivityRow, unknown>>;
  if (typeof row.user !== 'string' || !UUID.test(row.user)) return false;
  if (typeof row.server !== 'string' || !UUID.test(row.server)) return false;
  if (typeof row.event !== 'string' || !EVENTS.has(row.event)) return false;
  if (typeof row.timestamp !== 'string' || Number.isNaN(Date.parse(row.timestamp))) return false;
  if (row.ip !== null && (typeof row.ip !== 'string' || isIP(row.ip) === 0)) return false;
  if (typeof row.metadata !== 'object' || row.metadata === null || Array.isArray(row.metadata)) return false;
  if (JSON.stringify(row.metadata).length > limits.metadataLength) return false;
  if (row.event === 'server:sftp.login') return true;
  const files = (row.metadata as { files?: unknown }).files;
  if (!Array.isArray(files) || files.length === 0 || files.length > limits.filesPerRow) return false;
  return files.every(row.event === 'server:sftp.rename' ? isMove : isPath);
}
