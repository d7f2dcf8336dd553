import { z } from 'zod';
import { subuserLimits } from './subusers-bodies';

/** What the Users page's modal checks before sending, in the spec's words (§5 "Subuser email"). */
export const subuserFormMessages = {
  email: 'A valid email address must be provided.',
  emailMax: `Email addresses must not exceed ${subuserLimits.emailMax} characters.`,
} as const;

const m = subuserFormMessages;

/** The create form (email and permissions); the edit form sends the permissions alone. */
export const subuserFormSchema = z.object({
  email: z.string().trim().max(subuserLimits.emailMax, m.emailMax).pipe(z.email(m.email)),
  permissions: z.array(z.string()),
});

export type SubuserFormValues = z.infer<typeof subuserFormSchema>;
