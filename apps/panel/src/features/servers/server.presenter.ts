import { presentSubuser } from '@aerie/panel/features/subusers/subuser.presenter';
import { hasPermission } from '@aerie/shared/permissions/can';
import type {
  AllocationAttributes,
  EggVariableAttributes,
  Item,
  List,
  NullResource,
  ServerAttributes,
  ServerItem,
  ServerStatus,
} from '@aerie/shared/servers/server-wire';
import { buildInvocation } from './invocation';
import { isInstalling } from './server-access';
import type { ServerRecord } from './server-record';
import type { AllocationRecord, ServerRelations, ServerVariableRecord } from './server-relations';

export type ServerInclude = 'egg' | 'subusers';

export const nullResource = (): NullResource => ({ object: 'null_resource', attributes: null });

const list = <T>(data: T[]): List<T> => ({ object: 'list', data });

export function presentAllocation(
  allocation: AllocationRecord,
  primaryId: number,
  hideNotes = false,
): Item<'allocation', AllocationAttributes> {
  return {
    object: 'allocation',
    attributes: {
      id: allocation.id,
      ip: allocation.ip,
      ip_alias: allocation.ipAlias,
      port: allocation.port,
      notes: hideNotes ? null : allocation.notes,
      is_default: allocation.id === primaryId,
    },
  };
}

export function presentEggVariable(
  variable: ServerVariableRecord,
): Item<'egg_variable', EggVariableAttributes> {
  return {
    object: 'egg_variable',
    attributes: {
      name: variable.name,
      description: variable.description,
      env_variable: variable.envVariable,
      default_value: variable.defaultValue,
      server_value: variable.serverValue,
      is_editable: variable.userEditable,
      rules: variable.rules,
    },
  };
}

/**
 * Pterodactyl's client ServerTransformer. What the viewer sees depends on its permissions on this server:
 * without allocation.read only the primary allocation (notes hidden), without startup.read no variables and
 * every value in the invocation hidden, without user.read no subusers.
 */
export function presentServer(
  server: ServerRecord,
  relations: ServerRelations,
  viewer: { userId: number; permissions: readonly string[] },
  includes: ReadonlySet<ServerInclude>,
  /** The panel's avatar service (`AVATAR_URL_TEMPLATE`), for the subusers' pictures. */
  avatarTemplate?: string,
): ServerItem {
  const can = (permission: string) => hasPermission(viewer.permissions, permission);
  const node = relations.nodes.get(server.nodeId);
  const egg = relations.eggs.get(server.eggId);
  if (!node || !egg) throw new Error(`Server ${server.uuid} lacks its node or egg.`);
  const allocations = relations.allocations.get(server.id) ?? [];
  const primary = allocations.find((allocation) => allocation.id === server.allocationId);
  const variables = relations.variables.get(server.id) ?? [];
  const status = server.status as ServerStatus;

  const relationships: ServerAttributes['relationships'] = {
    allocations: list(
      can('allocation.read')
        ? allocations.map((allocation) => presentAllocation(allocation, server.allocationId))
        : primary
          ? [presentAllocation(primary, server.allocationId, true)]
          : [],
    ),
    variables: can('startup.read')
      ? list(variables.filter((variable) => variable.userViewable).map(presentEggVariable))
      : nullResource(),
  };
  if (includes.has('egg'))
    relationships.egg = { object: 'egg', attributes: { uuid: egg.uuid, name: egg.name } };
  if (includes.has('subusers')) {
    relationships.subusers = can('user.read')
      ? list(
          (relations.subusers?.get(server.id) ?? []).map((subuser) =>
            presentSubuser(subuser, avatarTemplate),
          ),
        )
      : nullResource();
  }

  return {
    object: 'server',
    attributes: {
      server_owner: server.ownerId === viewer.userId,
      identifier: server.uuidShort,
      internal_id: server.id,
      uuid: server.uuid,
      name: server.name,
      node: node.name,
      is_node_under_maintenance: node.maintenanceMode,
      sftp_details: { ip: node.fqdn, port: node.daemonSftp },
      description: server.description,
      limits: {
        memory: server.memory,
        swap: server.swap,
        disk: server.disk,
        io: server.io,
        cpu: server.cpu,
        threads: server.threads,
        oom_disabled: server.oomDisabled,
      },
      invocation: buildInvocation(server.startup, {
        memory: server.memory,
        ip: primary?.ip ?? '',
        port: primary?.port ?? 0,
        variables,
        hideAllValues: !can('startup.read'),
      }),
      docker_image: server.image,
      egg_features: egg.features,
      feature_limits: {
        databases: server.databaseLimit,
        allocations: server.allocationLimit,
        backups: server.backupLimit,
      },
      status,
      is_suspended: status === 'suspended',
      is_installing: isInstalling(status),
      is_transferring: relations.transferring.has(server.id),
      relationships,
    },
  };
}
