import { readBool } from '@aerie/panel/db/dialect';
import { unrecorded } from '@aerie/panel/features/audit/audit-log';
import {
  applicationRequest,
  createAdminWithKey,
  createApplicationBearer,
} from '@aerie/panel/test/application-api';
import { auditEntriesAbout, auditEntryCount } from '@aerie/panel/test/audit-entries';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { closedPort } from '@aerie/panel/test/closed-port';
import { createTestUser } from '@aerie/panel/test/factories';
import { type TransferScenario, transferScenario } from '@aerie/panel/test/transfer-scenario';
import { TRANSFER_TOKEN_SECONDS } from '@aerie/shared/transfers/transfers-daemon-wire';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The administrator's side of a transfer: `POST /api/application/servers/{id}/transfer` (checks in order, the
 * reservation, the source daemon's call and what its refusal undoes, parallel requests) and `…/transfer/cancel`, and
 * the opt-in `transfer` include. The daemons are stand-ins recording their calls; the ends of a transfer are in
 * transfers.remote.test.ts.
 */

let t: TestApp;
let s: TransferScenario;

beforeAll(async () => {
  t = await buildTestApp();
  s = await transferScenario(t);
});
afterAll(async () => {
  await t.close();
  await s.close();
});
beforeEach(() => {
  s.clearCalls();
  s.source.answerWith(() => undefined);
  s.target.answerWith(() => undefined);
});

const validation = (detail: string, field: string, rule = '') => ({
  errors: [{ code: 'ValidationException', status: '422', detail, meta: { source_field: field, rule } }],
});

