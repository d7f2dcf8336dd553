import { z } from 'zod';
import { requestedPermissions } from '../permissions/requested-permissions';
import type { LaravelRule } from '../validation/laravel-messages';
import { lengthBetween, requiredArray, requiredEmail } from '../validation/rules';

/** Limits of the Users page (spec §5, §9; reference §7.2 "Subusers"). */
export const subuserLimits = {
  emailMax: 191,
  /** The avatar size the spec draws (the `image` URL asks the avatar service for it). */
  avatarSize: 400,
} as const;

/** Error details of the subuser routes, word for word from the reference (§7.2 "Subusers"). */
export const subuserMessages = {
  exists: 'A user with that email address is already assigned as a subuser for this server.',
  isOwner: 'You cannot add the server owner as a subuser for this server.',
  cannotAssign: 'Cannot assign permissions to a subuser that your account does not actively possess.',
} as const;

/**
 * `permissions` required|array (an empty list fails `required`); `permissions.*` string. The output is the
 * normalised list (`RequestedPermissions`: trimmed, each once) that both the grant check and the store get.
 */
const permissions = () =>
  requiredArray(z.string({ error: 'string' satisfies LaravelRule })).transform(requestedPermissions);

/**
 * POST …/users: `email` required|email|between:1,191, `permissions` required|array, `permissions.*` string.
 * Unknown permission strings pass here; an owner's are dropped when stored (`sanitizeSubuserPermissions`), a
 * subuser's are refused by the grant check (they hold no such permission).
 */
export const createSubuserBodySchema = z.object({
  email: requiredEmail().refine(...lengthBetween(1, subuserLimits.emailMax)),
  permissions: permissions(),
});

/** POST …/users/{uuid}: `permissions` required|array, `permissions.*` string. */
export const updateSubuserBodySchema = z.object({ permissions: permissions() });

/** The permissions alone, checked before the rest of a body's rules (upstream authorises before it validates). */
export const subuserPermissionsSchema = updateSubuserBodySchema;

/** What a client sends. */
export type CreateSubuserBody = z.input<typeof createSubuserBodySchema>;
export type UpdateSubuserBody = z.input<typeof updateSubuserBodySchema>;
