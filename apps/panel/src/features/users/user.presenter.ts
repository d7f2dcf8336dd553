import { toWireDate } from '@aerie/panel/db/dialect';
import type { ActivityActorItem } from '@aerie/shared/activity/activity-wire';
import { type AdminGrant, adminPermissions } from '@aerie/shared/admin-roles/admin-permissions';
import type { PageUser } from '@aerie/shared/boot/page-globals';
import { avatarUrl } from './avatar';
import type { User } from './user';

/**
 * The user as the HTML shell injects it and the login answers carry it (no id, no secrets), with what they may
 * do in the admin area (`grant`: their role's permissions, `root` for a root admin, null for none).
 */
export function presentPageUser(user: User, grant: AdminGrant | null): PageUser {
  return {
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    language: user.language,
    root_admin: user.rootAdmin,
    admin_permissions: grant === 'root' ? [...adminPermissions] : [...(grant ?? [])],
    use_totp: user.useTotp,
    created_at: toWireDate(user.createdAt),
    updated_at: toWireDate(user.updatedAt),
  };
}

/** GET /api/client/account: Pterodactyl's AccountTransformer. */
export function presentAccount(user: User) {
  return {
    object: 'user' as const,
    attributes: {
      id: user.id,
      admin: user.rootAdmin,
      username: user.username,
      email: user.email,
      first_name: user.nameFirst,
      last_name: user.nameLast,
      language: user.language,
    },
  };
}

/**
 * Pterodactyl's client `user` object (UserTransformer): the actor of an activity entry, and with the permissions
 * a subuser. `image` is "" unless an avatar service is configured (see avatar.ts).
 */
export function presentClientUser(
  user: Pick<User, 'uuid' | 'username' | 'email' | 'useTotp' | 'createdAt'>,
  avatarTemplate: string | undefined,
): ActivityActorItem {
  return {
    object: 'user',
    attributes: {
      uuid: user.uuid,
      username: user.username,
      email: user.email,
      image: avatarUrl(user.email, avatarTemplate),
      '2fa_enabled': user.useTotp,
      created_at: toWireDate(user.createdAt),
    },
  };
}
