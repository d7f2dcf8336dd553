import { readBool } from '@aerie/panel/db/dialect';
import type { NodesTable } from '@aerie/panel/db/schema-servers';
import type { Selectable } from 'kysely';

/** What the panel needs of a node, including the sealed token for daemon calls. */
export interface NodeRecord {
  id: number;
  uuid: string;
  name: string;
  fqdn: string;
  scheme: string;
  maintenanceMode: boolean;
  daemonListen: number;
  daemonSftp: number;
  daemonTokenId: string;
  /** Sealed; open with the app's SecretBox. */
  daemonToken: string;
}

export function toNodeRecord(row: Selectable<NodesTable>): NodeRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    fqdn: row.fqdn,
    scheme: row.scheme,
    maintenanceMode: readBool(row.maintenance_mode),
    daemonListen: row.daemon_listen,
    daemonSftp: row.daemon_sftp,
    daemonTokenId: row.daemon_token_id,
    daemonToken: row.daemon_token,
  };
}
