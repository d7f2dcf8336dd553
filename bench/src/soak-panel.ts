import { readFileSync } from 'node:fs';
import { benchAdmin, freePort, preparePanel, runNode } from './bench-setup';
import { startChildServer } from './child-server';
import { sessionApiHeaders, signIn } from './sign-in';

/** A soak server as the client API names it. */
export interface SoakServer {
  identifier: string;
}

export interface SoakPanel {
  url: string;
  /** The `aerie up` process: the panel itself. */
  panelPid: number;
  /** Its local daemon. */
  daemonPid: number;
  servers: SoakServer[];
  /** Cookie headers of two signed-in users who may open every server's console: its owner and the root admin. */
  sessions: string[];
  stop: () => Promise<void>;
}

const owner = { username: 'soak-owner', email: 'soak-owner@example.com', password: 'soak owner password 1' };

/**
 * `aerie up` (panel and local daemon, as a host runs it) on a fresh data directory, with `count` demo servers
 * created through the Application API and running. Two users hold sessions, since the daemon keeps one user to 10
 * sockets per server.
 */
export async function startSoakPanel(count: number): Promise<SoakPanel> {
  const prepared = await preparePanel();
  Object.assign(prepared.env, {
    API_APPLICATION_RATELIMIT: '0',
    // The API mix stands for many users but comes from one address: the per-address bound would cut it short.
    PANEL_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    DAEMON_PORT: String(await freePort()),
    DAEMON_SFTP_PORT: String(await freePort()),
  });
  const key = runNode(
    ['bin/aerie.mjs', 'key:create', '--application', '--user', benchAdmin.username],
    prepared.env,
  )
    .trim()
    .split('\n')
    .at(-1);
  const url = `http://127.0.0.1:${prepared.port}`;
  // Stopping ends every game first (Ctrl-C's behaviour): give it time.
  const child = await startChildServer(['bin/aerie.mjs', 'up'], prepared.env, url, '/auth/login', {
    stopWithinMs: 60_000,
  }).catch((error: unknown) => {
    prepared.cleanUp();
    throw error;
  });
  const stop = async () => {
    await child.stop();
    prepared.cleanUp();
  };
  try {
    // The panel answers before its daemon does; anything but a refused connection means it listens.
    await waitFor('the local daemon', 120_000, async () =>
      fetch(`http://127.0.0.1:${prepared.env.DAEMON_PORT}/api/system`).then(
        () => true,
        () => false,
      ),
    );
    const api = applicationApi(url, key ?? '');
    console.log('  creating servers…');
    const servers = await createServers(api, count);
    console.log('  signing in, starting servers…');
    const sessions = await Promise.all(
      [owner, benchAdmin].map(async (user) =>
        withXsrfToken(url, await signIn(url, user.username, user.password)),
      ),
    );
    await startAll(url, sessions[1] ?? '', servers);
    return {
      url,
      panelPid: child.pid,
      daemonPid: daemonOf(child.pid),
      servers,
      sessions,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function applicationApi(url: string, key: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api/application${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 400)}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
}

type Api = ReturnType<typeof applicationApi>;
interface Item<T> {
  attributes: T;
}
interface List<T> {
  data: Item<T>[];
}

/** The demo egg's servers on the local node, one allocation each, owned by `soak-owner`; installed and started. */
async function createServers(api: Api, count: number): Promise<SoakServer[]> {
  const node = (await api<List<{ id: number }>>('GET', '/nodes')).data[0]?.attributes.id;
  const nests = await api<
    List<{
      relationships: {
        eggs: List<{ id: number; name: string; startup: string; docker_images: Record<string, string> }>;
      };
    }>
  >('GET', '/nests?include=eggs');
  const egg = nests.data
    .flatMap((nest) => nest.attributes.relationships.eggs.data)
    .find((item) => /demo/i.test(item.attributes.name))?.attributes;
  if (node === undefined || !egg) throw new Error('no local node or demo egg');
  const user = await api<Item<{ id: number }>>('POST', '/users', {
    ...owner,
    first_name: 'Soak',
    last_name: 'Owner',
  });
  const firstPort = 41_000;
  await api('POST', `/nodes/${node}/allocations`, {
    ip: '127.0.0.1',
    ports: [`${firstPort}-${firstPort + count - 1}`],
  });
  const allocations = await api<List<{ id: number; port: number }>>(
    'GET',
    `/nodes/${node}/allocations?per_page=${count + 100}`,
  );
  const free = allocations.data
    .map((item) => item.attributes)
    .filter((allocation) => allocation.port >= firstPort && allocation.port < firstPort + count);
  const servers: SoakServer[] = [];
  for (const [index, allocation] of free.entries()) {
    const created = await api<Item<{ identifier: string }>>('POST', '/servers', {
      name: `Soak ${index + 1}`,
      user: user.attributes.id,
      egg: egg.id,
      docker_image: Object.values(egg.docker_images)[0],
      startup: egg.startup,
      environment: { MOTD: 'soak', MAX_PLAYERS: '10' },
      // Unlimited (0): the local node is sized for a few servers, not a hundred.
      limits: { memory: 0, swap: 0, disk: 0, io: 500, cpu: 0 },
      feature_limits: { databases: 0, allocations: 1, backups: 0 },
      allocation: { default: allocation.id },
      start_on_completion: true,
    });
    servers.push({ identifier: created.attributes.identifier });
  }
  return servers;
}

/** Waits until every server runs, starting those an install left offline. */
async function startAll(url: string, cookie: string, servers: SoakServer[]) {
  const headers = sessionWriteHeaders(cookie);
  const waiting = new Set(servers.map((server) => server.identifier));
  const states = new Map<string, string>();
  const progress = () =>
    `${waiting.size} not running: ${[...new Set(states.values())].join(', ').slice(0, 600)}`;
  await waitFor(
    `${servers.length} servers running`,
    600_000,
    async () => {
      for (const identifier of [...waiting]) {
        const base = `${url}/api/client/servers/${identifier}`;
        const resources = await fetch(`${base}/resources`, { headers });
        const state = resources.ok
          ? ((await resources.json()) as { attributes: { current_state: string } }).attributes.current_state
          : `resources ${resources.status}`;
        states.set(identifier, state);
        if (state === 'running') waiting.delete(identifier);
        else if (state === 'offline') {
          const power = await fetch(`${base}/power`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ signal: 'start' }),
          });
          if (power.status !== 204) states.set(identifier, `start ${power.status} ${await power.text()}`);
        }
      }
      return waiting.size === 0;
    },
    progress,
  );
}

