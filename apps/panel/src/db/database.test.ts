import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@aerie/panel/test/test-database';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const server = process.env.AERIE_TEST_DATABASE_URL ?? '';

// Only PostgreSQL's pool reports a lost idle connection as an event that would otherwise be thrown.
describe.runIf(/^postgres(ql)?:/.test(server))('PostgreSQL connections', () => {
  it('keeps serving after the server ends an idle connection (a restart or an admin kill)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aerie-db-'));
    const t = await createTestDatabase(dataDir);
    try {
      await sql`select 1`.execute(t.db);
      const name = new URL(t.url as string).pathname.slice(1);
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);
      // Let the pool hear of it: unhandled, that error would end the process (and fail this run).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(t.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await t.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
