import { z } from 'zod';
import { lengthBetween, nullableString, requiredString, rule } from '../validation/rules';
import { isAdminPermission } from './admin-permissions';

export const adminRoleLimits = { nameMax: 64, descriptionMax: 500 } as const;

/** POST/PATCH /api/application/roles; PATCH sends every field again. */
export const adminRoleBodySchema = z.object({
  name: requiredString()
    .transform((value) => value.trim())
    .refine(...lengthBetween(1, adminRoleLimits.nameMax)),
  description: nullableString().refine(
    (value) => value == null || value.length <= adminRoleLimits.descriptionMax,
    { error: 'max', params: { max: adminRoleLimits.descriptionMax } },
  ),
  // Every permission at most once: the catalogue is small, so anything longer is not a role.
  permissions: z
    .array(z.unknown(), { error: (issue) => (issue.input == null ? 'required' : 'array') })
    .max(64, rule('max'))
    .refine((list) => list.every(isAdminPermission), rule('in'))
    .transform((list) => [...new Set(list.filter(isAdminPermission))].sort()),
});

/** PUT /api/application/users/{id}/role */
export const userRoleBodySchema = z.object({
  role_id: z.union([z.number().int().positive(), z.null()], { error: 'integer' }),
});

export const adminRoleAttributeNames = {
  name: 'name',
  description: 'description',
  permissions: 'permissions',
  role_id: 'role id',
} as const;

export const adminRoleMessages = {
  /** A role user granting (to a role, a user or a key) what they do not hold themselves. */
  beyondOwn: 'You cannot grant permissions you do not have.',
  /** Someone below root admin touching a root admin's account or the root-admin flag. */
  rootOnly: 'Only a root admin can change a root admin or make one.',
  ownRole: 'You cannot change your own role.',
} as const;

export type AdminRoleBody = z.output<typeof adminRoleBodySchema>;
