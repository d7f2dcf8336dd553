import type { Db } from '@aerie/panel/db/database';
import type { DaemonInstallScript } from '@aerie/shared/daemon/remote-wire';
import {
  eggInstallScripts,
  endInterruptedRestores,
  failInterruptedInstalls,
  setStatusUnlessSuspended,
} from './server-install.repository';
import { updateServerRow } from './servers.repository';

/**
 * The install script of the server's egg, or of the egg it copies its script from (Pterodactyl's
 * copy_script_*). Line ends are made LF: a script saved from Windows would otherwise fail in bash on `\r`.
 */
export async function installScript(db: Db, eggId: number): Promise<DaemonInstallScript> {
  const egg = await eggInstallScripts(db, eggId);
  const copied = egg.source_id !== null;
  const script = (copied ? egg.source_install : egg.script_install) ?? '';
  return {
    container_image: (copied ? egg.source_container : egg.script_container) ?? '',
    entrypoint: (copied ? egg.source_entry : egg.script_entry) ?? '',
    script: script.replace(/\r\n/g, '\n'),
  };
}

/**
 * Records what the daemon reports after an install (Pterodactyl's ServerInstallController): success clears
 * the status, failure sets install_failed (reinstall_failed for a reinstall), a suspended server stays
 * suspended, and installed_at is set in every case.
 */
export async function recordInstallResult(
  db: Db,
  server: { id: number; status: string | null },
  result: { successful: boolean; reinstall: boolean },
  now: Date,
): Promise<void> {
  const status = result.successful ? null : result.reinstall ? 'reinstall_failed' : 'install_failed';
  await db.transaction().execute(async (tx) => {
    await updateServerRow(tx, server.id, { installed_at: now, updated_at: now });
    await setStatusUnlessSuspended(tx, server.id, status);
  });
}

/**
 * What a daemon asks for when it boots: it lost the jobs it was running when it stopped. A server it was
 * installing is marked failed, never shown installed with a half-made folder: install_failed when it was never
 * installed (with installed_at still null, so `aerie up` hands it over again at its next start, and the Reinstall
 * button retries it), reinstall_failed otherwise. One restoring a backup is back to normal (the restore's own
 * result is the backup's).
 */
export async function resetNodeServerStates(db: Db, nodeId: number, now: Date): Promise<void> {
  await failInterruptedInstalls(db, nodeId, now);
  await endInterruptedRestores(db, nodeId, now);
}
