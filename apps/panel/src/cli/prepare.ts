import { mkdirSync } from 'node:fs';
import type { Config } from '@aerie/panel/config/load-config';
import { resolveAppKey } from '@aerie/panel/crypto/app-key';
import { createDatabase, type Db } from '@aerie/panel/db/database';
import { migrateToLatest } from '@aerie/panel/db/migrator';

export interface Prepared {
  db: Db;
  appKey: Buffer;
}

/**
 * What every command that touches state needs: DATA_DIR (mode 0700), the app key, an open database, and
 * optionally the schema brought up to date.
 */
export async function prepare(
  config: Config,
  options: { migrate: boolean; print?: (line: string) => void },
): Promise<Prepared> {
  const print = options.print ?? console.log;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const { key, generated } = resolveAppKey(config.dataDir, config.appKey);
  if (generated)
    print(`Generated a new app key in ${config.dataDir}/app.key (keep it: it encrypts secrets at rest).`);
  const db = createDatabase(config);
  if (options.migrate) {
    try {
      const applied = await migrateToLatest(db);
      for (const name of applied) print(`Migrated: ${name}`);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return { db, appKey: key };
}
