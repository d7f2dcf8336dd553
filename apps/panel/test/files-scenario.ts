import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './build-test-app';
import { type DaemonAnswer, type DaemonCall, startDaemonStandIn, wingsFileAnswers } from './daemon-stand-in';
import { type Actor, serverScenario } from './server-scenario';

/**
 * A server scenario whose node is a daemon stand-in on a real socket that answers the files routes like Wings
 * over `files` (seeded with `hello.txt`). `override` answers first, per test.
 */
export async function filesScenario(t: TestApp, subuserPermissions: string[]) {
  const s = await serverScenario(t, subuserPermissions);
  const token = t.ctx.secretBox.open(s.node.daemon_token);
  const files = new Map<string, Buffer>([['hello.txt', Buffer.from('hello world\n')]]);
  const wings = wingsFileAnswers(files);
  let override: ((call: DaemonCall) => DaemonAnswer | undefined) | undefined;
  const daemon = await startDaemonStandIn({
    token,
    answer: (call) => override?.(call) ?? wings(call),
  });
  await t.db
    .updateTable('nodes')
    .set({ fqdn: '127.0.0.1', daemon_listen: daemon.port })
    .where('id', '=', s.node.id)
    .execute();
  const base = `/api/client/servers/${s.server.uuid_short}/files`;
  return {
    ...s,
    daemon,
    token,
    files,
    /** Answers the daemon's calls with `answer` first until reset with undefined. */
    answerWith(answer: ((call: DaemonCall) => DaemonAnswer | undefined) | undefined) {
      override = answer;
    },
    /** The node's address as the panel now knows it. */
    nodeAddress: `http://127.0.0.1:${daemon.port}`,
    base,
    /** A client call to `<base>/<path>`: GET without body, else a JSON body (or a raw string with its type). */
    call(
      actor: Actor,
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<LightMyRequestResponse> {
      const url = `${base}/${path}`;
      if (method === 'GET') return actor.get(url);
      const payload = typeof body === 'string' ? body : (body as Record<string, unknown> | undefined);
      return actor.browser.send(method, url, payload, { headers });
    },
  };
}

export type FilesScenario = Awaited<ReturnType<typeof filesScenario>>;
