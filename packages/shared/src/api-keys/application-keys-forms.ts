import { z } from 'zod';
import { adminResources, applicationKeyLimits } from './application-keys-wire';

/** What the admin area's application key form checks before sending (the API's rules: application-keys-bodies.ts). */
export const applicationKeyFormMessages = {
  memoRequired: 'A description of the key is required.',
  memoMax: `The description may not be greater than ${applicationKeyLimits.memoMax} characters.`,
  noAccess: 'Give the key read or write access to at least one resource: with none it can do nothing.',
} as const;

/** The form's choices per resource: none, read (bit 1), read and write (bits 1 and 2). */
export const applicationKeyAccessChoices = ['0', '1', '3'] as const;

export const applicationKeyFormSchema = z
  .object({
    memo: z
      .string()
      .trim()
      .min(1, { error: applicationKeyFormMessages.memoRequired, abort: true })
      .max(applicationKeyLimits.memoMax, applicationKeyFormMessages.memoMax),
    /** One address or CIDR range per line; blank lets any address use the key. */
    allowedIps: z.string(),
    access: z.object(
      Object.fromEntries(
        adminResources.map((resource) => [resource, z.enum(applicationKeyAccessChoices)]),
      ) as Record<
        (typeof adminResources)[number],
        z.ZodEnum<{ [K in (typeof applicationKeyAccessChoices)[number]]: K }>
      >,
    ),
  })
  .superRefine((values, ctx) => {
    // Said under the first resource, where the admin starts picking.
    if (Object.values(values.access).every((level) => level === '0')) {
      ctx.addIssue({
        code: 'custom',
        path: ['access', adminResources[0]],
        message: applicationKeyFormMessages.noAccess,
      });
    }
  });

export type ApplicationKeyFormValues = z.infer<typeof applicationKeyFormSchema>;
