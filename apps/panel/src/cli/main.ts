const usage = `Usage: aerie <command>

Commands:
  start         aerie up, started again within seconds should it crash (npm start)
  up            migrate, create the first admin, serve the panel and run a local daemon
  panel         serve the panel only
  daemon        run the daemon only
  migrate       bring the database schema up to date
  user:create   --email EMAIL --username NAME [--password PASSWORD] [--admin]
  egg:import    FILE [--nest NAME]   import or update a Pterodactyl or Pelican egg (PTDL_v1/v2 JSON, Pelican
                PLCN_v1 JSON or YAML)
  key:create    --application --user NAME [--memo TEXT] [--access servers=rw,nodes=r,…] [--allowed-ip IP,…]
                prints an application API key (ptla_…) for scripts; every resource read+write by default

Configuration comes from the environment and DATA_DIR/.env (PORT, HOST, DATA_DIR, DATABASE_URL, APP_URL…).`;

// Each command loads only its own modules: `aerie daemon` never loads the panel, `aerie help` loads nothing.
const commands: Record<string, (argv: string[]) => Promise<void>> = {
  start: async (argv) => (await import('./start')).start(argv),
  up: async () => (await import('./up')).up(),
  panel: async () => (await import('./panel')).panel(),
  migrate: async () => (await import('./migrate')).migrate(),
  'user:create': async (argv) => (await import('./user-create')).userCreate(argv),
  'egg:import': async (argv) => (await import('./egg-import')).eggImport(argv),
  'key:create': async (argv) => (await import('./key-create')).keyCreate(argv),
  daemon: async () => (await import('@aerie/daemon/main')).runDaemon(),
  help: async () => console.log(usage),
};

/** Errors a person caused and can fix (by class name, to avoid loading their modules): message only, no stack. */
const EXPECTED = new Set([
  'ConfigError',
  'CliError',
  'UserInputError',
  'WebBuildMissingError',
  'DaemonConfigError',
]);

const [name = 'help', ...argv] = process.argv.slice(2);
const command = commands[name === '--help' || name === '-h' ? 'help' : name];
if (!command) {
  console.error(`Unknown command "${name}".\n\n${usage}`);
  process.exit(2);
}
try {
  await command(argv);
} catch (error) {
  console.error(error instanceof Error && EXPECTED.has(error.name) ? error.message : error);
  process.exit(1);
}

// A module, so top-level await is allowed.
export {};