/**
 * Signing in drops the CSRF secret (a fresh one per session); `GET /sanctum/csrf-cookie` hands out the next one, as
 * Laravel-style clients ask for it. Returns the Cookie header with both.
 */
async function withXsrfToken(url: string, cookie: string): Promise<string> {
  const response = await fetch(`${url}/sanctum/csrf-cookie`, { headers: { cookie } });
  const jar = new Map(
    cookie
      .split('; ')
      .map((pair) => pair.split('='))
      .map(([name = '', ...value]) => [name, value.join('=')] as const),
  );
  for (const set of response.headers.getSetCookie()) {
    const [name = '', ...value] = (set.split(';')[0] ?? '').split('=');
    jar.set(name.trim(), value.join('='));
  }
  return [...jar]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

/**
 * The headers of a client API request with a session, writes included: the CSRF token is the readable XSRF-TOKEN
 * cookie echoed back, as Laravel-style clients do.
 */
export function sessionWriteHeaders(cookie: string): Record<string, string> {
  const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1];
  return {
    ...sessionApiHeaders(cookie),
    'content-type': 'application/json',
    ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
  };
}

/** The daemon `aerie up` started: its child running `aerie daemon`. */
function daemonOf(panelPid: number): number {
  const children = readFileSync(`/proc/${panelPid}/task/${panelPid}/children`, 'utf8').trim().split(/\s+/);
  for (const pid of children) {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (command.includes('daemon')) return Number(pid);
  }
  throw new Error('aerie up runs no daemon');
}

async function waitFor(
  what: string,
  timeoutMs: number,
  done: () => Promise<boolean>,
  progress: () => string = () => '',
) {
  const deadline = Date.now() + timeoutMs;
  let reported = Date.now();
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${progress()}`);
    if (Date.now() - reported > 15_000) {
      console.log(`  waiting for ${what} ${progress()}`);
      reported = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
