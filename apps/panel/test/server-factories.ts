import { readFileSync } from 'node:fs';
import type { AppContext } from '@aerie/panel/app-context';
import type { ServersTable } from '@aerie/panel/db/schema-servers';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import {
  addAllocations,
  createNode,
  type NewNode,
  type NodeRow,
} from '@aerie/panel/features/nodes/nodes.service';
import { createServerFromEgg, type NewServer } from '@aerie/panel/features/servers/server-from-egg';
import type { User } from '@aerie/panel/features/users/user';
import type { Selectable } from 'kysely';

let sequence = 0;

/**
 * A node with a fresh daemon token (fqdn `node<n>.test`, http, daemon 8080, SFTP 2022 unless overridden), with
 * 1 TiB of memory and 10 TiB of disk: servers are created under the node's capacity check, as the API creates
 * them, and tests put many on one node. Tests of the capacity give their own.
 */
export function createTestNode(ctx: AppContext, overrides: Partial<NewNode> = {}): Promise<NodeRow> {
  sequence++;
  return createNode(ctx.db, ctx.secretBox, {
    name: `Node ${sequence}`,
    fqdn: `node${sequence}.test`,
    scheme: 'http',
    daemonListen: 8080,
    daemonSftp: 2022,
    memory: 1_048_576,
    disk: 10_485_760,
    ...overrides,
  });
}

/** The bundled demo egg, imported into a nest of its own. */
export async function importDemoEgg(ctx: AppContext, nestName = 'Test nest') {
  return importEgg(ctx.db, parseEggExportText(readFileSync(demoEggPath, 'utf8')), { nestName });
}

export type ServerRow = Selectable<ServersTable>;

/**
 * A server owned by `owner` on `node` at ip:port (a new allocation; port counts up from 30000 by default),
 * with the given egg's defaults.
 */
export async function createTestServer(
  ctx: AppContext,
  input: {
    owner: User;
    node: NodeRow;
    eggId: number;
    ip?: string;
    port?: number;
  } & Partial<Omit<NewServer, 'ownerId' | 'nodeId' | 'eggId' | 'allocationId'>>,
): Promise<ServerRow> {
  sequence++;
  const ip = input.ip ?? '10.0.0.1';
  const port = input.port ?? 30000 + sequence;
  await addAllocations(ctx.db, input.node.id, ip, [port]);
  const allocation = await ctx.db
    .selectFrom('allocations')
    .select('id')
    .where('node_id', '=', input.node.id)
    .where('ip', '=', ip)
    .where('port', '=', port)
    .executeTakeFirstOrThrow();
  const { owner, node, eggId, ip: _ip, port: _port, ...rest } = input;
  const { id } = await createServerFromEgg(ctx.db, {
    name: `Server ${sequence}`,
    memory: 1024,
    disk: 2048,
    cpu: 100,
    ...rest,
    ownerId: owner.id,
    nodeId: node.id,
    eggId,
    allocationId: allocation.id,
  });
  return ctx.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Another allocation on the server's node, assigned to it (not primary). */
export async function addServerAllocation(
  ctx: AppContext,
  server: ServerRow,
  ip: string,
  port: number,
  notes: string | null = null,
) {
  await addAllocations(ctx.db, server.node_id, ip, [port]);
  await ctx.db
    .updateTable('allocations')
    .set({ server_id: server.id, notes })
    .where('node_id', '=', server.node_id)
    .where('ip', '=', ip)
    .where('port', '=', port)
    .execute();
}

/** Makes `user` a subuser of `server` with exactly these stored permissions. */
export async function addSubuser(ctx: AppContext, server: ServerRow, user: User, permissions: string[]) {
  const now = new Date();
  await ctx.db
    .insertInto('subusers')
    .values({
      user_id: user.id,
      server_id: server.id,
      permissions: JSON.stringify(permissions),
      created_at: now,
      updated_at: now,
    })
    .execute();
}