describe('POST /api/application/servers/{id}/transfer', () => {
  it('reserves the allocations, records the transfer and hands it to the source with a token for the target', async () => {
    const server = await s.newServer();
    const [primary, extra] = await s.freeAllocations(s.target.node, 2);
    const before = await t.db
      .selectFrom('allocations')
      .select('id')
      .where('server_id', '=', server.id)
      .orderBy('id')
      .execute();

    const response = await s.api.transfer(server.id, {
      node_id: s.target.node.id,
      allocation_id: primary,
      allocation_additional: [extra, extra, primary],
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.body).toBe('');

    // The source is asked to send the server to the target's /api/transfers.
    expect(s.source.calls()).toEqual([`POST /api/servers/${server.uuid}/transfer`]);
    expect(s.target.calls()).toEqual([]);
    const body = s.source.daemon.calls[0]?.body as { url: string; token: string; server: unknown };
    expect(body.url).toBe(`http://127.0.0.1:${s.target.node.daemon_listen}/api/transfers`);
    expect(body.server).toEqual({ uuid: server.uuid, start_on_completion: false });
    expect(body.token).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);

    // Signed with the target's token (not the source's), Wings' and Aerie's claims, 15 minutes.
    const jwt = body.token.slice('Bearer '.length);
    const key = (node: { daemon_token: string }) =>
      new TextEncoder().encode(t.ctx.secretBox.open(node.daemon_token));
    const { payload, protectedHeader } = await jwtVerify(jwt, key(s.target.node));
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: server.uuid, server_uuid: server.uuid, purpose: 'transfer' });
    expect(payload.unique_id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload.exp).toBe((payload.iat ?? 0) + TRANSFER_TOKEN_SECONDS);
    await expect(jwtVerify(jwt, key(s.source.node))).rejects.toThrow();

    // The target's allocations are held for the server; it stays where it is until the target reports.
    expect(await s.holders([primary, extra])).toEqual({ [primary]: server.id, [extra]: server.id });
    const row = await t.db
      .selectFrom('servers')
      .selectAll()
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(row.node_id).toBe(s.source.node.id);
    expect(row.allocation_id).toBe(server.allocation_id);
    const [transfer, ...more] = await s.transfersOf(server.id);
    expect(more).toEqual([]);
    expect(transfer).toMatchObject({
      successful: null,
      old_node: s.source.node.id,
      new_node: s.target.node.id,
      old_allocation: server.allocation_id,
      new_allocation: primary,
      failure: null,
    });
    expect(JSON.parse(transfer?.old_additional_allocations ?? '')).toEqual(
      before.map(({ id }) => id).filter((id) => id !== server.allocation_id),
    );
    expect(JSON.parse(transfer?.new_additional_allocations ?? '')).toEqual([extra]);
    expect(readBool(transfer?.archived ?? true)).toBe(false);

    // include=transfer shows it running.
    const shown = await s.api.get(`servers/${server.id}?include=transfer`);
    expect(shown.json().attributes.relationships.transfer).toEqual({
      object: 'server_transfer',
      attributes: {
        id: transfer?.id,
        server_id: server.id,
        successful: null,
        old_node: s.source.node.id,
        new_node: s.target.node.id,
        old_allocation: server.allocation_id,
        new_allocation: primary,
        old_additional_allocations: JSON.parse(transfer?.old_additional_allocations ?? ''),
        new_additional_allocations: [extra],
        archived: false,
        failure: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        updated_at: expect.stringMatching(/\+00:00$/),
      },
    });
  });

  it('answers 404 for a server that does not exist', async () => {
    const [primary] = await s.freeAllocations(s.target.node, 1);
    const response = await s.api.transfer(999_999, { node_id: s.target.node.id, allocation_id: primary });
    expect(response.statusCode).toBe(404);
    expect(response.json().errors[0].code).toBe('NotFoundHttpException');
  });

  it('answers 409 before validating while the server is not installed, restores a backup or is transferring', async () => {
    const cases: [string, string][] = [
      ['installing', 'This server has not yet completed its installation process, please try again later.'],
      [
        'install_failed',
        'This server has not yet completed its installation process, please try again later.',
      ],
      ['restoring_backup', 'This server is currently restoring from a backup, please try again later.'],
    ];
    for (const [status, detail] of cases) {
      const server = await s.newServer({ status });
      const response = await s.api.transfer(server.id, {});
      expect(response.statusCode, status).toBe(409);
      expect(response.json().errors).toEqual([
        { code: 'ServerStateConflictException', status: '409', detail },
      ]);
    }
    const server = await s.newServer();
    const [first, second] = await s.freeAllocations(s.target.node, 2);
    const started = await s.api.transfer(server.id, { node_id: s.target.node.id, allocation_id: first });
    expect(started.statusCode).toBe(202);
    const again = await s.api.transfer(server.id, { node_id: s.target.node.id, allocation_id: second });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].detail).toBe(
      'This server is currently being transferred to a new machine, please try again later.',
    );
    expect(await s.holders([second])).toEqual({ [second]: null });
    // A suspended server may move, as in Pterodactyl.
    const suspended = await s.newServer({ status: 'suspended' });
    const [third] = await s.freeAllocations(s.target.node, 1);
    const moved = await s.api.transfer(suspended.id, { node_id: s.target.node.id, allocation_id: third });
    expect(moved.statusCode).toBe(202);
  });

  it('answers 422 for the body, the node and the allocations, reserving nothing', async () => {
    const server = await s.newServer();
    const [free, used, onStranger] = [
      ...(await s.freeAllocations(s.target.node, 2)),
      ...(await s.freeAllocations(s.stranger, 1)),
    ] as [number, number, number];
    const other = await s.newServer();
    await t.db.updateTable('allocations').set({ server_id: other.id }).where('id', '=', used).execute();

    const body = (overrides: Record<string, unknown>) => ({
      node_id: s.target.node.id,
      allocation_id: free,
      ...overrides,
    });
    const cases: [Record<string, unknown>, ReturnType<typeof validation>][] = [
      [
        { node_id: null, allocation_id: 'x' },
        {
          errors: [
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The node id field is required.',
              meta: { source_field: 'node_id', rule: 'required' },
            },
            {
              code: 'ValidationException',
              status: '422',
              detail: 'The allocation id must be an integer.',
              meta: { source_field: 'allocation_id', rule: 'integer' },
            },
          ],
        },
      ],
      [
        body({ allocation_additional: 'all' }),
        validation('The allocation additional must be an array.', 'allocation_additional', 'array'),
      ],
      [body({ node_id: 999_999 }), validation('The selected node id is invalid.', 'node_id', 'exists')],
      [
        body({ node_id: s.source.node.id }),
        validation('The server is already on the selected node.', 'node_id'),
      ],
      [
        body({ allocation_id: onStranger }),
        validation('The selected allocation id is invalid.', 'allocation_id', 'exists'),
      ],
      [
        body({ allocation_id: 999_999 }),
        validation('The selected allocation id is invalid.', 'allocation_id', 'exists'),
      ],
      [
        body({ allocation_id: used }),
        validation('The selected allocation is no longer available.', 'allocation_id'),
      ],
      [
        body({ allocation_additional: [free, used] }),
        validation('The selected allocation is no longer available.', 'allocation_additional.1'),
      ],
      [
        body({ allocation_additional: [onStranger] }),
        validation('The selected allocation_additional.0 is invalid.', 'allocation_additional.0', 'exists'),
      ],
    ];
    for (const [sent, expected] of cases) {
      const response = await s.api.transfer(server.id, sent);
      expect(response.statusCode, JSON.stringify(sent)).toBe(422);
      expect(response.json(), JSON.stringify(sent)).toEqual(expected);
    }

    await t.db
      .updateTable('nodes')
      .set({ maintenance_mode: true })
      .where('id', '=', s.target.node.id)
      .execute();
    try {
      const response = await s.api.transfer(server.id, body({}));
      expect(response.json()).toEqual(validation('The selected node is under maintenance.', 'node_id'));
    } finally {
      await t.db
        .updateTable('nodes')
        .set({ maintenance_mode: false })
        .where('id', '=', s.target.node.id)
        .execute();
    }

    expect(await s.holders([free])).toEqual({ [free]: null });
    expect(await s.transfersOf(server.id)).toEqual([]);
    expect(s.source.calls()).toEqual([]);
  });

  it("answers 422 when the server does not fit in the target's memory or disk, counting servers on their way there", async () => {
    const { node: small } = s.target;
    const server = await s.newServer({ memory: 600, disk: 600 });
    const second = await s.newServer({ memory: 600, disk: 600 });
    const [a, b] = await s.freeAllocations(small, 2);
    // Room for one of them: the target already runs what it has been given; 600 more fits once, not twice.
    const committed = await t.db
      .selectFrom('servers')
      .select((eb) => [eb.fn.sum<number>('memory').as('memory'), eb.fn.sum<number>('disk').as('disk')])
      .where('node_id', '=', small.id)
      .executeTakeFirstOrThrow();
    const incoming = await t.db
      .selectFrom('servers')
      .innerJoin('server_transfers', 'server_transfers.server_id', 'servers.id')
      .select((eb) => [
        eb.fn.sum<number>('servers.memory').as('memory'),
        eb.fn.sum<number>('servers.disk').as('disk'),
      ])
      .where('server_transfers.new_node', '=', small.id)
      .where('server_transfers.successful', 'is', null)
      .executeTakeFirstOrThrow();
    const used = (value: unknown) => Number(value ?? 0);
    const limits = {
      memory: used(committed.memory) + used(incoming.memory) + 900,
      disk: used(committed.disk) + used(incoming.disk) + 900,
    };
    const original = await t.db
      .selectFrom('nodes')
      .select(['memory', 'disk'])
      .where('id', '=', small.id)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('nodes').set(limits).where('id', '=', small.id).execute();
    try {
      expect((await s.api.transfer(server.id, { node_id: small.id, allocation_id: a })).statusCode).toBe(202);
      const full = await s.api.transfer(second.id, { node_id: small.id, allocation_id: b });
      expect(full.json()).toEqual(
        validation(
          'The node you selected does not have the required disk space or memory available to accommodate this server.',
          'node_id',
        ),
      );
      expect(await s.holders([b])).toEqual({ [b]: null });
      expect(await s.transfersOf(second.id)).toEqual([]);
    } finally {
      await t.db.updateTable('nodes').set(original).where('id', '=', small.id).execute();
    }
  });

  it('never books an allocation twice, nor starts two transfers of one server, under parallel requests', async () => {
    const [first, second] = [await s.newServer(), await s.newServer()];
    const [shared, another] = await s.freeAllocations(s.target.node, 2);
    const sameAllocation = await Promise.all(
      [first, second].map((server) =>
        s.api.transfer(server.id, { node_id: s.target.node.id, allocation_id: shared }),
      ),
    );
    expect(sameAllocation.map((response) => response.statusCode).sort()).toEqual([202, 422]);
    const winner = sameAllocation[0]?.statusCode === 202 ? first : second;
    const loser = winner === first ? second : first;
    expect(await s.holders([shared])).toEqual({ [shared]: winner.id });
    expect(await s.transfersOf(loser.id)).toEqual([]);

    const [x, y] = await s.freeAllocations(s.target.node, 2);
    const sameServer = await Promise.all(
      [x, y].map((allocation) =>
        s.api.transfer(loser.id, { node_id: s.target.node.id, allocation_id: allocation }),
      ),
    );
    expect(sameServer.map((response) => response.statusCode).sort()).toEqual([202, 409]);
    const held = await s.holders([x, y, another]);
    expect(Object.values(held).filter((holder) => holder === loser.id)).toHaveLength(1);
    expect(held[another]).toBeNull();
    expect((await s.transfersOf(loser.id)).filter((row) => row.successful === null)).toHaveLength(1);
    expect(s.source.calls().filter((call) => call.endsWith('/transfer'))).toHaveLength(2);
  });

  it('decides again under the locks for requests that all passed the checks before the reservation', async () => {
    // Called at once, every start reads before any reserves (one SQLite connection, in arrival order), so only the
    // reservation's own conditional update and re-check can tell them apart.
    const servers = [await s.newServer(), await s.newServer(), await s.newServer()];
    const [shared] = await s.freeAllocations(s.target.node, 1);
    const body = { node_id: s.target.node.id, allocation_id: shared };
    const results = await Promise.allSettled(
      servers.map((server) => t.ctx.transfers.start(server, body, unrecorded)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((entry) => entry.status === 'rejected')) {
      expect(result.reason).toMatchObject({
        statusCode: 422,
        detail: 'The selected allocation is no longer available.',
      });
    }
    const winner = servers[results.findIndex((result) => result.status === 'fulfilled')];
    expect(await s.holders([shared])).toEqual({ [shared]: winner?.id });
    const running = await t.db
      .selectFrom('server_transfers')
      .select('server_id')
      .where(
        'server_id',
        'in',
        servers.map((server) => server.id),
      )
      .execute();
    expect(running).toEqual([{ server_id: winner?.id }]);

    const [server] = servers;
    const allocations = await s.freeAllocations(s.target.node, 3);
    const again = await Promise.allSettled(
      allocations.map((id) =>
        t.ctx.transfers.start(server as (typeof servers)[0], { ...body, allocation_id: id }, unrecorded),
      ),
    );
    const started = again.filter((result) => result.status === 'fulfilled').length;
    // The first server may be the one that already runs one: then none more starts.
    expect(started).toBe(server === winner ? 0 : 1);
    for (const result of again.filter((entry) => entry.status === 'rejected')) {
      expect(result.reason).toMatchObject({ statusCode: 409 });
    }
    const held = Object.values(await s.holders(allocations)).filter((holder) => holder !== null);
    expect(held).toHaveLength(started);
  });

  it('ends the transfer failed and frees its allocations when the source refuses it or cannot be reached', async () => {
    const cases: [() => void, number, string, string][] = [
      [
        () =>
          s.source.answerWith(() => ({
            status: 409,
            body: { error: 'This server is currently installing.' },
          })),
        409,
        'An error occurred on the remote host: This server is currently installing.',
        'the source node refused the transfer: This server is currently installing.',
      ],
      [
        () => s.source.answerWith(() => ({ status: 500, body: { error: 'disk on fire' } })),
        502,
        'An error occurred on the remote host: disk on fire.',
        'the source node refused the transfer: disk on fire',
      ],
    ];
    for (const [arrange, status, detail, failure] of cases) {
      arrange();
      const server = await s.newServer();
      const [primary, extra] = await s.freeAllocations(s.target.node, 2);
      const response = await s.api.transfer(server.id, {
        node_id: s.target.node.id,
        allocation_id: primary,
        allocation_additional: [extra],
      });
      expect(response.statusCode).toBe(status);
      expect(response.json().errors).toEqual([
        { code: 'DaemonConnectionException', status: String(status), detail },
      ]);
      expect(await s.holders([primary, extra])).toEqual({ [primary]: null, [extra]: null });
      const [transfer] = await s.transfersOf(server.id);
      expect(readBool(transfer?.successful ?? true)).toBe(false);
      expect(transfer?.failure).toBe(failure);
    }

    // A source that cannot be reached: 502, and the server can be transferred again at once.
    const server = await s.newServer();
    const [primary] = await s.freeAllocations(s.target.node, 1);
    const port = s.source.node.daemon_listen;
    await t.db
      .updateTable('nodes')
      .set({ daemon_listen: await closedPort() })
      .where('id', '=', s.source.node.id)
      .execute();
    try {
      const response = await s.api.transfer(server.id, { node_id: s.target.node.id, allocation_id: primary });
      expect(response.statusCode).toBe(502);
      expect(response.json().errors[0].detail).toBe(
        'Could not establish a connection to the machine running this server. Please try again.',
      );
      expect((await s.transfersOf(server.id))[0]?.failure).toBe('the source node could not be reached');
    } finally {
      await t.db
        .updateTable('nodes')
        .set({ daemon_listen: port })
        .where('id', '=', s.source.node.id)
        .execute();
    }
    s.source.answerWith(() => undefined);
    const retried = await s.api.transfer(server.id, { node_id: s.target.node.id, allocation_id: primary });
    expect(retried.statusCode).toBe(202);
  });

  it('needs the servers write bit of an application key', async () => {
    const server = await s.newServer();
    const { user } = await createTestUser(t.ctx, { rootAdmin: true });
    const readOnly = await createApplicationBearer(t.ctx, user, { servers: 1 });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/application/servers/${server.id}/transfer`,
      headers: {
        authorization: `Bearer ${readOnly}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      payload: '{}',
    });
    expect(response.statusCode).toBe(403);
    expect(await s.transfersOf(server.id)).toEqual([]);
  });
});

