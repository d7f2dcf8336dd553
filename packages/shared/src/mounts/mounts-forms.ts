import { z } from 'zod';

/** What the admin area's mount form checks before sending (the API's rules: mounts-bodies.ts). */
export const mountFormMessages = {
  name: 'The name must be between 2 and 64 characters.',
  sourceRequired: 'The source is required.',
  targetRequired: 'The target is required.',
  absolute: 'The path must start with a slash.',
  pathMax: 'The path may not be greater than 191 characters.',
  descriptionMax: 'The description may not be greater than 1000 characters.',
} as const;

const m = mountFormMessages;

const path = (required: string) =>
  z
    .string()
    .trim()
    .min(1, { error: required, abort: true })
    .max(191, { error: m.pathMax, abort: true })
    .refine((value) => value.startsWith('/'), m.absolute);

/** The form's fields as typed. */
export const mountFormSchema = z.object({
  name: z.string().trim().min(2, m.name).max(64, m.name),
  description: z.string().max(1000, m.descriptionMax),
  source: path(m.sourceRequired),
  target: path(m.targetRequired),
  readOnly: z.boolean(),
  userMountable: z.boolean(),
});

export type MountFormValues = z.infer<typeof mountFormSchema>;
