import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  addSubuser,
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import type { ServerMountAttributes } from '@aerie/shared/mounts/mounts-wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A server's mounts as its users see them: /api/client/servers/{server}/mounts. */
let t: TestApp;
let node: NodeRow;
let server: ServerRow;
let owner: TestBrowser;
let sequence = 0;

const signedIn = async (rootAdmin = false) => {
  const { user, password } = await createTestUser(t.ctx, { rootAdmin });
  const browser = new TestBrowser(t.app);
  await browser.signIn(user.username, password);
  return { user, browser };
};

beforeAll(async () => {
  t = await buildTestApp();
  node = await createTestNode(t.ctx);
  const egg = await importDemoEgg(t.ctx, 'Client mounts');
  const signed = await signedIn();
  owner = signed.browser;
  server = await createTestServer(t.ctx, { owner: signed.user, node, eggId: egg.id });
});
afterAll(() => t.close());

/** A mount on the server's egg and node (or not), made through the service the Application API uses. */
async function mount(options: { userMountable: boolean; onEggAndNode?: boolean; attached?: boolean }) {
  sequence++;
  const created = await t.ctx.mounts.create(
    {
      name: `Shared ${sequence}`,
      description: null,
      source: `/srv/shared/${sequence}`,
      target: `/mnt/shared-${sequence}`,
      read_only: true,
      user_mountable: options.userMountable,
    },
    unrecorded,
  );
  if (options.onEggAndNode !== false) {
    await t.ctx.mounts.attach(created.id, 'eggs', [server.egg_id], unrecorded);
    await t.ctx.mounts.attach(created.id, 'nodes', [node.id], unrecorded);
  }
  if (options.attached) await t.ctx.mounts.attach(created.id, 'servers', [server.id], unrecorded);
  return created;
}

const url = (suffix = '') => `/api/client/servers/${server.uuid_short}/mounts${suffix}`;
const listed = async (browser = owner) => {
  const response = await browser.get(url());
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { attributes: ServerMountAttributes }[]).map((item) => item.attributes);
};
const daemonMounts = async () => {
  const token = `Bearer ${node.daemon_token_id}.${t.ctx.secretBox.open(node.daemon_token)}`;
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/remote/servers/${server.uuid}`,
    headers: { authorization: token, accept: 'application/json' },
  });
  return response.json().settings.mounts as { source: string; target: string; read_only: boolean }[];
};

describe('/api/client/servers/{server}/mounts', () => {
  it('lists what users may attach and what an administrator attached, never the host folder', async () => {
    const mountable = await mount({ userMountable: true });
    const byAdmin = await mount({ userMountable: false, attached: true });
    const hidden = await mount({ userMountable: false });
    const elsewhere = await mount({ userMountable: true, onEggAndNode: false });
    const names = (await listed()).map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining([mountable.name, byAdmin.name]));
    expect(names).not.toContain(hidden.name);
    expect(names).not.toContain(elsewhere.name);
    const entry = (await listed()).find((each) => each.name === byAdmin.name);
    expect(entry).toEqual({
      uuid: byAdmin.uuid,
      name: byAdmin.name,
      description: null,
      target: byAdmin.target,
      read_only: true,
      user_mountable: false,
      attached: true,
    });
    expect(JSON.stringify(await listed())).not.toContain('/srv/shared');
  });

  it('attaches and detaches a user-mountable mount for the next start, logging each once', async () => {
    const shared = await mount({ userMountable: true });
    for (let round = 0; round < 2; round++) {
      expect((await owner.post(url(`/${shared.uuid}`))).statusCode).toBe(204);
    }
    expect((await listed()).find((entry) => entry.uuid === shared.uuid)?.attached).toBe(true);
    expect(await daemonMounts()).toContainEqual({
      source: shared.source,
      target: shared.target,
      read_only: true,
    });
    expect((await owner.send('DELETE', url(`/${shared.uuid}`))).statusCode).toBe(204);
    expect(await daemonMounts()).not.toContainEqual(expect.objectContaining({ source: shared.source }));
    const events = await t.db
      .selectFrom('activity_logs')
      .select('event')
      .where('event', 'like', 'server:mount.%')
      .where('properties', 'like', `%${shared.name}%`)
      .orderBy('id')
      .execute();
    expect(events.map((row) => row.event)).toEqual(['server:mount.attach', 'server:mount.detach']);
  });

  it("refuses what users may not touch: an administrator's mount (400), one they cannot see (404)", async () => {
    const byAdmin = await mount({ userMountable: false, attached: true });
    const detach = await owner.send('DELETE', url(`/${byAdmin.uuid}`));
    expect(detach.statusCode).toBe(400);
    expect(detach.json().errors[0].detail).toBe(
      'This mount was attached by an administrator and can only be detached by one.',
    );
    const hidden = await mount({ userMountable: false });
    expect((await owner.post(url(`/${hidden.uuid}`))).statusCode).toBe(404);
    expect((await owner.post(url('/not-a-mount'))).statusCode).toBe(404);
    expect(await daemonMounts()).not.toContainEqual(expect.objectContaining({ source: hidden.source }));
    expect(await daemonMounts()).toContainEqual(expect.objectContaining({ source: byAdmin.source }));
  });

  it('checks mount.read and mount.update for subusers (403) and hides the server from strangers (404)', async () => {
    const shared = await mount({ userMountable: true });
    const reader = await signedIn();
    await addSubuser(t.ctx, server, reader.user, ['mount.read']);
    expect((await reader.browser.get(url())).statusCode).toBe(200);
    const refused = await reader.browser.post(url(`/${shared.uuid}`));
    expect(refused.statusCode).toBe(403);
    const without = await signedIn();
    await addSubuser(t.ctx, server, without.user, ['control.console']);
    expect((await without.browser.get(url())).statusCode).toBe(403);
    const stranger = await signedIn();
    expect((await stranger.browser.get(url())).statusCode).toBe(404);
    expect((await stranger.browser.post(url(`/${shared.uuid}`))).statusCode).toBe(404);
    expect((await listed()).find((entry) => entry.uuid === shared.uuid)?.attached).toBe(false);
  });
});
