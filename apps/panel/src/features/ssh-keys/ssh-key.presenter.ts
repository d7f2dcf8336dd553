import { toWireDate } from '@aerie/panel/db/dialect';
import type { SshKeyItem, SshKeyList } from '@aerie/shared/ssh-keys/ssh-keys-wire';
import type { SshKey } from './ssh-key';

/** Pterodactyl's `ssh_key` item (reference §6). */
export function presentSshKey(key: SshKey): SshKeyItem {
  return {
    object: 'ssh_key',
    attributes: {
      name: key.name,
      fingerprint: key.fingerprint,
      public_key: key.publicKey,
      created_at: toWireDate(key.createdAt),
    },
  };
}

export const presentSshKeyList = (keys: SshKey[]): SshKeyList => ({
  object: 'list',
  data: keys.map(presentSshKey),
});
