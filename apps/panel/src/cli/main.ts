import { ConfigError } from '../config/load-config';
import { WebBuildMissingError } from '../shell/html-shell';
import { UserInputError } from '../users/create-user';
import { migrate } from './migrate';
import { CliError, panel } from './panel';
import { up } from './up';
import { userCreate } from './user-create';

const usage = `Usage: aerie <command>

Commands:
  up            migrate, create the first admin, serve the panel and run a local daemon (npm start)
  panel         serve the panel only
  daemon        run the daemon only
  migrate       bring the database schema up to date
  user:create   --email EMAIL --username NAME [--password PASSWORD] [--admin]

Configuration comes from the environment and DATA_DIR/.env (see docs).`;

const commands: Record<string, (argv: string[]) => Promise<void>> = {
  up,
  panel,
  migrate,
  'user:create': userCreate,
  daemon: async () => {
    const { runDaemon } = await import('@aerie/daemon/main');
    await runDaemon();
  },
  help: async () => console.log(usage),
};

/** Errors a person caused and can fix: print the message only, no stack trace. */
const EXPECTED = [ConfigError, CliError, UserInputError, WebBuildMissingError];

const [name = 'help', ...argv] = process.argv.slice(2);
const command = commands[name === '--help' || name === '-h' ? 'help' : name];
if (!command) {
  console.error(`Unknown command "${name}".\n\n${usage}`);
  process.exit(2);
}
try {
  await command(argv);
} catch (error) {
  const expected =
    EXPECTED.some((type) => error instanceof type) || (error as Error)?.name === 'DaemonConfigError';
  console.error(expected ? (error as Error).message : error);
  process.exit(1);
}
