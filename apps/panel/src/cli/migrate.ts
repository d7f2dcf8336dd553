import { loadConfig } from '@aerie/panel/config/load-config';
import { prepare } from './prepare';

/** `aerie migrate`: brings the database schema up to date and exits. */
export async function migrate(): Promise<void> {
  const config = loadConfig();
  const { db } = await prepare(config, { migrate: true });
  await db.destroy();
  console.log('The database is up to date.');
}
