import { createWriteStream } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeDriver, RuntimeLimits } from '@aerie/daemon/runtime/runtime';
import type { DaemonInstallScript } from '@aerie/shared/daemon/remote-wire';

export interface InstallRun {
  uuid: string;
  directory: string;
  script: DaemonInstallScript;
  environment: Readonly<Record<string, string>>;
  limits: RuntimeLimits;
  driver: RuntimeDriver;
  /** `logs/install/<uuid>.log`: rewritten for each install, readable by the daemon's user only. */
  logFile: string;
  onOutput: (line: string) => void;
  signal?: AbortSignal;
}

/** The install log's opening lines, as Wings writes them: who, which image, and the whole environment. */
function logHeader(run: InstallRun): string {
  const variables = Object.entries(run.environment).map(([key, value]) => `${key}=${value}`);
  return [
    'Aerie Server Installation Log',
    '',
    '|',
    '| Details',
    '| ------------------------------',
    `  Server UUID:          ${run.uuid}`,
    `  Container Image:      ${run.script.container_image}`,
    `  Container Entrypoint: ${run.script.entrypoint}`,
    '',
    '|',
    '| Environment Variables',
    '| ------------------------------',
    ...variables.map((line) => `  ${line}`),
    '',
    '|',
    '| Script Output',
    '| ------------------------------',
    '',
  ].join('\n');
}

/** Runs an egg's install script through the driver, logging it; resolves with the script's exit code. */
export async function runInstall(run: InstallRun): Promise<number> {
  await mkdir(path.dirname(run.logFile), { recursive: true, mode: 0o700 });
  const log = createWriteStream(run.logFile, { flags: 'w', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    log.once('open', () => resolve());
    log.once('error', reject);
  });
  // An older log may have been created with other permissions: open() keeps those.
  await chmod(run.logFile, 0o600);
  log.write(logHeader(run));
  try {
    const { exitCode } = await run.driver.install({
      uuid: run.uuid,
      directory: run.directory,
      script: run.script.script.replaceAll('\r\n', '\n'),
      image: run.script.container_image,
      entrypoint: run.script.entrypoint,
      environment: run.environment,
      limits: run.limits,
      signal: run.signal,
      onOutput: (line) => {
        log.write(`${line}\n`);
        run.onOutput(line);
      },
    });
    log.write(`\n| Exit code: ${exitCode}\n`);
    return exitCode;
  } catch (error) {
    log.write(`\n| The installer could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    throw error;
  } finally {
    await new Promise((resolve) => log.end(resolve));
  }
}
