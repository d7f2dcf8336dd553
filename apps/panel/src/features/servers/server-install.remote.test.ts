import { readFileSync } from 'node:fs';
import { readNullableDate } from '@aerie/panel/db/dialect';
import { demoEggPath } from '@aerie/panel/features/eggs/bundled-eggs';
import type { NodeRow } from '@aerie/panel/features/nodes/nodes.service';
import type { User } from '@aerie/panel/features/users/user';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import {
  createTestNode,
  createTestServer,
  importDemoEgg,
  type ServerRow,
} from '@aerie/panel/test/server-factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInstallResult } from './server-install';

let t: TestApp;
let owner: User;
let node: NodeRow;
let eggId: number;

const bearer = (of: NodeRow) => `Bearer ${of.daemon_token_id}.${t.ctx.secretBox.open(of.daemon_token)}`;
const call = (method: 'GET' | 'POST', url: string, body?: unknown, of: NodeRow = node) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: bearer(of),
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
const row = (server: ServerRow) =>
  t.db
    .selectFrom('servers')
    .select(['status', 'installed_at'])
    .where('id', '=', server.id)
    .executeTakeFirstOrThrow();
const installing = () =>
  createTestServer(t.ctx, { owner, node, eggId, status: 'installing', installedAt: null });

beforeAll(async () => {
  t = await buildTestApp();
  ({ user: owner } = await createTestUser(t.ctx));
  node = await createTestNode(t.ctx);
  eggId = (await importDemoEgg(t.ctx)).id;
});
afterAll(() => t.close());

describe('GET /api/remote/servers/{uuid}/install', () => {
  it("gives the egg's install container, entrypoint and script", async () => {
    const server = await installing();
    const response = await call('GET', `/api/remote/servers/${server.uuid}/install`);
    expect(response.statusCode).toBe(200);
    const egg = JSON.parse(readFileSync(demoEggPath, 'utf8')).scripts.installation;
    expect(response.json()).toEqual({
      container_image: 'node:20-bookworm-slim',
      entrypoint: 'bash',
      script: egg.script,
    });
    expect(egg.script).toContain('cat > demo-server.mjs');
  });

  it('turns CRLF line ends into LF, and follows copy_script_from', async () => {
    const source = await importDemoEgg(t.ctx, 'Script source');
    await t.db
      .updateTable('eggs')
      .set({
        script_install: '#!/bin/sh\r\necho one\r\necho two\r\n',
        script_container: 'alpine:3',
        script_entry: 'ash',
      })
      .where('id', '=', source.id)
      .execute();
    const copier = await importDemoEgg(t.ctx, 'Script copier');
    await t.db.updateTable('eggs').set({ copy_script_from: source.id }).where('id', '=', copier.id).execute();
    for (const egg of [source, copier]) {
      const server = await createTestServer(t.ctx, { owner, node, eggId: egg.id });
      const body = (await call('GET', `/api/remote/servers/${server.uuid}/install`)).json();
      expect(body).toEqual({
        container_image: 'alpine:3',
        entrypoint: 'ash',
        script: '#!/bin/sh\necho one\necho two\n',
      });
    }
  });
});

describe('POST /api/remote/servers/{uuid}/install', () => {
  it('marks a successful install: status null, installed_at now; the client API sees it installed', async () => {
    const server = await installing();
    const before = Date.now() - 1000;
    const response = await call('POST', `/api/remote/servers/${server.uuid}/install`, {
      successful: true,
      reinstall: false,
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const after = await row(server);
    expect(after.status).toBeNull();
    expect(readNullableDate(after.installed_at)?.getTime()).toBeGreaterThanOrEqual(before);
  });

  it.each([
    [{ successful: false, reinstall: false }, 'installing', 'install_failed'],
    [{ successful: false }, 'installing', 'install_failed'],
    [{ successful: '0', reinstall: '1' }, 'installing', 'reinstall_failed'],
    [{ successful: 1 }, 'installing', null],
    [{ successful: false }, 'suspended', 'suspended'],
    [{ successful: true }, 'suspended', 'suspended'],
  ])('records %o on a server %s as %s', async (body, from, to) => {
    const server = await createTestServer(t.ctx, { owner, node, eggId, status: from, installedAt: null });
    expect((await call('POST', `/api/remote/servers/${server.uuid}/install`, body)).statusCode).toBe(204);
    const after = await row(server);
    expect(after.status).toBe(to);
    expect(after.installed_at).not.toBeNull();
  });

  it('keeps a suspension made while the report was on its way (the status it read is stale)', async () => {
    const server = await createTestServer(t.ctx, {
      owner,
      node,
      eggId,
      status: 'installing',
      installedAt: null,
    });
    // The report read the server as installing; the admin suspends before it writes.
    const read = await row(server);
    await t.db.updateTable('servers').set({ status: 'suspended' }).where('id', '=', server.id).execute();
    await recordInstallResult(
      t.db,
      { id: server.id, status: read.status },
      { successful: true, reinstall: false },
      new Date(),
    );
    const after = await row(server);
    expect(after.status).toBe('suspended');
    expect(after.installed_at).not.toBeNull();
  });

  it.each([
    [{}, 'The successful field must be present.', 'present', 'successful'],
    [undefined, 'The successful field must be present.', 'present', 'successful'],
    [{ successful: 'yes' }, 'The successful field must be true or false.', 'boolean', 'successful'],
    [{ successful: null }, 'The successful field must be true or false.', 'boolean', 'successful'],
    [
      { successful: true, reinstall: 'maybe' },
      'The reinstall field must be true or false.',
      'boolean',
      'reinstall',
    ],
  ])('refuses %o with 422 and leaves the server installing', async (body, detail, rule, field) => {
    const server = await installing();
    const response = await call('POST', `/api/remote/servers/${server.uuid}/install`, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      errors: [{ code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule } }],
    });
    expect((await row(server)).status).toBe('installing');
  });
});

describe('POST /api/remote/servers/reset', () => {
  it("marks installs its daemon lost failed and clears restoring_backup, on the calling node's servers only (204)", async () => {
    const other = await createTestNode(t.ctx);
    const mine = {
      installing: await installing(),
      reinstalling: await createTestServer(t.ctx, { owner, node, eggId, status: 'installing' }),
      restoring: await createTestServer(t.ctx, { owner, node, eggId, status: 'restoring_backup' }),
      failed: await createTestServer(t.ctx, { owner, node, eggId, status: 'install_failed' }),
      suspended: await createTestServer(t.ctx, { owner, node, eggId, status: 'suspended' }),
    };
    const theirs = await createTestServer(t.ctx, { owner, node: other, eggId, status: 'installing' });
    // A reinstall: installed before.
    await t.db
      .updateTable('servers')
      .set({ installed_at: new Date('2026-01-01T00:00:00Z') })
      .where('id', '=', mine.reinstalling.id)
      .execute();
    const response = await call('POST', '/api/remote/servers/reset');
    expect(response.statusCode).toBe(204);
    // Never shown installed with a half-made folder: failed, and not counted as installed, so `aerie up` hands it to
    // the daemon again and Reinstall retries it.
    expect((await row(mine.installing)).status).toBe('install_failed');
    expect((await row(mine.installing)).installed_at).toBeNull();
    expect((await row(mine.reinstalling)).status).toBe('reinstall_failed');
    expect((await row(mine.restoring)).status).toBeNull();
    expect((await row(mine.failed)).status).toBe('install_failed');
    expect((await row(mine.suspended)).status).toBe('suspended');
    expect((await row(theirs)).status).toBe('installing');
  });
});
