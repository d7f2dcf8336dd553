import { toWireDate } from '@aerie/panel/db/dialect';
import type { PasskeyItem, PasskeyList } from '@aerie/shared/passkeys/passkeys-wire';
import type { Passkey } from './passkey';

/** The `passkey` item: what the account page shows, never the key or credential id. */
export const presentPasskey = (passkey: Passkey): PasskeyItem => ({
  object: 'passkey',
  attributes: {
    id: passkey.id,
    name: passkey.name,
    synced: passkey.backedUp,
    created_at: toWireDate(passkey.createdAt),
    last_used_at: passkey.lastUsedAt ? toWireDate(passkey.lastUsedAt) : null,
  },
});

export const presentPasskeyList = (passkeys: Passkey[]): PasskeyList => ({
  object: 'list',
  data: passkeys.map(presentPasskey),
});
