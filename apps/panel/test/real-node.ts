import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type DaemonProcess, startDaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { expect } from 'vitest';
import { createAdminWithKey } from './application-api';
import type { TestApp } from './build-test-app';
import { closedPorts } from './closed-port';
import { importDemoEgg } from './server-factories';

// biome-ignore lint/suspicious/noExplicitAny: answers are read the way a script reads them.
export type Json = Record<string, any>;

/** A call to the listening panel's Application API with a root admin's `ptla_` key, answered as JSON. */
export type ApplicationCall = (
  method: string,
  url: string,
  body?: unknown,
) => Promise<{ status: number; body: Json }>;

export function applicationApi(panelUrl: string, bearer: string): ApplicationCall {
  return async (method, url, body) => {
    const response = await fetch(`${panelUrl}/api/application/${url}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // 202 and 204 answers may have no body at all.
    const text = await response.text();
    return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
  };
}

export interface RealNode {
  api: ApplicationCall;
  nodeId: number;
  daemonPort: number;
  sftpPort: number;
  /** The node's configuration document (its `token` is the daemon's). */
  configuration: Json;
  daemon: DaemonProcess;
  /** Where its document (`node.json`) and data (`daemon/`) are, and its extra settings: what a restart needs. */
  directory: string;
  env: Record<string, string>;
}

/**
 * What an admin does for a second machine, on this one: a location and a node made through the Application API
 * (free daemon and SFTP ports, one free game port), its configuration document fetched and saved (0600), and a real
 * `aerie daemon` started from it in `directory`. The panel (`t.app`) must be listening at `panelUrl`. Stop the
 * daemon with SIGINT (its games stop with it).
 */
export async function startRealNode(
  t: TestApp,
  panelUrl: string,
  directory: string,
  name: string,
  /** More daemon settings (DAEMON_ACTIVITY_SEND_INTERVAL_SECONDS…), by variable name. */
  env: Record<string, string> = {},
): Promise<RealNode> {
  const { bearer } = await createAdminWithKey(t.ctx);
  const api = applicationApi(panelUrl, bearer);
  const location = await api('POST', 'locations', {
    short: name.toLowerCase().replace(/\W+/g, '-').slice(0, 60),
  });
  const [daemonPort, sftpPort, gamePort] = (await closedPorts(3)) as [number, number, number];
  const node = await api('POST', 'nodes', {
    name,
    location_id: location.body.attributes.id,
    fqdn: '127.0.0.1',
    scheme: 'http',
    memory: 4096,
    memory_overallocate: 0,
    disk: 10240,
    disk_overallocate: 0,
    daemon_listen: daemonPort,
    daemon_sftp: sftpPort,
  });
  expect(node.status).toBe(201);
  const nodeId = node.body.attributes.id as number;
  const allocations = await api('POST', `nodes/${nodeId}/allocations`, {
    ip: '127.0.0.1',
    ports: [String(gamePort)],
  });
  expect(allocations.status).toBe(204);
  const configuration = (await api('GET', `nodes/${nodeId}/configuration`)).body;
  await writeFile(path.join(directory, 'node.json'), JSON.stringify(configuration), { mode: 0o600 });
  const daemon = await nodeDaemon(directory, env);
  expect(daemon.url).toBe(`http://127.0.0.1:${daemonPort}`);
  return { api, nodeId, daemonPort, sftpPort, configuration, daemon: daemon.process, directory, env };
}

/** `aerie daemon` from the node's saved configuration document in `directory`; resolves once it listens. */
async function nodeDaemon(directory: string, env: Record<string, string>) {
  const daemon = startDaemonProcess({
    DAEMON_CONFIG: path.join(directory, 'node.json'),
    DAEMON_HOST: '127.0.0.1',
    DAEMON_DATA_DIR: path.join(directory, 'daemon'),
    LOG_LEVEL: 'warn',
    ...env,
  });
  return { process: daemon, url: await daemon.listening() };
}

/** kill -9 of the node's daemon, then a new one from the same document, data and settings (it boots as after a crash). */
export async function crashAndRestartNode(node: RealNode, between?: () => Promise<void>): Promise<void> {
  node.daemon.process.kill('SIGKILL');
  await node.daemon.exited;
  await between?.();
  node.daemon = (await nodeDaemon(node.directory, node.env)).process;
}

/**
 * A demo-egg server for `ownerId` on the node's free port, created through the Application API; resolves once
 * its install is over (status null). `skipScripts` leaves the files empty; `startOnCompletion` starts it after.
 * @returns the `server` attributes of the Application API
 */
export async function createServerOnNode(
  t: TestApp,
  node: RealNode,
  input: {
    name: string;
    ownerId: number;
    environment?: Record<string, string>;
    disk?: number;
    skipScripts?: boolean;
    startOnCompletion?: boolean;
  },
): Promise<Json> {
  const egg = await importDemoEgg(t.ctx, `${input.name} nest`);
  const allocation = (await node.api('GET', `nodes/${node.nodeId}/allocations`)).body.data[0].attributes.id;
  const created = await node.api('POST', 'servers', {
    name: input.name,
    user: input.ownerId,
    egg: egg.id,
    docker_image: 'node:20-bookworm-slim',
    startup: 'node demo-server.mjs',
    environment: input.environment ?? { MOTD: 'Hi', MAX_PLAYERS: '5' },
    limits: { memory: 256, swap: 0, disk: input.disk ?? 64, io: 500, cpu: 0 },
    feature_limits: { databases: 0, allocations: 1, backups: 0 },
    allocation: { default: allocation },
    ...(input.skipScripts ? { skip_scripts: true } : {}),
    start_on_completion: input.startOnCompletion ?? false,
  });
  expect(created.status).toBe(201);
  const attributes = created.body.attributes as Json;
  await expect
    .poll(async () => (await node.api('GET', `servers/${attributes.id}`)).body.attributes.status, {
      timeout: 60_000,
      interval: 250,
    })
    .toBeNull();
  return attributes;
}
