import type {
  ServerDatabaseAttributes,
  ServerDatabaseItem,
  ServerDatabaseListResponse,
} from '@aerie/shared/databases/databases-wire';

/**
 * A `server_database` (reference §6) on db.example.com:3306, open from anywhere; its password (the `password`
 * relationship) only when one is given, else the `null_resource` a user without database.view_password gets.
 */
export function databaseItem(
  overrides: Partial<Omit<ServerDatabaseAttributes, 'relationships'>> & { id: string; name: string },
  password?: string,
): ServerDatabaseItem {
  return {
    object: 'server_database',
    attributes: {
      host: { address: 'db.example.com', port: 3306 },
      username: `u42_${overrides.id.padEnd(10, 'x').slice(0, 10)}`,
      connections_from: '%',
      max_connections: 0,
      ...overrides,
      relationships: {
        password:
          password === undefined
            ? { object: 'null_resource', attributes: null }
            : { object: 'database_password', attributes: { password } },
      },
    },
  };
}

/** GET …/databases' answer. */
export const databaseList = (items: ServerDatabaseItem[]): ServerDatabaseListResponse => ({
  object: 'list',
  data: items,
});
