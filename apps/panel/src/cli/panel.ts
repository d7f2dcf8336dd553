import { loadConfig } from '@aerie/panel/config/load-config';
import { pendingMigrations } from '@aerie/panel/db/migrator';
import { CliError } from './cli-error';
import { prepare } from './prepare';
import { servePanel } from './serve';
import { onShutdown } from './shutdown';

/** `aerie panel`: serve only (no migrations, no daemon), for setups that run those separately. */
export async function panel(): Promise<void> {
  const config = loadConfig();
  const prepared = await prepare(config, { migrate: false });
  const pending = await pendingMigrations(prepared.db);
  if (pending.length > 0) {
    await prepared.db.destroy();
    throw new CliError(
      `The database is not up to date (pending: ${pending.join(', ')}). Run "aerie migrate" first.`,
    );
  }
  const { app, url } = await servePanel(config, prepared);
  onShutdown(async (_signal, step) => {
    await step('the panel', app.close());
    await step('the database', prepared.db.destroy());
  });
  // Only now: a signal sent as soon as this line shows must find the handlers in place.
  console.log(`Aerie panel is running at ${url} (Ctrl-C to stop)`);
}
