import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DaemonProcess, startDaemonProcess } from '@aerie/daemon/testing/daemon-process';
import { createAdminWithKey } from '@aerie/panel/test/application-api';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let panelUrl: string;
let directory: string;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  panelUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'aerie-node-config-'));
});
afterAll(async () => {
  daemon?.process.kill('SIGKILL');
  await daemon?.exited;
  await t.close();
  await rm(directory, { recursive: true, force: true });
});

describe('a node configuration document starts `aerie daemon` (DAEMON_CONFIG)', () => {
  it('gives a daemon on another machine its port, token and panel URL', { timeout: 60_000 }, async () => {
    const { bearer } = await createAdminWithKey(t.ctx);
    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${panelUrl}/api/application/${url}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: 'application/vnd.pterodactyl.v1+json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const location = (await (await api('POST', 'locations', { short: 'remote' })).json()) as {
      attributes: { id: number };
    };
    const daemonPort = await closedPort();
    const created = await api('POST', 'nodes', {
      name: 'Remote node',
      location_id: location.attributes.id,
      fqdn: '127.0.0.1',
      scheme: 'http',
      memory: 4096,
      memory_overallocate: 0,
      disk: 10240,
      disk_overallocate: 0,
      daemon_listen: daemonPort,
      daemon_sftp: 2022,
    });
    expect(created.status).toBe(201);
    const node = (await created.json()) as { attributes: { id: number } };
    const configuration = await api('GET', `nodes/${node.attributes.id}/configuration`);
    expect(configuration.status).toBe(200);
    const document = (await configuration.json()) as {
      remote: string;
      token: string;
      aerie: { env: Record<string, string> };
    };
    expect(document.remote).toBe(panelUrl);
    expect(document.aerie.env).toMatchObject({ DAEMON_PORT: String(daemonPort), PANEL_URL: panelUrl });

    const file = path.join(directory, 'config.json');
    await writeFile(file, JSON.stringify(document), { mode: 0o600 });
    // The document says 0.0.0.0; the environment wins, so the test listens on loopback only.
    daemon = startDaemonProcess({
      DAEMON_CONFIG: file,
      DAEMON_HOST: '127.0.0.1',
      DAEMON_DATA_DIR: path.join(directory, 'daemon'),
      LOG_LEVEL: 'silent',
    });
    // Listening means its boot asked the panel for its servers with the document's token id and token.
    expect(await daemon.listening()).toBe(`http://127.0.0.1:${daemonPort}`);
    const system = await fetch(`http://127.0.0.1:${daemonPort}/api/system`, {
      headers: { authorization: `Bearer ${document.token}` },
    });
    expect(system.status).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${daemonPort}/api/system`, {
      headers: { authorization: 'Bearer not-the-token' },
    });
    expect(refused.status).toBe(403);
  });
});
