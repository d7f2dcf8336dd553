import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import type { DaemonAnswer } from '@aerie/panel/test/daemon-stand-in';
import { addSubuser } from '@aerie/panel/test/server-factories';
import {
  type Actor,
  conflictStates,
  expectConflictForEach,
  serverScenarioWithDaemon,
  signedIn,
} from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** The Settings page's API and the Startup page's image switch (reference §7.2 "Startup and settings"). */

let t: TestApp;
let s: Awaited<ReturnType<typeof serverScenarioWithDaemon>>;
let reinstaller: Actor;
let imager: Actor;
let daemonAnswer: DaemonAnswer = { status: 202 };

const url = (suffix: string) => `/api/client/servers/${s.server.uuid_short}/settings/${suffix}`;
const rename = (actor: Actor, body: unknown) =>
  actor.browser.post(url('rename'), body as Record<string, unknown>);
const reinstall = (actor: Actor) => actor.browser.post(url('reinstall'));
const setImage = (actor: Actor, body: unknown) =>
  actor.browser.send('PUT', url('docker-image'), body as Record<string, unknown>);
const serverRow = () =>
  t.db.selectFrom('servers').selectAll().where('id', '=', s.server.id).executeTakeFirstOrThrow();
const callsTo = (suffix: string) => s.callsTo(suffix);

const IMAGES = { 'Node 20': 'node:20-bookworm-slim', 'Node 22': 'node:22-bookworm-slim' };

beforeAll(async () => {
  t = await buildTestApp();
  s = await serverScenarioWithDaemon(t, ['settings.rename'], (call) =>
    call.url.endsWith('/reinstall') ? daemonAnswer : { status: 204 },
  );
  await t.db
    .updateTable('eggs')
    .set({ docker_images: JSON.stringify(IMAGES) })
    .where('id', '=', s.egg.id)
    .execute();
  [reinstaller, imager] = await Promise.all([signedIn(t), signedIn(t)]);
  await addSubuser(t.ctx, s.server, reinstaller.user, ['settings.reinstall']);
  await addSubuser(t.ctx, s.server, imager.user, ['startup.docker-image']);
});
afterAll(async () => {
  await t.close();
  await s.daemon.close();
});
beforeEach(async () => {
  daemonAnswer = { status: 202 };
  await t.db
    .updateTable('servers')
    .set({ name: 'Before', description: 'Kept', status: null, image: IMAGES['Node 20'] })
    .where('id', '=', s.server.id)
    .execute();
});

describe('POST …/settings/rename', () => {
  it('renames the server, keeps the description when none is sent, and tells the daemon', async () => {
    const before = callsTo('sync').length;
    const response = await rename(s.subuser, { name: 'Lobby' });
    expect(response.statusCode).toBe(204);
    expect(await serverRow()).toMatchObject({ name: 'Lobby', description: 'Kept' });
    expect(callsTo('sync')).toHaveLength(before + 1);
    // The server the page reloads shows it at once.
    expect((await s.subuser.get(`/api/client/servers/${s.server.uuid_short}`)).json().attributes.name).toBe(
      'Lobby',
    );
  });

  it('sets the description, and null empties it', async () => {
    await rename(s.owner, { name: 'A', description: 'New words' });
    expect((await serverRow()).description).toBe('New words');
    await rename(s.owner, { name: 'A', description: null });
    expect((await serverRow()).description).toBe('');
  });

  it('wants a name of 1 to 191 characters and changes nothing otherwise', async () => {
    for (const [body, rule, detail] of [
      [{ name: '' }, 'required', 'The name field is required.'],
      [{}, 'required', 'The name field is required.'],
      [{ name: 'x'.repeat(192) }, 'max', 'The name may not be greater than 191 characters.'],
      [{ name: 5 }, 'string', 'The name must be a string.'],
    ] as const) {
      const response = await rename(s.owner, body);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[0]).toMatchObject({ detail, meta: { source_field: 'name', rule } });
    }
    expect((await serverRow()).name).toBe('Before');
  });

  it('answers 403 without settings.rename and 404 to a stranger', async () => {
    expect((await rename(s.limited, { name: 'X' })).statusCode).toBe(403);
    expect((await rename(reinstaller, { name: 'X' })).statusCode).toBe(403);
    expect((await rename(s.stranger, { name: 'X' })).statusCode).toBe(404);
    expect((await serverRow()).name).toBe('Before');
  });

  it.each(conflictStates)('answers 409 while the server is %o', async (...entry) => {
    await expectConflictForEach(t, s, entry, [s.owner], (actor) => rename(actor, { name: 'X' }));
  });
});

