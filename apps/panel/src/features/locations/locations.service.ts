import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { HttpError, notFound } from '@aerie/panel/http/errors';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import {
  type LocationBody,
  locationAttributeNames,
  locationMessages,
} from '@aerie/shared/locations/locations-bodies';
import type { Location } from './location';
import {
  deleteLocation,
  findLocation,
  insertLocation,
  locationHasNodes,
  updateLocation,
} from './locations.repository';

/** Locations: create, update, delete (refused while a node is in it). */
export class LocationsService {
  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /** @throws HttpError 422 when the short code is taken */
  create(input: LocationBody, audit: Audit<Location>): Promise<Location> {
    return this.write(async (tx) => {
      const id = await insertLocation(
        tx,
        { short: input.short, long: input.long ?? null },
        this.deps.clock(),
      );
      const location = (await findLocation(tx, id)) as Location;
      await audit(tx, { subjectId: id, after: location });
      return location;
    });
  }

  /** @throws HttpError 404 unknown, 422 when the short code belongs to another location */
  update(id: number, input: LocationBody, audit: Audit<Location>): Promise<Location> {
    return this.write(async (tx) => {
      const before = await findLocation(tx, id);
      if (!before) throw notFound();
      await updateLocation(tx, id, { short: input.short, long: input.long ?? null }, this.deps.clock());
      const after = (await findLocation(tx, id)) as Location;
      await audit(tx, { subjectId: id, before, after });
      return after;
    });
  }

  /**
   * Deletes the location unless a node is in it; the nodes' foreign key makes a node added meanwhile fail one
   * side or the other, never leave a node without its location.
   * @throws HttpError 404 unknown, 400 HasActiveNodesException
   */
  async delete(id: number, audit: Audit<Location>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findLocation(tx, id);
      if (!before) throw notFound();
      if (await locationHasNodes(tx, id)) {
        throw new HttpError(400, 'HasActiveNodesException', locationMessages.hasNodes);
      }
      await deleteLocation(tx, id);
      await audit(tx, { subjectId: id, before });
    });
  }

  /** One transaction; a short code taken meanwhile is the field's 422. */
  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('short', 'unique', locationAttributeNames);
      throw error;
    }
  }
}
