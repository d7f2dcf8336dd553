import { loadDaemonConfig } from './config/env';
import { buildDaemonApp } from './http/app';

/**
 * `aerie daemon`: serves the daemon API on 127.0.0.1:DAEMON_PORT until SIGINT/SIGTERM.
 * @throws DaemonConfigError when the configuration is invalid
 */
export async function runDaemon(env: Record<string, string | undefined> = process.env): Promise<void> {
  const config = loadDaemonConfig(env);
  const app = buildDaemonApp({ logger: { level: config.logLevel } });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Aerie daemon listening on http://${config.host}:${port}`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
