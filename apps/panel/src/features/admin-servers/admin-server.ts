import type { Db } from '@aerie/panel/db/database';
import { readBool, readDate } from '@aerie/panel/db/dialect';
import { listEggVariables } from '@aerie/panel/features/eggs/egg-lookups';
import { findLocationsOfNodes } from '@aerie/panel/features/locations/location-lookups';
import { serverVariableValues } from '@aerie/panel/features/servers/server-variables.repository';
import { findServerRow, type ServerRow } from '@aerie/panel/features/servers/servers.repository';
import { groupBy } from '@aerie/panel/http/application/transformer';

/**
 * A server as the Application API shows it: every column, plus the environment its container gets
 * (Pterodactyl's EnvironmentService: each egg variable's stored value, else its default, then STARTUP,
 * P_SERVER_LOCATION, P_SERVER_UUID and P_SERVER_ALLOCATION_LIMIT).
 */
export interface AdminServer {
  row: ServerRow;
  environment: Record<string, string | number | null>;
}

/** Reads servers for the Application API, their environments in three queries whatever their number. */
export async function loadAdminServers(db: Db, rows: ServerRow[]): Promise<AdminServer[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const eggIds = [...new Set(rows.map((row) => row.egg_id))];
  const nodeIds = [...new Set(rows.map((row) => row.node_id))];
  const [eggVariables, values, locations] = await Promise.all([
    listEggVariables(db, eggIds),
    serverVariableValues(db, ids),
    findLocationsOfNodes(db, nodeIds),
  ]);
  const variablesByEgg = groupBy(eggVariables, (variable) => variable.eggId);
  const valuesByServer = groupBy(values, (value) => value.server_id);
  const locationByNode = new Map(locations.map((entry) => [entry.nodeId, entry.location.short]));
  return rows.map((row) => {
    const stored = new Map(
      (valuesByServer.get(row.id) ?? []).map((value) => [value.variable_id, value.variable_value]),
    );
    const environment: AdminServer['environment'] = {};
    for (const variable of variablesByEgg.get(row.egg_id) ?? []) {
      environment[variable.envVariable] = stored.get(variable.id) ?? variable.defaultValue;
    }
    environment.STARTUP = row.startup;
    environment.P_SERVER_LOCATION = locationByNode.get(row.node_id) ?? null;
    environment.P_SERVER_UUID = row.uuid;
    environment.P_SERVER_ALLOCATION_LIMIT = row.allocation_limit;
    return { row, environment };
  });
}

export async function findAdminServer(db: Db, where: { id: number } | { externalId: string }) {
  const row = await findServerRow(db, where);
  if (!row) return null;
  const [server] = await loadAdminServers(db, [row]);
  return server ?? null;
}

export const adminServerFlags = (server: AdminServer) => ({
  skipScripts: readBool(server.row.skip_scripts),
  oomDisabled: readBool(server.row.oom_disabled),
  createdAt: readDate(server.row.created_at),
  updatedAt: readDate(server.row.updated_at),
});
