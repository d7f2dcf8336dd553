import { readBool } from '@aerie/panel/db/dialect';
import type { MountsTable } from '@aerie/panel/db/schema-mounts';
import type { Selectable } from 'kysely';

export interface Mount {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  source: string;
  target: string;
  readOnly: boolean;
  userMountable: boolean;
}

export const toMount = (row: Selectable<MountsTable>): Mount => ({
  id: row.id,
  uuid: row.uuid,
  name: row.name,
  description: row.description,
  source: row.source,
  target: row.target,
  readOnly: readBool(row.read_only),
  userMountable: readBool(row.user_mountable),
});