describe('POST …/settings/reinstall', () => {
  it('marks the server installing and has the daemon reinstall it (202, body [])', async () => {
    const before = callsTo('reinstall').length;
    const response = await reinstall(reinstaller);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual([]);
    expect((await serverRow()).status).toBe('installing');
    expect(callsTo('reinstall')).toHaveLength(before + 1);
    // Installing blocks the server's other routes until the daemon reports the result.
    expect((await rename(s.owner, { name: 'X' })).statusCode).toBe(409);
  });

  it('puts the status back when the daemon refuses, and says why', async () => {
    daemonAnswer = { status: 409, body: { error: 'The server is busy.' } };
    const response = await reinstall(s.owner);
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '409',
      detail: 'An error occurred on the remote host: The server is busy.',
    });
    expect((await serverRow()).status).toBeNull();
  });

  it('answers 403 without settings.reinstall and 404 to a stranger', async () => {
    expect((await reinstall(s.subuser)).statusCode).toBe(403);
    expect((await reinstall(s.stranger)).statusCode).toBe(404);
    expect((await serverRow()).status).toBeNull();
  });
});

describe('PUT …/settings/docker-image', () => {
  it('switches to another image the egg offers and tells the daemon', async () => {
    const before = callsTo('sync').length;
    const response = await setImage(imager, { docker_image: IMAGES['Node 22'] });
    expect(response.statusCode).toBe(204);
    expect((await serverRow()).image).toBe(IMAGES['Node 22']);
    expect(callsTo('sync')).toHaveLength(before + 1);
  });

  it('refuses an image the egg does not offer (422 in) or a malformed one (422 regex)', async () => {
    const other = await setImage(s.owner, { docker_image: 'evil/miner:latest' });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors[0]).toMatchObject({
      detail: 'The selected docker image is invalid.',
      meta: { source_field: 'docker_image', rule: 'in' },
    });
    const malformed = await setImage(s.owner, { docker_image: 'a;rm -rf /' });
    expect(malformed.json().errors[0].meta.rule).toBe('regex');
    expect((await setImage(s.owner, {})).json().errors[0].meta.rule).toBe('required');
    expect((await serverRow()).image).toBe(IMAGES['Node 20']);
  });

  it('refuses once an administrator set an image the egg does not offer', async () => {
    await t.db
      .updateTable('servers')
      .set({ image: 'custom/admin:1' })
      .where('id', '=', s.server.id)
      .execute();
    const response = await setImage(s.owner, { docker_image: IMAGES['Node 22'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      code: 'BadRequestHttpException',
      status: '400',
      detail: "This server's Docker image has been manually set by an administrator and cannot be updated.",
    });
    expect((await serverRow()).image).toBe('custom/admin:1');
  });

  it('answers 403 without startup.docker-image (startup.update is not it) and 404 to a stranger', async () => {
    expect((await setImage(s.subuser, { docker_image: IMAGES['Node 22'] })).statusCode).toBe(403);
    expect((await setImage(s.stranger, { docker_image: IMAGES['Node 22'] })).statusCode).toBe(404);
    expect((await serverRow()).image).toBe(IMAGES['Node 20']);
  });
});
