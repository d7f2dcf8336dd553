import { readDate } from '@aerie/panel/db/dialect';
import type { LocationsTable } from '@aerie/panel/db/schema-application';
import type { Selectable } from 'kysely';

export interface Location {
  id: number;
  short: string;
  long: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const toLocation = (row: Selectable<LocationsTable>): Location => ({
  id: row.id,
  short: row.short,
  long: row.long,
  createdAt: readDate(row.created_at),
  updatedAt: readDate(row.updated_at),
});
