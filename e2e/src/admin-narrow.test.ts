import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type RunningPanel, startPanel } from './support/panel-process';
import { signIn } from './support/sign-in';

let panel: RunningPanel;
let browser: Browser;
let page: Page;

/** A MariaDB to hold a database on the server's Databases tab, when CI gives one (as the databases test reads it). */
const databaseHost = (process.env.AERIE_TEST_DATABASE_HOSTS ?? '')
  .split(',')
  .map((text) => text.trim())
  .find((text) => text.startsWith('mysql://'));
let database: { server: number; id: number } | undefined;

beforeAll(async () => {
  panel = await startPanel();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${panel.url}/auth/login`);
  await signIn(page, panel.admin.username, panel.admin.password);
  await page.waitForURL(`${panel.url}/`);
  // Rows on every list page, so a table's widest row is measured: a location and an application key.
  await api(page, 'POST', '/api/application/locations', {
    short: 'eu-west-amsterdam',
    long: 'Amsterdam, NL',
  });
  await api(page, 'POST', '/api/application/api-keys', { memo: 'Billing (WHMCS)', r_servers: 3 });
  if (databaseHost) {
    const server = await firstId('/api/application/servers');
    database = { server, id: await addDatabase(server, new URL(databaseHost)) };
  }
}, 120_000);

afterAll(async () => {
  if (database)
    await api(page, 'DELETE', `/api/application/servers/${database.server}/databases/${database.id}`);
  await browser?.close();
  await panel?.stop();
});

/** A call of the signed-in admin, as the SPA makes it (session cookie and CSRF token). */
async function api(page: Page, method: string, url: string, body?: unknown): Promise<unknown> {
  return await page.evaluate(
    async ({ method, url, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const response = await fetch(url, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : await response.json();
    },
    { method, url, body },
  );
}

const firstId = async (url: string): Promise<number> => {
  const list = (await api(page, 'GET', url)) as { data: { attributes: { id: number } }[] };
  const id = list.data[0]?.attributes.id;
  if (id === undefined) throw new Error(`${url} lists nothing`);
  return id;
};

/**
 * The elements that stick out past the right edge of the window (each one's nearest tag, classes and right edge),
 * leaving out those inside a box that scrolls or clips them: what makes the page itself scroll sideways.
 */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (parent === document.body) return false;
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX !== 'visible') return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1 || clipped(element)) continue;
      out.push(
        `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} → ${Math.round(box.right)}`,
      );
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 8) };
  });

/** A database host from the URL and a database on it for `server`; @returns the database's id */
async function addDatabase(server: number, url: URL): Promise<number> {
  const host = (await api(page, 'POST', '/api/application/database-hosts', {
    name: 'MariaDB',
    driver: 'mysql',
    host: url.hostname,
    port: Number(url.port || 3306),
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  })) as { attributes: { id: number } };
  const created = (await api(page, 'POST', `/api/application/servers/${server}/databases`, {
    database: 'narrow',
    remote: '%',
    host: host.attributes.id,
  })) as { attributes: { id: number } };
  return created.attributes.id;
}

describe('the admin area at 390 px', () => {
  it('has no page wider than the screen', { timeout: 300_000 }, async () => {
    const node = await firstId('/api/application/nodes');
    const server = await firstId('/api/application/servers');
    const user = await firstId('/api/application/users');
    const nest = await firstId('/api/application/nests');
    const egg = await firstId(`/api/application/nests/${nest}/eggs`);
    const pages = [
      '/admin',
      '/admin/settings',
      '/admin/api',
      '/admin/api/new',
      '/admin/databases',
      '/admin/databases/new',
      '/admin/locations',
      '/admin/nodes',
      `/admin/nodes/view/${node}`,
      `/admin/nodes/view/${node}/configuration`,
      `/admin/nodes/view/${node}/allocations`,
      '/admin/servers',
      '/admin/servers/new',
      `/admin/servers/view/${server}`,
      `/admin/servers/view/${server}/build`,
      `/admin/servers/view/${server}/startup`,
      `/admin/servers/view/${server}/databases`,
      `/admin/servers/view/${server}/mounts`,
      `/admin/servers/view/${server}/manage`,
      '/admin/users',
      `/admin/users/view/${user}`,
      '/admin/nests',
      `/admin/nests/view/${nest}`,
      `/admin/nests/egg/${egg}`,
      '/admin/mounts',
      '/admin/mounts/new',
    ];
    const wide: Record<string, unknown> = {};
    for (const path of pages) {
      await page.goto(`${panel.url}${path}`);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const found = await overflowing(page);
      if (found.scrollWidth > found.width) wide[path] = found;
    }
    expect(wide).toEqual({});
  });

  it.skipIf(databaseHost === undefined)(
    "keeps a database password clear of its copy icon on the server's Databases page at 1280 px",
    { timeout: 120_000 },
    async () => {
      const wide = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await wide.context().addCookies(await page.context().cookies());
      const servers = (await api(page, 'GET', '/api/client')) as {
        data: { attributes: { identifier: string } }[];
      };
      await wide.goto(`${panel.url}/server/${servers.data[0]?.attributes.identifier}/databases`);
      const password = wide.getByText('Password', { exact: true }).locator('..').getByRole('button');
      await password.waitFor();
      const [text, icon] = await Promise.all([
        password.locator('span').first().boundingBox(),
        password.locator('svg').boundingBox(),
      ]);
      expect(text && icon && text.x + text.width <= icon.x).toBe(true);
      await wide.close();
    },
  );
});
