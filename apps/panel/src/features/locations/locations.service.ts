import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
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
  async create(input: LocationBody): Promise<Location> {
    const now = this.deps.clock();
    const id = await this.write(() =>
      insertLocation(this.deps.db, { short: input.short, long: input.long ?? null }, now),
    );
    return (await findLocation(this.deps.db, id)) as Location;
  }

  /** @throws HttpError 404 unknown, 422 when the short code belongs to another location */
  async update(id: number, input: LocationBody): Promise<Location> {
    await this.write(async () => {
      const { db, clock } = this.deps;
      if (!(await updateLocation(db, id, { short: input.short, long: input.long ?? null }, clock()))) {
        throw notFound();
      }
    });
    return (await findLocation(this.deps.db, id)) as Location;
  }

  /**
   * Deletes the location unless a node is in it; the nodes' foreign key makes a node added meanwhile fail one
   * side or the other, never leave a node without its location.
   * @throws HttpError 404 unknown, 400 HasActiveNodesException
   */
  async delete(id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await findLocation(tx, id))) throw notFound();
      if (await locationHasNodes(tx, id)) {
        throw new HttpError(400, 'HasActiveNodesException', locationMessages.hasNodes);
      }
      await deleteLocation(tx, id);
    });
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldRuleFailed('short', 'unique', locationAttributeNames);
      throw error;
    }
  }
}
