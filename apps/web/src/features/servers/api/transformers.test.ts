import { describe, expect, it } from 'vitest';
import {
  allocationAddress,
  isInConflictState,
  toPagination,
  toServer,
  toServerListItem,
  toServerStats,
} from '@/features/servers/api/transformers';
import { serverDetail, serverItem, serverList, statsBody } from '@/testing/server-fixtures';

describe('server transformers', () => {
  it('maps a full server to the camelCase model', () => {
    const wire = serverDetail({
      identifier: 'abcd1234',
      internal_id: 7,
      name: 'Skyblock',
      description: '',
      status: 'install_failed',
      limits: { cpu: 150, memory: 4096, disk: 0 },
      allocations: [
        { ip: '10.0.0.1', port: 25565, is_default: true },
        { ip: '10.0.0.1', ip_alias: 'extra.example.com', port: 25566, is_default: false },
      ],
    }).attributes;
    wire.relationships.variables = {
      object: 'list',
      data: [
        {
          object: 'egg_variable',
          attributes: {
            name: 'Version',
            description: 'Which version to run.',
            env_variable: 'VERSION',
            default_value: 'latest',
            server_value: '1.21',
            is_editable: true,
            rules: 'required|string|max:20',
          },
        },
      ],
    };
    const server = toServer(wire);
    expect(server).toMatchObject({
      id: 'abcd1234',
      internalId: 7,
      name: 'Skyblock',
      description: null,
      status: 'install_failed',
      isInstalling: true,
      isTransferring: false,
      limits: { cpu: 150, memory: 4096, disk: 0 },
      sftpDetails: { ip: 'node.example.com', port: 2022 },
      dockerImage: 'ghcr.io/example/java:21',
      eggFeatures: ['eula'],
      featureLimits: { databases: 1, allocations: 2, backups: 3 },
    });
    expect(server.allocations.map(allocationAddress)).toEqual(['10.0.0.1:25565', 'extra.example.com:25566']);
    expect(server.allocations.map((a) => a.isDefault)).toEqual([true, false]);
    expect(server.variables).toEqual([
      {
        name: 'Version',
        description: 'Which version to run.',
        envVariable: 'VERSION',
        defaultValue: 'latest',
        serverValue: '1.21',
        isEditable: true,
        rules: ['required', 'string', 'max:20'],
      },
    ]);
  });

  it('reads hidden variables and missing feature limits as empty', () => {
    const wire = serverItem({ description: 'Kept' }).attributes;
    wire.relationships.variables = { object: 'null_resource', attributes: null };
    wire.egg_features = null;
    wire.feature_limits = { databases: null, allocations: null, backups: null };
    const server = toServer(wire);
    expect(server.variables).toEqual([]);
    expect(server.eggFeatures).toEqual([]);
    expect(server.featureLimits).toEqual({ databases: 0, allocations: 0, backups: 0 });
    expect(server.description).toBe('Kept');
  });

  it('maps list items, usage and pagination', () => {
    const body = serverList([serverItem({ name: 'Listed', status: 'suspended' })], {
      currentPage: 2,
      totalPages: 3,
      total: 51,
    });
    const item = toServerListItem((body.data[0] as (typeof body.data)[0]).attributes);
    expect(item).toMatchObject({
      name: 'Listed',
      status: 'suspended',
      isTransferring: false,
      node: 'Node A',
    });
    expect(toPagination(body.meta.pagination)).toEqual({
      total: 51,
      count: 1,
      perPage: 50,
      currentPage: 2,
      totalPages: 3,
    });
    expect(
      toServerStats(statsBody({ state: 'starting', cpu: 3.5, memory: 10, disk: 20 }).attributes),
    ).toEqual({
      status: 'starting',
      isSuspended: false,
      isNodeReconnecting: false,
      cpuUsagePercent: 3.5,
      memoryUsageInBytes: 10,
      diskUsageInBytes: 20,
      networkRxInBytes: 0,
      networkTxInBytes: 0,
    });
  });

  it.each([
    [{ status: null, isTransferring: false }, false],
    [{ status: 'suspended' as const, isTransferring: false }, true],
    [{ status: 'restoring_backup' as const, isTransferring: false }, true],
    [{ status: null, isTransferring: true }, true],
  ])('conflict state of %j is %s', (server, expected) => {
    expect(isInConflictState(server)).toBe(expected);
  });
});
