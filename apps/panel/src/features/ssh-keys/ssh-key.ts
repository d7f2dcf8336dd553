import { readDate } from '@aerie/panel/db/dialect';
import type { UserSshKeysTable } from '@aerie/panel/db/schema-account';
import type { Selectable } from 'kysely';

/** A user's SSH public key as services see it. */
export interface SshKey {
  id: number;
  userId: number;
  name: string;
  fingerprint: string;
  /** PKCS#8 (SPKI) PEM. */
  publicKey: string;
  createdAt: Date;
}

export function toSshKey(row: Selectable<UserSshKeysTable>): SshKey {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    fingerprint: row.fingerprint,
    publicKey: row.public_key,
    createdAt: readDate(row.created_at),
  };
}
