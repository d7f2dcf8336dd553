import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DaemonProcess, startDaemonProcess, testDaemonEnv } from '@aerie/daemon/testing/daemon-process';
import { fileServerConfiguration } from '@aerie/daemon/testing/file-api-fixtures';
import { PANEL_TOKEN, type PanelStandIn, startPanelStandIn } from '@aerie/daemon/testing/panel-stand-in';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RemoteFileServer, startRemoteFileServer } from './testing/remote-file-server';

/**
 * kill -9 of a real `aerie daemon` (DAEMON_PULL_ALLOW opening the test host) in the middle of a download: the half
 * file lies under its journal's temporary name only, and the next daemon removes it and says so on the console.
 */
const UUID = '9c1f2a3b-4d5e-4f60-8a7b-8c9d0e1f2a3d';
const headers = { authorization: `Bearer ${PANEL_TOKEN}`, 'content-type': 'application/json' };

let panel: PanelStandIn;
let remote: RemoteFileServer;
let dataDirectory: string;
const daemons: DaemonProcess[] = [];

beforeEach(async () => {
  panel = await startPanelStandIn();
  panel.servers.set(UUID, fileServerConfiguration(UUID));
  remote = await startRemoteFileServer('127.0.0.2');
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'aerie-pull-kill-'));
});
afterEach(async () => {
  for (const daemon of daemons.splice(0)) daemon.process.kill('SIGKILL');
  await remote.close();
  await panel.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

function daemon(): DaemonProcess {
  const started = startDaemonProcess(
    testDaemonEnv(panel.url, dataDirectory, { DAEMON_PULL_ALLOW: '127.0.0.2/32' }),
  );
  daemons.push(started);
  return started;
}

const volume = () => path.join(dataDirectory, 'volumes', UUID);
const names = async () => (await readdir(volume()).catch(() => [] as string[])).sort();

describe('a daemon killed in the middle of a pull', { timeout: 90_000 }, () => {
  it('leaves no half file at the next boot, and the console says the download was interrupted', async () => {
    // Half of the file arrives, the rest never does.
    remote.route('/world.zip', (_request, response) => {
      response.writeHead(200, { 'content-length': String(256 * 1024) });
      response.write(Buffer.alloc(128 * 1024, 7));
    });
    const first = daemon();
    const url = await first.listening();
    const accepted = await fetch(`${url}/api/servers/${UUID}/files/pull`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${remote.origin}/world.zip`, root: '/' }),
    });
    expect(accepted.status).toBe(202);
    await expect.poll(names, { timeout: 15_000 }).toEqual([expect.stringMatching(/^\.aerie-partial-/)]);
    first.process.kill('SIGKILL');
    await first.exited;

    const second = daemon();
    const next = await second.listening();
    expect(await names()).toEqual([]);
    const logs = (await (await fetch(`${next}/api/servers/${UUID}/logs`, { headers })).json()) as {
      data: string[];
    };
    expect(logs.data).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'A download from a URL was interrupted when the daemon stopped; 1 unfinished file was removed. Run it again.',
        ),
      ]),
    );
  });
});
