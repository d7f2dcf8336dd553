import { toWireDate } from '@aerie/panel/db/dialect';
import type { Transformer } from '@aerie/panel/http/application/transformer';
import type { User } from './user';

/**
 * `user` of the Application API (reference §3.1), attributes in upstream's order; `2fa` is TOTP enabled. Its
 * `servers` include is wired by `application-includes.ts`. `admin_role_id` (Aerie's, after upstream's fields) is the
 * user's admin role, null for none.
 */
export const userTransformer: Transformer<User> = {
  object: 'user',
  attributes: (user) => ({
    id: user.id,
    external_id: user.externalId,
    uuid: user.uuid,
    username: user.username,
    email: user.email,
    first_name: user.nameFirst,
    last_name: user.nameLast,
    language: user.language,
    root_admin: user.rootAdmin,
    '2fa': user.useTotp,
    created_at: toWireDate(user.createdAt),
    updated_at: toWireDate(user.updatedAt),
    admin_role_id: user.adminRoleId,
  }),
};