describe('POST /api/application/servers/{id}/transfer/cancel', () => {
  it('ends the running transfer failed, frees what it held, tells both nodes; 409 when none runs', async () => {
    const server = await s.newServer();
    expect((await s.api.cancel(server.id)).json().errors).toEqual([
      { code: 'ConflictHttpException', status: '409', detail: 'This server is not being transferred.' },
    ]);
    const [primary, extra] = await s.freeAllocations(s.target.node, 2);
    await s.api.transfer(server.id, {
      node_id: s.target.node.id,
      allocation_id: primary,
      allocation_additional: [extra],
    });
    s.clearCalls();
    // A daemon that no longer runs it (409) does not keep the panel's transfer running.
    s.target.answerWith(() => ({ status: 409, body: { error: 'This server is not being transferred.' } }));

    const response = await s.api.cancel(server.id);
    expect(response.statusCode).toBe(204);
    expect(s.source.calls()).toEqual([`DELETE /api/servers/${server.uuid}/transfer`]);
    expect(s.target.calls()).toEqual([`DELETE /api/transfers/${server.uuid}`]);
    const [transfer] = await s.transfersOf(server.id);
    expect(readBool(transfer?.successful ?? true)).toBe(false);
    expect(transfer?.failure).toBe('cancelled by an administrator');
    expect(await s.holders([primary, extra])).toEqual({ [primary]: null, [extra]: null });
    const row = await t.db
      .selectFrom('servers')
      .select(['node_id', 'allocation_id'])
      .where('id', '=', server.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ node_id: s.source.node.id, allocation_id: server.allocation_id });
    expect((await s.api.cancel(server.id)).statusCode).toBe(409);
    expect((await s.api.cancel(999_999)).statusCode).toBe(404);
  });
});

