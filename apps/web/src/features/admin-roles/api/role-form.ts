import { type AdminPermission, isAdminPermission } from '@aerie/shared/admin-roles/admin-permissions';
import { adminRoleAttributeNames, adminRoleLimits } from '@aerie/shared/admin-roles/admin-roles-bodies';
import { laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';
import type { AdminRole, AdminRoleBody } from '@/features/admin-roles/api/admin-roles';

const { name, description } = adminRoleAttributeNames;

/** The role form, checked with the API's rules and wording (adminRoleBodySchema) before anything is sent. */
export const roleFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: laravelMessages.required(name), abort: true })
    .max(adminRoleLimits.nameMax, laravelMessages.between(name, { min: 1, max: adminRoleLimits.nameMax })),
  description: z
    .string()
    .max(
      adminRoleLimits.descriptionMax,
      laravelMessages.max(description, { max: adminRoleLimits.descriptionMax }),
    ),
  permissions: z.array(z.custom<AdminPermission>(isAdminPermission)),
});

export type RoleFormValues = z.infer<typeof roleFormSchema>;

export const roleFormValues = (role?: AdminRole): RoleFormValues => ({
  name: role?.name ?? '',
  description: role?.description ?? '',
  permissions: role?.permissions ?? [],
});

/** A blank description is sent as null; the permissions in the catalogue's order, each once. */
export const toRoleBody = (values: RoleFormValues): AdminRoleBody => ({
  name: values.name.trim(),
  description: values.description.trim() === '' ? null : values.description.trim(),
  permissions: [...new Set(values.permissions)],
});

/** The API's field names → the form's, for a 422's messages. */
export const roleFormFields = {
  name: 'name',
  description: 'description',
  permissions: 'permissions',
} as const;
