import { applicationIncludes } from '@aerie/panel/application-includes';
import { createAccountFeature } from '@aerie/panel/features/account/account.feature';
import { createActivityFeature } from '@aerie/panel/features/activity/activity.feature';
import { createAdminRolesFeature } from '@aerie/panel/features/admin-roles/admin-roles.feature';
import { createAdminServersFeature } from '@aerie/panel/features/admin-servers/admin-servers.feature';
import { createApiKeysFeature } from '@aerie/panel/features/api-keys/api-keys.feature';
import { createAuditFeature } from '@aerie/panel/features/audit/audit.feature';
import { createAuthFeature } from '@aerie/panel/features/auth/auth.feature';
import { createBackupsFeature } from '@aerie/panel/features/backups/backups.feature';
import { createDatabasesFeature } from '@aerie/panel/features/databases/databases.feature';
import { createEggsFeature } from '@aerie/panel/features/eggs/eggs.feature';
import { createLocationsFeature } from '@aerie/panel/features/locations/locations.feature';
import { createMountsFeature } from '@aerie/panel/features/mounts/mounts.feature';
import { createNetworkFeature } from '@aerie/panel/features/network/network.feature';
import { createNodesFeature } from '@aerie/panel/features/nodes/nodes.feature';
import { createOAuthFeature } from '@aerie/panel/features/oauth/oauth.feature';
import { createOverviewFeature } from '@aerie/panel/features/overview/overview.feature';
import { createPanelSettingsFeature } from '@aerie/panel/features/panel-settings/panel-settings.feature';
import { createPasskeysFeature } from '@aerie/panel/features/passkeys/passkeys.feature';
import { createSchedulesFeature } from '@aerie/panel/features/schedules/schedules.feature';
import { createServerSettingsFeature } from '@aerie/panel/features/server-settings/server-settings.feature';
import { createServersFeature } from '@aerie/panel/features/servers/servers.feature';
import { createSftpFeature } from '@aerie/panel/features/sftp/sftp.feature';
import { createSshKeysFeature } from '@aerie/panel/features/ssh-keys/ssh-keys.feature';
import { createStartupFeature } from '@aerie/panel/features/startup/startup.feature';
import { createSubusersFeature } from '@aerie/panel/features/subusers/subusers.feature';
import { createTransfersFeature } from '@aerie/panel/features/transfers/transfers.feature';
import { createUsersFeature } from '@aerie/panel/features/users/users.feature';
import { createInfrastructure, type Infrastructure } from '@aerie/panel/infrastructure';

/**
 * What routes share: the infrastructure (`infrastructure.ts`) and each feature's services, which every feature
 * builds in its own `<feature>.feature.ts` from the infrastructure it needs (and the few services of other
 * features it uses). This file only puts them side by side, in the order they depend on each other.
 */
export type AppContext = Infrastructure & ReturnType<typeof createFeatures>;

function createFeatures(infrastructure: Infrastructure) {
  const activity = createActivityFeature(infrastructure);
  const servers = createServersFeature(infrastructure);
  const adminServers = createAdminServersFeature(infrastructure);
  const auth = createAuthFeature(infrastructure, servers, activity);
  const sshKeys = createSshKeysFeature(infrastructure, activity);
  const backups = createBackupsFeature(infrastructure, { ...activity, ...adminServers });
  return {
    applicationIncludes,
    ...createAuditFeature(infrastructure),
    ...createAdminRolesFeature(infrastructure),
    ...activity,
    ...servers,
    ...adminServers,
    ...auth,
    ...createAccountFeature(infrastructure, auth, servers, activity),
    ...createPasskeysFeature(infrastructure, auth, activity),
    ...createOAuthFeature(infrastructure, activity),
    ...createApiKeysFeature(infrastructure, activity),
    ...createPanelSettingsFeature(infrastructure),
    ...createLocationsFeature(infrastructure),
    ...createMountsFeature(infrastructure, activity),
    ...createTransfersFeature(infrastructure),
    ...createDatabasesFeature(infrastructure, { ...activity, ...adminServers }),
    ...createOverviewFeature(infrastructure),
    ...createUsersFeature(infrastructure),
    ...createNodesFeature(infrastructure),
    ...createEggsFeature(infrastructure),
    ...createServerSettingsFeature(infrastructure, activity),
    ...createStartupFeature(infrastructure, activity),
    ...createNetworkFeature(infrastructure, activity),
    ...backups,
    ...createSchedulesFeature(infrastructure, { ...activity, ...servers, ...backups }),
    ...createSubusersFeature(infrastructure, { ...activity, ...servers, ...auth }),
    ...sshKeys,
    ...createSftpFeature(infrastructure, sshKeys, auth),
  };
}

export function createAppContext(input: Parameters<typeof createInfrastructure>[0]): AppContext {
  const infrastructure = createInfrastructure(input);
  return { ...infrastructure, ...createFeatures(infrastructure) };
}
