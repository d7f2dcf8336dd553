import type { Config } from '@aerie/panel/config/load-config';
import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import { demoEggPath, loadBundledEggs } from '@aerie/panel/features/eggs/bundled-eggs';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { ensureLocalNode, LOCAL_NODE_IP } from '@aerie/panel/features/nodes/local-node';
import { lowestFreeAllocation } from '@aerie/panel/features/nodes/server-allocations';
import { createServerFromEgg } from '@aerie/panel/features/servers/server-from-egg';

export const BUNDLED_NEST = 'Aerie';
export const DEMO_SERVER_NAME = 'Demo Server';

export interface ServersBootstrapResult {
  nodeId: number;
  eggs: string[];
  demoServer: { id: number; uuid: string } | null;
}

/**
 * What `aerie up` runs on every boot, after the first admin: the local node and its ports, the bundled eggs
 * (imported or updated into the "Aerie" nest), and, only on the boot that created the first admin, one demo
 * server of the demo egg owned by that admin on the lowest free port. Safe to run again and again.
 */
export async function bootstrapServers(
  db: Db,
  secretBox: SecretBox,
  config: Config,
  options: { firstAdminId: number | null; print?: (line: string) => void; eggsDir?: string },
): Promise<ServersBootstrapResult> {
  const node = await ensureLocalNode(db, secretBox, config);
  const imported = [];
  for (const { file, egg } of loadBundledEggs(options.eggsDir)) {
    imported.push({ file, ...(await importEgg(db, egg, { nestName: BUNDLED_NEST })) });
  }
  if (options.firstAdminId === null) {
    return { nodeId: node.id, eggs: imported.map((e) => e.name), demoServer: null };
  }
  const demoEgg = imported.find((egg) => egg.file === demoEggPath) ?? imported[0];
  const allocation = await lowestFreeAllocation(db, node.id, LOCAL_NODE_IP);
  if (!demoEgg || !allocation) {
    options.print?.('No demo server was created: the demo egg or a free port on the local node is missing.');
    return { nodeId: node.id, eggs: imported.map((e) => e.name), demoServer: null };
  }
  const demoServer = await createServerFromEgg(db, {
    name: DEMO_SERVER_NAME,
    description: 'A tiny chat game to try the panel with.',
    ownerId: options.firstAdminId,
    nodeId: node.id,
    allocationId: allocation.id,
    eggId: demoEgg.id,
    memory: 512,
    disk: 1024,
    cpu: 100,
    // Room for two more ports from the local node's range, so Create Allocation works on a fresh install.
    allocationLimit: 3,
    // Three backups, so the Backups page can be tried on a fresh install.
    backupLimit: 3,
    // Two databases, so the Databases page works as soon as an admin adds a database host.
    databaseLimit: 2,
    // The daemon installs it once it answers (daemon-installs.ts); until then it shows as installing.
    status: 'installing',
    installedAt: null,
  });
  options.print?.(`Created the demo server "${DEMO_SERVER_NAME}" on the local node.`);
  return { nodeId: node.id, eggs: imported.map((e) => e.name), demoServer };
}
