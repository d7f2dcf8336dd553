import { toWireDate } from '@aerie/panel/db/dialect';
import type { PageUser } from '@aerie/shared/boot/page-globals';
import type { User } from './user';

/** The user as the HTML shell injects it and the login answers carry it (no id, no secrets). */
export function presentPageUser(user: User): PageUser {
  return {
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    language: user.language,
    root_admin: user.rootAdmin,
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