describe('include=transfer', () => {
  it('is null_resource for a server never transferred, and absent unless asked for', async () => {
    const server = await s.newServer();
    const shown = await s.api.get(`servers/${server.id}?include=transfer`);
    expect(shown.json().attributes.relationships.transfer).toEqual({
      object: 'null_resource',
      attributes: null,
    });
    const plain = await s.api.get(`servers/${server.id}`);
    expect(plain.json().attributes.relationships).toBeUndefined();
  });
});

describe('the admin audit log of a transfer', () => {
  it('records the start and the cancel once each, about the server, which stays where it is meanwhile', async () => {
    const { admin, bearer } = await createAdminWithKey(t.ctx);
    const server = await s.newServer();
    const [primary] = await s.freeAllocations(s.target.node, 1);
    const body = { node_id: s.target.node.id, allocation_id: primary };
    const post = (url: string, payload?: unknown) =>
      applicationRequest(t.app, bearer, 'POST', `servers/${server.id}/${url}`, payload, {
        ip: '203.0.113.9',
      });
    expect((await post('transfer', body)).statusCode).toBe(202);
    expect((await post('transfer/cancel')).statusCode).toBe(204);

    const who = {
      actorId: admin.id,
      actorName: admin.username,
      apiKey: bearer.slice(0, 16),
      ip: '203.0.113.9',
    };
    const onSource = expect.objectContaining({
      id: server.id,
      uuid: server.uuid,
      node: s.source.node.id,
      allocation: server.allocation_id,
    });
    expect(await auditEntriesAbout(t.db, 'server', server.id)).toEqual(
      ['server.transfer', 'server.transfer_cancel'].map((action) => ({
        ...who,
        action,
        before: onSource,
        after: onSource,
        createdAt: expect.any(Date),
      })),
    );
  });

  it('records nothing for a start refused with 404, 409 or 422, nor for a cancel with none running', async () => {
    const server = await s.newServer();
    const installing = await s.newServer({ status: 'installing' });
    const [primary] = await s.freeAllocations(s.target.node, 1);
    const count = await auditEntryCount(t.db);

    expect(
      (await s.api.transfer(999_999, { node_id: s.target.node.id, allocation_id: primary })).statusCode,
    ).toBe(404);
    expect((await s.api.transfer(installing.id, {})).statusCode).toBe(409);
    const sameNode = { node_id: s.source.node.id, allocation_id: primary };
    expect((await s.api.transfer(server.id, sameNode)).statusCode).toBe(422);
    expect((await s.api.cancel(server.id)).statusCode).toBe(409);
    expect((await s.api.cancel(999_999)).statusCode).toBe(404);

    expect(await auditEntryCount(t.db)).toBe(count);
  });
});
