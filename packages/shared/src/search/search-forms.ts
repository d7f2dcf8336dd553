import { z } from 'zod';

/** Texts of the server search modal, word for word from the spec ("Server search modal", §5). */
export const searchMessages = {
  termMin: 'Please enter at least three characters to begin searching.',
} as const;

/** Searching starts at three characters (spec §9). */
export const searchTermMinLength = 3;

export const serverSearchFormSchema = z.object({
  term: z.string().trim().min(searchTermMinLength, searchMessages.termMin),
});
export type ServerSearchFormValues = z.infer<typeof serverSearchFormSchema>;
