import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import { type MountBody, mountAttributeNames, mountMessages } from '@aerie/shared/mounts/mounts-bodies';
import type { Mount } from './mount';
import {
  attachToMount,
  deleteMount,
  detachFromMount,
  existingIds,
  findMount,
  insertMount,
  type MountFields,
  type MountRelation,
  mountHasServers,
  mountsAllowedForServer,
  pivotsOfMounts,
  placementsOfServers,
  updateMount,
} from './mounts.repository';

/**
 * What an attach or detach changes, as the audit log shows it: the ids of the eggs, nodes or servers the mount is
 * attached to (`{ mount_id, nodes: [1, 2] }`).
 */
export type MountAttachments = { mount_id: number } & { [relation in MountRelation]?: number[] };

/** How attachments render in the audit log: as they are. */
export const mountAttachmentsSubject = {
  object: 'mount',
  attributes: (attachments: MountAttachments) => ({ ...attachments }),
};

const fieldsOf = (body: MountBody): MountFields => ({
  name: body.name,
  description: body.description ?? null,
  source: body.source,
  target: body.target,
  readOnly: body.read_only ?? false,
  userMountable: body.user_mountable ?? false,
});

/**
 * Mounts: create, update, delete (refused while a server uses it), and where they may be used. Each change runs
 * in one transaction with its audit entry.
 */
export class MountsService {
  constructor(private readonly deps: { db: Db }) {}

  /** @throws HttpError 422 when the name is taken */
  create(body: MountBody, audit: Audit<Mount>): Promise<Mount> {
    return this.unique(() =>
      this.deps.db.transaction().execute(async (tx) => {
        const id = await insertMount(tx, randomUUID(), fieldsOf(body));
        const after = (await findMount(tx, id)) as Mount;
        await audit(tx, { subjectId: id, after });
        return after;
      }),
    );
  }

  /** @throws HttpError 404 unknown, 422 when the name belongs to another mount */
  update(id: number, body: MountBody, audit: Audit<Mount>): Promise<Mount> {
    return this.unique(() =>
      this.deps.db.transaction().execute(async (tx) => {
        const before = await findMount(tx, id);
        if (!before || !(await updateMount(tx, id, fieldsOf(body)))) throw notFound();
        const after = (await findMount(tx, id)) as Mount;
        await audit(tx, { subjectId: id, before, after });
        return after;
      }),
    );
  }

  /**
   * Deletes the mount unless a server uses it; in one transaction, so a server attached meanwhile either keeps it
   * or was never attached.
   * @throws HttpError 404 unknown, 400 HasActiveServersException
   */
  async delete(id: number, audit: Audit<Mount>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findMount(tx, id);
      if (!before) throw notFound();
      if (await mountHasServers(tx, id)) {
        throw new HttpError(400, 'HasActiveServersException', mountMessages.hasServers);
      }
      await deleteMount(tx, id);
      await audit(tx, { subjectId: id, before });
    });
  }

  /**
   * Attaches the mount to eggs, nodes or servers; each id must exist (422 `exists`), and a server may only use a
   * mount attached to both its egg and its node (400, nothing attached). One audit entry, with the ids the mount
   * was attached to before and after (an attach that adds nothing new is recorded all the same).
   * @throws HttpError 404 unknown mount, 422, 400
   */
  attach(
    mountId: number,
    relation: MountRelation,
    ids: readonly number[],
    audit: Audit<MountAttachments>,
  ): Promise<Mount> {
    return this.deps.db.transaction().execute(async (tx) => {
      const mount = await findMount(tx, mountId);
      if (!mount) throw notFound();
      const found = await existingIds(tx, relation, ids);
      const missing = ids.findIndex((id) => !found.has(id));
      if (missing !== -1) throw fieldRuleFailed(`${relation}.${missing}`, 'exists', mountAttributeNames);
      if (relation === 'servers') await assertUsableBy(tx, mountId, ids);
      const before = await attachmentsOf(tx, mountId, relation);
      await attachToMount(tx, relation, mountId, ids);
      await audit(tx, { subjectId: mountId, before, after: await attachmentsOf(tx, mountId, relation) });
      return mount;
    });
  }

  /**
   * Detaches the mount from one egg, node or server (nothing to detach is not an error); one audit entry, as for
   * attach.
   * @throws HttpError 404 unknown mount
   */
  async detach(
    mountId: number,
    relation: MountRelation,
    id: number,
    audit: Audit<MountAttachments>,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await findMount(tx, mountId))) throw notFound();
      const before = await attachmentsOf(tx, mountId, relation);
      await detachFromMount(tx, relation, mountId, id);
      await audit(tx, { subjectId: mountId, before, after: await attachmentsOf(tx, mountId, relation) });
    });
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('name', 'unique', mountAttributeNames);
      throw error;
    }
  }
}

/** @throws HttpError 400 unless each server's egg and node both have the mount */
async function assertUsableBy(tx: Tx, mountId: number, serverIds: readonly number[]): Promise<void> {
  for (const server of await placementsOfServers(tx, serverIds)) {
    const allowed = await mountsAllowedForServer(tx, server);
    if (!allowed.some((mount) => mount.id === mountId))
      throw displayError(mountMessages.notAllowedForServer(server.id));
  }
}

/** The ids the mount is attached to in that relation, as the transaction sees them. */
async function attachmentsOf(tx: Tx, mountId: number, relation: MountRelation): Promise<MountAttachments> {
  const pivots = await pivotsOfMounts(tx, relation, [mountId]);
  return { mount_id: mountId, [relation]: pivots.map((pivot) => pivot.id) };
}
