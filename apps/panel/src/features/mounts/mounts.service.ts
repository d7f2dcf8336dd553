import { randomUUID } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
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
  placementsOfServers,
  updateMount,
} from './mounts.repository';

const fieldsOf = (body: MountBody): MountFields => ({
  name: body.name,
  description: body.description ?? null,
  source: body.source,
  target: body.target,
  readOnly: body.read_only ?? false,
  userMountable: body.user_mountable ?? false,
});

/** Mounts: create, update, delete (refused while a server uses it), and where they may be used. */
export class MountsService {
  constructor(private readonly deps: { db: Db }) {}

  /** @throws HttpError 422 when the name is taken */
  async create(body: MountBody): Promise<Mount> {
    const id = await this.unique(() => insertMount(this.deps.db, randomUUID(), fieldsOf(body)));
    return (await findMount(this.deps.db, id)) as Mount;
  }

  /** @throws HttpError 404 unknown, 422 when the name belongs to another mount */
  async update(id: number, body: MountBody): Promise<Mount> {
    await this.unique(async () => {
      if (!(await updateMount(this.deps.db, id, fieldsOf(body)))) throw notFound();
    });
    return (await findMount(this.deps.db, id)) as Mount;
  }

  /**
   * Deletes the mount unless a server uses it; in one transaction, so a server attached meanwhile either keeps it
   * or was never attached.
   * @throws HttpError 404 unknown, 400 HasActiveServersException
   */
  async delete(id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await findMount(tx, id))) throw notFound();
      if (await mountHasServers(tx, id)) {
        throw new HttpError(400, 'HasActiveServersException', mountMessages.hasServers);
      }
      await deleteMount(tx, id);
    });
  }

  /**
   * Attaches the mount to eggs, nodes or servers; each id must exist (422 `exists`), and a server may only use a
   * mount attached to both its egg and its node (400, nothing attached).
   * @throws HttpError 404 unknown mount, 422, 400
   */
  async attach(mountId: number, relation: MountRelation, ids: readonly number[]): Promise<Mount> {
    const { db } = this.deps;
    const mount = await findMount(db, mountId);
    if (!mount) throw notFound();
    const found = await existingIds(db, relation, ids);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing !== -1) throw fieldRuleFailed(`${relation}.${missing}`, 'exists', mountAttributeNames);
    if (relation === 'servers') await this.assertUsableBy(mountId, ids);
    await attachToMount(db, relation, mountId, ids);
    return mount;
  }

  /** @throws HttpError 404 unknown mount */
  async detach(mountId: number, relation: MountRelation, id: number): Promise<void> {
    if (!(await findMount(this.deps.db, mountId))) throw notFound();
    await detachFromMount(this.deps.db, relation, mountId, id);
  }

  private async assertUsableBy(mountId: number, serverIds: readonly number[]): Promise<void> {
    for (const server of await placementsOfServers(this.deps.db, serverIds)) {
      const allowed = await mountsAllowedForServer(this.deps.db, server);
      if (!allowed.some((mount) => mount.id === mountId))
        throw displayError(mountMessages.notAllowedForServer(server.id));
    }
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
