import type { SubuserRecord } from '@aerie/panel/features/servers/server-relations';
import { presentClientUser } from '@aerie/panel/features/users/user.presenter';
import type { SubuserItem } from '@aerie/shared/subusers/subusers-wire';

/**
 * `server_subuser` (reference §6): the user's client attributes plus the stored permissions, for the Users page
 * and the server's `include=subusers`.
 */
export function presentSubuser(subuser: SubuserRecord, avatarTemplate: string | undefined): SubuserItem {
  const { attributes } = presentClientUser(subuser, avatarTemplate);
  return { object: 'server_subuser', attributes: { ...attributes, permissions: subuser.permissions } };
}
