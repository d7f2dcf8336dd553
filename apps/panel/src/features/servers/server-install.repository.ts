import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';

/** SQL of installs (server-install.ts): the egg's install script, and the statuses an install report writes. */

/** The egg's install script and that of the egg it copies its script from (source_id null when none). */
export async function eggInstallScripts(db: Db, eggId: number) {
  return db
    .selectFrom('eggs')
    .leftJoin('eggs as source', 'source.id', 'eggs.copy_script_from')
    .select([
      'eggs.script_container',
      'eggs.script_entry',
      'eggs.script_install',
      'source.id as source_id',
      'source.script_container as source_container',
      'source.script_entry as source_entry',
      'source.script_install as source_install',
    ])
    .where('eggs.id', '=', eggId)
    .executeTakeFirstOrThrow();
}

/**
 * Writes the status unless the server is suspended, reading the suspension in the same statement: an admin who
 * suspends while an install report is on its way is never undone by it.
 */
export async function setStatusUnlessSuspended(tx: Tx, serverId: number, status: string | null) {
  await tx
    .updateTable('servers')
    .set({ status })
    .where('id', '=', serverId)
    .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'suspended')]))
    .execute();
}

/** The node's installs left running: install_failed when never installed, reinstall_failed otherwise. */
export async function failInterruptedInstalls(db: Db, nodeId: number, now: Date) {
  await db
    .updateTable('servers')
    .set((eb) => ({
      status: eb
        .case()
        .when('installed_at', 'is', null)
        .then('install_failed')
        .else('reinstall_failed')
        .end(),
      updated_at: now,
    }))
    .where('node_id', '=', nodeId)
    .where('status', '=', 'installing')
    .execute();
}

/** The node's restores left running are back to normal (the restore's own result is the backup's). */
export async function endInterruptedRestores(db: Db, nodeId: number, now: Date) {
  await db
    .updateTable('servers')
    .set({ status: null, updated_at: now })
    .where('node_id', '=', nodeId)
    .where('status', '=', 'restoring_backup')
    .execute();
}
