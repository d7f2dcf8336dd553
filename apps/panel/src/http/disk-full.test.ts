import { mountSmallDisk, type SmallDisk, smallDiskUnavailable } from '@aerie/daemon/testing/small-disk';
import { TestBrowser } from '@aerie/panel/test/browser';
import { buildTestApp, type TestApp } from '@aerie/panel/test/build-test-app';
import { createTestUser } from '@aerie/panel/test/factories';
import { filesScenario } from '@aerie/panel/test/files-scenario';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The SQLite file has to sit on the small disk; PostgreSQL and MariaDB keep theirs elsewhere (their codes are
// covered by db/disk-full.test.ts).
const skipReason = process.env.AERIE_TEST_DATABASE_URL
  ? 'SQLite only: the database file must sit on the small disk'
  : smallDiskUnavailable();

const DISK_FULL = {
  errors: [{ code: 'HttpException', status: '507', detail: errorMessages.diskFull }],
};

let disk: SmallDisk;
let t: TestApp;
let user: { username: string; password: string };

describe.skipIf(skipReason !== undefined)(
  `a full disk under the SQLite database${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 10_000 },
  () => {
    beforeAll(async () => {
      disk = mountSmallDisk(8);
      t = await buildTestApp({ dataDirParent: disk.path });
      const created = await createTestUser(t.ctx);
      user = { username: created.user.username, password: created.password };
      // An empty WAL: every write from here on needs new pages, so a full disk refuses the first one (frames
      // left from the migrations would otherwise be reused and let a few small writes through).
      await sql`pragma wal_checkpoint(truncate)`.execute(t.db);
    });
    afterAll(async () => {
      disk?.free();
      await t?.close();
      disk?.unmount();
    });

    /** Runs `check` with the disk full, and frees it whatever happens. */
    async function whileFull(check: () => Promise<void>) {
      disk.fill();
      try {
        await check();
      } finally {
        disk.free();
      }
    }

    it('refuses a sign-in with 507 and a plain sentence, and signs in once space is freed', async () => {
      const browser = new TestBrowser(t.app);
      await whileFull(async () => {
        const refused = await browser.post('/auth/login', { user: user.username, password: user.password });
        expect(refused.statusCode).toBe(507);
        expect(refused.json()).toEqual(DISK_FULL);
        expect(browser.cookies.has('aerie_session')).toBe(false);
      });
      // No restart: the same app, the same database connection.
      await browser.signIn(user.username, user.password);
      expect((await browser.get('/api/client/account')).statusCode).toBe(200);
    });

    it('refuses a write in a transaction with 507, leaves nothing open, and takes it once space is freed', async () => {
      const browser = new TestBrowser(t.app);
      await browser.signIn(user.username, user.password);
      const keys = () => browser.get('/api/client/account/api-keys');
      const key = { description: 'deploy', allowed_ips: [] };
      await whileFull(async () => {
        const refused = await browser.post('/api/client/account/api-keys', key);
        expect(refused.statusCode).toBe(507);
        expect(refused.json()).toEqual(DISK_FULL);
        // Reading still works while full, and nothing of the refused write was kept.
        const listed = await keys();
        expect(listed.statusCode).toBe(200);
        expect(listed.json().data).toEqual([]);
      });
      // A transaction left open would make this one fail ("cannot start a transaction within a transaction").
      expect((await browser.post('/api/client/account/api-keys', key)).statusCode).toBe(200);
      expect((await keys()).json().data).toHaveLength(1);
    });

    it('lets a user read a file while full: a read is never refused for want of its activity entry', async () => {
      const f = await filesScenario(t, ['file.read-content']);
      try {
        // The scenario's own writes are done: every write from here needs new pages again.
        await sql`pragma wal_checkpoint(truncate)`.execute(t.db);
        await whileFull(async () => {
          const read = await f.call(f.owner, 'GET', 'contents?file=hello.txt');
          expect(read.statusCode).toBe(200);
          expect(read.body).toBe('hello world\n');
          expect((await f.call(f.owner, 'GET', 'download?file=hello.txt')).statusCode).toBe(200);
        });
      } finally {
        await f.daemon.close();
      }
    });

    it('lets an API key keep reading: its last use is recorded again once space is freed', async () => {
      const created = await createTestUser(t.ctx);
      const { key, secret } = await t.ctx.apiKeys.create(created.user, {
        description: 'reader',
        allowedIps: [],
      });
      const read = () =>
        t.app.inject({
          url: '/api/client/account',
          headers: { authorization: `Bearer ${key.identifier}${secret}`, accept: 'application/json' },
        });
      const lastUsed = async () =>
        (await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirst())
          ?.last_used_at ?? null;
      await whileFull(async () => {
        const answer = await read();
        expect(answer.statusCode).toBe(200);
        expect(answer.json().attributes.username).toBe(created.user.username);
        expect(await lastUsed()).toBeNull();
      });
      expect((await read()).statusCode).toBe(200);
      expect(await lastUsed()).not.toBeNull();
    });

    it('lets a signed-in user keep reading: the session slides again once space is freed', async () => {
      const browser = new TestBrowser(t.app);
      await browser.signIn(user.username, user.password);
      // Past the one-minute mark after which a request moves the session's expiry (a write).
      t.advanceClock(2 * 60_000);
      try {
        await whileFull(async () => {
          const read = await browser.get('/api/client/account');
          expect(read.statusCode).toBe(200);
          expect(read.headers['set-cookie']).toBeUndefined();
        });
        const slid = await browser.get('/api/client/account');
        expect(slid.statusCode).toBe(200);
        expect(String(slid.headers['set-cookie'])).toMatch(/aerie_session=/);
      } finally {
        t.advanceClock(-2 * 60_000);
      }
    });
  },
);
