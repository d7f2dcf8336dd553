// `node --import tsx bench/src/application-seed.cli.ts --daemon-port P --explicit N --deploy M --owner NAME`, with
// the panel's environment: what bench:application needs before it creates servers through the API. One node on
// 127.0.0.1:P (the bench's daemon stand-in) with room for far more than the bench creates, N allocations for
// explicit `allocation.default` bodies and M + 10 % for `deploy` in a port range of their own, and the demo egg.
// Prints one JSON line (ApplicationSeed).
import { readFileSync } from 'node:fs';
import { CliError } from '@aerie/panel/cli/cli-error';
import { parseFlags } from '@aerie/panel/cli/parse-flags';
import { prepare } from '@aerie/panel/cli/prepare';
import { loadConfig } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { addAllocations, createNode } from '@aerie/panel/features/nodes/nodes.service';
import { findUserByLogin } from '@aerie/panel/features/users/users.repository';
import { type ApplicationSeed, allocationLayout } from './application-layout';

const { values } = parseFlags(process.argv.slice(2), {
  values: ['daemon-port', 'explicit', 'deploy', 'owner'],
  booleans: [],
});
const config = loadConfig();
const { db, appKey } = await prepare(config, { migrate: true });
try {
  const owner = await findUserByLogin(db, values.owner ?? '');
  if (!owner) throw new CliError(`No user "${values.owner}".`);
  const layout = allocationLayout(Number(values.explicit), Number(values.deploy));
  const node = await createNode(db, new SecretBox(appKey), {
    name: 'Bench application node',
    fqdn: '127.0.0.1',
    scheme: 'http',
    daemonListen: Number(values['daemon-port']),
    daemonSftp: 2022,
    memory: 100_000_000,
    disk: 1_000_000_000,
  });
  await addAllocations(db, node.id, layout.ip, layout.explicitPorts);
  await addAllocations(db, node.id, layout.ip, layout.deployPorts);
  const explicitAllocationIds = (
    await db
      .selectFrom('allocations')
      .select('id')
      .where('node_id', '=', node.id)
      .where('port', 'in', layout.explicitPorts)
      .orderBy('port')
      .execute()
  ).map((row) => row.id);
  const egg = await importEgg(db, parseEggExportText(readFileSync(demoEggPath, 'utf8')), {
    nestName: 'Bench',
  });
  const seed: ApplicationSeed = {
    nodeId: node.id,
    locationId: node.location_id,
    eggId: egg.id,
    ownerId: owner.id,
    explicitAllocationIds,
    deployPortRange: layout.deployPortRange,
  };
  console.log(JSON.stringify(seed));
} finally {
  await db.destroy();
}
