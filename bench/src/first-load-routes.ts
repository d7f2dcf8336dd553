import { runNode } from './bench-setup';
import { type FirstLoadJs, measureFirstLoadJs } from './first-load-js';
import { sessionApiHeaders, signIn } from './sign-in';
import type { SummaryRow } from './summary';

/** The signed-in user of the measured pages: a customer, not an admin (the admin area must never add to them). */
export const firstLoadCustomer = {
  username: 'first-load-customer',
  email: 'first-load-customer@example.com',
  password: 'first-load customer password 1',
};

/** Goals of issue 19 ("Performance"), gzip bytes of every script a first visit fetches. */
export const firstLoadGoals = {
  login: 120 * 1024,
  dashboard: 150 * 1024,
  console: 230 * 1024,
  files: 180 * 1024,
} as const;

/** Pterodactyl 1.x's dashboard, for reference: ≈538 KB gzip of first-load JavaScript (issue 19's figure). */
export const pterodactylDashboardKb = 538;

export type FirstLoadRouteName = keyof typeof firstLoadGoals;

export interface FirstLoadRoute extends FirstLoadJs {
  name: FirstLoadRouteName;
  /** The path measured, e.g. `/server/1a2b3c4d/files`. */
  path: string;
  goalBytes: number;
  /** gzipBytes / goalBytes: at most 1 meets the goal. */
  ratio: number;
}

const describe: Record<FirstLoadRouteName, string> = {
  login: '/auth/login (guest)',
  dashboard: '/ (signed in, not an admin)',
  console: '/server/<id> (console)',
  files: '/server/<id>/files',
};

/**
 * First-load JavaScript of the four pages of issue 19 on an already running panel: the sign-in page as a guest, then,
 * signed in as a customer who is not an admin, the dashboard, a server's console and its file manager. `env` is the
 * panel's environment (DATA_DIR / DATABASE_URL): the customer is made with `aerie user:create` and, after the
 * dashboard was measured (so it is the empty dashboard, as before), one server they own with the benchmarks' seeder
 * (a node without a daemon: the console and files pages still load all their code, their socket and listing fail).
 * Call it once per data directory (the customer's username is fixed).
 */
export async function measureFirstLoadRoutes(
  panelUrl: string,
  env: Record<string, string>,
): Promise<FirstLoadRoute[]> {
  const { username, email, password } = firstLoadCustomer;
  runNode(
    ['bin/aerie.mjs', 'user:create', '--username', username, '--email', email, '--password', password],
    env,
  );
  const rows: FirstLoadRoute[] = [];
  const add = async (name: FirstLoadRouteName, path: string, cookie?: string) => {
    const js = await measureFirstLoadJs(panelUrl + path, cookie ? { cookie } : {});
    const goalBytes = firstLoadGoals[name];
    rows.push({ ...js, name, path, goalBytes, ratio: js.gzipBytes / goalBytes });
  };
  await add('login', '/auth/login');
  const cookie = await signIn(panelUrl, username, password);
  await add('dashboard', '/', cookie);
  runNode(
    [
      '--import',
      'tsx',
      'apps/panel/src/dev/seed-servers.cli.ts',
      '--users',
      '1',
      '--servers',
      '1',
      '--owner',
      username,
    ],
    env,
  );
  const id = await ownServerId(panelUrl, cookie);
  await add('console', `/server/${id}`, cookie);
  await add('files', `/server/${id}/files`, cookie);
  return rows;
}

/** The short identifier of the signed-in user's first server (client API). */
async function ownServerId(panelUrl: string, cookie: string): Promise<string> {
  const response = await fetch(`${panelUrl}/api/client`, {
    headers: sessionApiHeaders(cookie),
  });
  const body = (await response.json()) as { data?: { attributes: { identifier: string } }[] };
  const id = body.data?.[0]?.attributes.identifier;
  if (response.status !== 200 || !id) throw new Error(`no server of the customer: ${response.status}`);
  return id;
}

/** One printed line per page: scripts, gzip bytes, the goal and bytes/goal; then Pterodactyl's dashboard. */
export function formatFirstLoadRoutes(rows: FirstLoadRoute[]): string[] {
  const lines = rows.map(
    (row) =>
      `${describe[row.name].padEnd(30)} ${String(row.files).padStart(3)} scripts ${String(row.gzipBytes).padStart(8)} B gzip` +
      `  goal ${String(row.goalBytes).padStart(6)} B  ratio ${row.ratio.toFixed(3)}${row.ratio <= 1 ? '' : '  (over)'}`,
  );
  lines.push(
    `${'Pterodactyl 1.x dashboard'.padEnd(30)}             ≈${pterodactylDashboardKb} KB gzip (reference)`,
  );
  return lines;
}

/** The pages' rows of `npm run bench`'s table: gzip bytes against each goal. */
export const firstLoadSummary = (rows: FirstLoadRoute[]): SummaryRow[] =>
  rows.map((row) => ({
    figure: `first-load JavaScript, ${row.path.replace(/\/server\/[^/]+/, '/server/<id>')}`,
    value: `${row.gzipBytes.toLocaleString('en-US')} B gzip`,
    against: `the goal, ${(row.goalBytes / 1024).toFixed(0)} KB`,
    ratio: row.ratio,
    goal: { atMost: 1 },
  }));
