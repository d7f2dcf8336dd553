import { readBool, readDate, readNullableDate } from '@aerie/panel/db/dialect';
import type { UserPasskeysTable } from '@aerie/panel/db/schema-account';
import type { Selectable } from 'kysely';

/** A passkey as the services see it. */
export interface Passkey {
  id: number;
  userId: number;
  name: string;
  /** base64url */
  credentialId: string;
  /** COSE public key, base64url */
  publicKey: string;
  counter: number;
  transports: string[];
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const readTransports = (text: string): string[] => {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
};

export function toPasskey(row: Selectable<UserPasskeysTable>): Passkey {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: readTransports(row.transports),
    backedUp: readBool(row.backed_up),
    createdAt: readDate(row.created_at),
    lastUsedAt: readNullableDate(row.last_used_at),
  };
}
