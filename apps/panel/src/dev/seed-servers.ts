import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { createNode } from '@aerie/panel/features/nodes/nodes.service';
import { sql } from 'kysely';

/** Game names the seeded servers are called after, so a name search matches a known share of them. */
export const SEED_GAMES = [
  'Minecraft',
  'Valheim',
  'Rust',
  'Terraria',
  'Factorio',
  'Palworld',
  'Ark',
  'Satisfactory',
];

const CHUNK = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/**
 * Fills a database with `users` users and `servers` servers for benchmarks: one node, the demo egg, one
 * allocation per server, the egg's variables per server, and a subuser on every tenth server. Servers go
 * round-robin to the users, the first being `firstOwnerId` when given (the benchmark's admin). Bulk inserts in
 * one transaction per table. Returns how many rows it made.
 */
export async function seedServers(
  db: Db,
  secretBox: SecretBox,
  options: { users: number; servers: number; firstOwnerId?: number },
) {
  const now = new Date();
  const tag = randomUUID().slice(0, 8);
  const node = await createNode(db, secretBox, {
    name: `Bench node ${tag}`,
    fqdn: '127.0.0.1',
    scheme: 'http',
    daemonListen: 1,
    daemonSftp: 2022,
  });
  const egg = await importEgg(db, parseEggExportText(readFileSync(demoEggPath, 'utf8')), {
    nestName: 'Bench',
  });

  const passwordHash = await hashPassword(`seed-${tag}`);
  const users = Array.from({ length: options.users }, (_, i) => ({
    uuid: randomUUID(),
    external_id: null,
    username: `seed-${tag}-${i}`,
    email: `seed-${tag}-${i}@example.com`,
    name_first: null,
    name_last: null,
    password: passwordHash,
    root_admin: false,
    use_totp: false,
    totp_secret: null,
    totp_authenticated_at: null,
    gravatar: true,
    created_at: now,
    updated_at: now,
  }));
  await db
    .transaction()
    .execute((tx) => insertChunked(users, (chunk) => tx.insertInto('users').values(chunk).execute()));
  const userIds = (
    await db
      .selectFrom('users')
      .select('id')
      .where('username', 'like', `seed-${tag}-%`)
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
  const owners = options.firstOwnerId === undefined ? userIds : [options.firstOwnerId, ...userIds.slice(1)];

  const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  await db.transaction().execute((tx) =>
    insertChunked(
      Array.from({ length: options.servers }, (_, i) => ({
        node_id: node.id,
        ip: ipOf(i),
        ip_alias: null,
        port: 25565 + (i % 100),
        server_id: null,
        notes: null,
        created_at: now,
        updated_at: now,
      })),
      (chunk) => tx.insertInto('allocations').values(chunk).execute(),
    ),
  );
  const allocationIds = (
    await db.selectFrom('allocations').select('id').where('node_id', '=', node.id).orderBy('id').execute()
  ).map((row) => row.id);

  const image =
    Object.values(
      JSON.parse(
        (
          await db
            .selectFrom('eggs')
            .select('docker_images')
            .where('id', '=', egg.id)
            .executeTakeFirstOrThrow()
        ).docker_images,
      ) as Record<string, string>,
    )[0] ?? '';
  const shortsTaken = new Set<string>();
  await db.transaction().execute((tx) =>
    insertChunked(
      allocationIds.map((allocationId, i) => {
        // 100,000 random 8-hex-digit prefixes collide about once: draw again (Pterodactyl retries too).
        let uuid = randomUUID();
        while (shortsTaken.has(uuid.slice(0, 8))) uuid = randomUUID();
        shortsTaken.add(uuid.slice(0, 8));
        return {
          uuid,
          uuid_short: uuid.slice(0, 8),
          external_id: `seed-${tag}-${i}`,
          node_id: node.id,
          // Shifted per round of owners, so each owner gets a mix of games (not always the same one).
          name: `${SEED_GAMES[(i + Math.floor(i / owners.length)) % SEED_GAMES.length]} server ${i}`,
          description: `Seeded server number ${i}`,
          status: null,
          skip_scripts: false,
          owner_id: owners[i % owners.length] as number,
          memory: 1024,
          swap: 0,
          disk: 4096,
          io: 500,
          cpu: 100,
          threads: null,
          oom_disabled: true,
          allocation_id: allocationId,
          nest_id: egg.nestId,
          egg_id: egg.id,
          startup: 'node demo-server.mjs',
          image,
          allocation_limit: null,
          database_limit: 0,
          backup_limit: 0,
          installed_at: now,
          created_at: now,
          updated_at: now,
        };
      }),
      (chunk) => tx.insertInto('servers').values(chunk).execute(),
    ),
  );

  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('allocations')
      .set({
        server_id: (eb) =>
          eb
            .selectFrom('servers')
            .select('servers.id')
            .whereRef('servers.allocation_id', '=', 'allocations.id'),
      })
      .where('node_id', '=', node.id)
      .execute();
    await tx
      .insertInto('server_variables')
      .columns(['server_id', 'variable_id', 'variable_value', 'created_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('servers')
          .innerJoin('egg_variables', 'egg_variables.egg_id', 'servers.egg_id')
          .select([
            'servers.id',
            'egg_variables.id',
            'egg_variables.default_value',
            sql<Date>`${now}`.as('created_at'),
            sql<Date>`${now}`.as('updated_at'),
          ])
          .where('servers.node_id', '=', node.id),
      )
      .execute();
  });

  const servers = await db
    .selectFrom('servers')
    .select('id')
    .where('node_id', '=', node.id)
    .orderBy('id')
    .execute();
  // Every tenth server is shared with the next owner in line (never its own owner).
  const subusers = servers
    .map((server, i) => ({ server, i }))
    .filter(({ i }) => i % 10 === 0 && owners.length > 1)
    .map(({ server, i }) => ({
      user_id: owners[(i + 1) % owners.length] as number,
      server_id: server.id,
      permissions: JSON.stringify(['websocket.connect', 'control.console']),
      created_at: now,
      updated_at: now,
    }));
  await db
    .transaction()
    .execute((tx) => insertChunked(subusers, (chunk) => tx.insertInto('subusers').values(chunk).execute()));
  return { users: users.length, servers: servers.length, subusers: subusers.length, nodeId: node.id };
}
