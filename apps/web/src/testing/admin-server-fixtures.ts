/** A `server` of the Application API as the admin area's tests serve it: server 7, "Survival", owner 3 on node 1. */
export function adminServerAttributes(overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    external_id: null,
    uuid: '6f1c2d3e-0000-4000-8000-000000000007',
    identifier: '6f1c2d3e',
    name: 'Survival',
    description: '',
    status: null,
    suspended: false,
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100, threads: null, oom_disabled: true },
    feature_limits: { databases: 0, allocations: 1, backups: 2 },
    user: 3,
    node: 1,
    allocation: 11,
    nest: 1,
    egg: 2,
    container: {
      startup_command: 'node demo-server.mjs',
      image: 'node:20',
      installed: 1,
      environment: { MOTD: 'Hi' },
    },
    relationships: {
      user: { object: 'user', attributes: { id: 3, username: 'kim', email: 'kim@example.com' } },
      node: { object: 'node', attributes: { id: 1, name: 'Local node' } },
      allocations: {
        object: 'list',
        data: [{ object: 'allocation', attributes: { id: 11, ip: '127.0.0.1', port: 25565, alias: null } }],
      },
    },
    ...overrides,
  };
}
