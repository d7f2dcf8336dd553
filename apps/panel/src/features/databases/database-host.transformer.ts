import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { DatabaseHost } from './database-host';

/** `database_host` (upstream's DatabaseHostTransformer, plus `driver`); never the password. */
export const databaseHostTransformer: Transformer<DatabaseHost> = {
  object: 'database_host',
  attributes: (host) => ({
    id: host.id,
    name: host.name,
    host: host.host,
    port: host.port,
    username: host.username,
    node: host.nodeId,
    driver: host.driver,
    created_at: toWireDate(host.createdAt),
    updated_at: toWireDate(host.updatedAt),
  }),
};
