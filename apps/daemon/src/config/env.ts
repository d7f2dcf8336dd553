import { z } from 'zod';

const schema = z.object({
  DAEMON_PORT: z
    .string()
    .trim()
    .default('8081')
    .pipe(
      z
        .string()
        .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
        .transform(Number)
        .pipe(z.number().max(65535, 'must be a whole number between 0 and 65535')),
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export interface DaemonConfig {
  /** Loopback only until the daemon has authentication (its own issue). */
  host: '127.0.0.1';
  port: number;
  logLevel: z.output<typeof schema>['LOG_LEVEL'];
}

export class DaemonConfigError extends Error {
  override name = 'DaemonConfigError';
}

/** @throws DaemonConfigError naming each bad variable, e.g. `DAEMON_PORT: must be a whole number…` */
export function loadDaemonConfig(env: Record<string, string | undefined> = process.env): DaemonConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0]);
      return `  - ${key}: ${i.message} (got ${JSON.stringify(present[key])})`;
    });
    throw new DaemonConfigError(`Invalid daemon configuration:\n${lines.join('\n')}`);
  }
  return { host: '127.0.0.1', port: parsed.data.DAEMON_PORT, logLevel: parsed.data.LOG_LEVEL };
}
