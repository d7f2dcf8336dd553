import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { type FilesScenario, filesScenario } from '@aerie/panel/test/files-scenario';
import type { Actor } from '@aerie/panel/test/server-scenario';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let f: FilesScenario;
beforeAll(async () => {
  t = await buildTestApp();
  // The subuser holds file.create; `limited` only websocket.connect.
  f = await filesScenario(t, ['file.create']);
});
afterAll(async () => {
  await t.close();
  await f.daemon.close();
});
beforeEach(() => {
  // The daemon accepts a background pull with 202 {identifier}, a foreground one with the file's stat.
  f.answerWith((call) =>
    call.path.endsWith('/files/pull')
      ? (call.body as { foreground?: boolean }).foreground
        ? { status: 200, body: { name: 'x', size: 1 } }
        : { status: 202, body: { identifier: 'a1b2' } }
      : undefined,
  );
});

const pullCalls = () => f.daemon.calls.filter((call) => call.path.endsWith('/files/pull'));
const pull = (actor: Actor, body: unknown) => f.call(actor, 'POST', 'pull', body);

async function pullActivity(actor: Actor) {
  const response = await actor.get(
    `/api/client/servers/${f.server.uuid_short}/activity?filter[event]=file.pull&sort=-timestamp`,
  );
  return (response.json() as { data: { attributes: { event: string; properties: unknown } }[] }).data.map(
    (entry) => entry.attributes,
  );
}

describe('POST /api/client/servers/{server}/files/pull', () => {
  it('relays Wings’ body (root, file_name, use_header, foreground), answers 204 and logs server:file.pull', async () => {
    const before = pullCalls().length;
    const background = await pull(f.owner, { url: 'https://cdn.example.com/mods/a.jar', directory: '/mods' });
    expect(background.statusCode).toBe(204);
    expect(background.body).toBe('');
    const foreground = await pull(f.owner, {
      url: 'https://cdn.example.com/pack.zip',
      filename: 'pack file.zip ',
      use_header: '1',
      foreground: true,
    });
    expect(foreground.statusCode).toBe(204);
    expect(
      pullCalls()
        .slice(before)
        .map((call) => call.body),
    ).toEqual([
      { url: 'https://cdn.example.com/mods/a.jar', root: '/mods' },
      {
        url: 'https://cdn.example.com/pack.zip',
        root: '/',
        file_name: 'pack file.zip ',
        use_header: true,
        foreground: true,
      },
    ]);
    expect(pullCalls().at(-1)?.headers.authorization).toBe(`Bearer ${f.token}`);
    // Directories are shown as /x/ by the activity presenter.
    expect((await pullActivity(f.owner)).slice(0, 2)).toEqual([
      expect.objectContaining({
        event: 'server:file.pull',
        properties: { directory: '/', url: 'https://cdn.example.com/pack.zip', filename: 'pack file.zip ' },
      }),
      expect.objectContaining({
        event: 'server:file.pull',
        properties: { directory: '/mods/', url: 'https://cdn.example.com/mods/a.jar' },
      }),
    ]);
  });

  it('never stores the URL’s user name and password in the activity log (the daemon gets them)', async () => {
    const url = 'https://player:hunter2@files.example.com/world.zip';
    expect((await pull(f.owner, { url })).statusCode).toBe(204);
    expect(pullCalls().at(-1)?.body).toMatchObject({ url });
    const [entry] = await pullActivity(f.owner);
    expect(entry?.properties).toEqual({ directory: '/', url: 'https://files.example.com/world.zip' });
    expect(JSON.stringify(await pullActivity(f.owner))).not.toContain('hunter2');
  });

  it('404 for a stranger, 403 for a subuser without file.create, 204 for one with it; nothing relayed when refused', async () => {
    const before = pullCalls().length;
    const body = { url: 'https://cdn.example.com/a.jar' };
    const stranger = await pull(f.stranger, body);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().errors[0].code).toBe('NotFoundHttpException');
    const limited = await pull(f.limited, body);
    expect(limited.statusCode).toBe(403);
    expect(limited.json().errors[0]).toEqual({
      code: 'AccessDeniedHttpException',
      status: '403',
      detail: 'This action is unauthorized.',
    });
    expect(pullCalls().length).toBe(before);
    expect((await pull(f.subuser, body)).statusCode).toBe(204);
    expect(pullCalls().length).toBe(before + 1);
  });

  it('validates as PullFileRequest (422, Laravel’s wording) and relays nothing', async () => {
    const before = pullCalls().length;
    const missing = await pull(f.subuser, { directory: '/' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0]).toMatchObject({
      detail: 'The url field is required.',
      meta: { source_field: 'url', rule: 'required' },
    });
    for (const url of ['not a url', 'cdn.example.com/a.jar', 'http://', 'https:// spaced.example.com/']) {
      const bad = await pull(f.subuser, { url });
      expect(bad.statusCode, url).toBe(422);
      expect(bad.json().errors[0]).toMatchObject({
        detail: 'The url format is invalid.',
        meta: { source_field: 'url', rule: 'url' },
      });
    }
    const flags = await pull(f.subuser, {
      url: 'https://a.example.com/x',
      use_header: 'yes',
      foreground: null,
    });
    expect(flags.statusCode).toBe(422);
    expect(flags.json().errors.map((error: { detail: string }) => error.detail)).toEqual([
      'The use header field must be true or false.',
      'The foreground field must be true or false.',
    ]);
    expect(pullCalls().length).toBe(before);
  });

  it('relays the daemon’s refusal (e.g. a loopback destination) and logs nothing', async () => {
    f.answerWith((call) =>
      call.path.endsWith('/files/pull')
        ? {
            status: 400,
            body: { error: "The URL's host is a loopback address: this node does not download from it." },
          }
        : undefined,
    );
    const before = (await pullActivity(f.owner)).length;
    const response = await pull(f.owner, { url: 'http://localhost:8080/secret' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      code: 'DaemonConnectionException',
      status: '400',
      detail:
        "An error occurred on the remote host: The URL's host is a loopback address: this node does not download from it.",
    });
    expect((await pullActivity(f.owner)).length).toBe(before);
  });

  it('throttles 10 pulls per 5 minutes per user (429 with Retry-After); others are not affected', async () => {
    const before = pullCalls().length;
    const body = { url: 'https://cdn.example.com/a.jar' };
    for (let n = 0; n < 10; n++) expect((await pull(f.admin, body)).statusCode).toBe(204);
    const eleventh = await pull(f.admin, body);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().errors[0].code).toBe('TooManyRequestsHttpException');
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(eleventh.headers['retry-after'])).toBeLessThanOrEqual(300);
    expect(eleventh.headers['x-ratelimit-limit']).toBe('10');
    expect(pullCalls().length).toBe(before + 10);
    // The owner's own budget is untouched by the admin's.
    expect((await pull(f.owner, body)).statusCode).toBe(204);
  });
});
