import { describe, expect, it } from 'vitest';
import { normalizeInput } from '../validation/normalize-input';
import { toValidationErrors } from '../validation/validation-errors';
import { createApiKeyBodySchema } from './api-keys-bodies';
import { apiKeyMessages, createApiKeyFormSchema } from './api-keys-forms';

/** What the panel answers for a description (after its TrimStrings), as [rule, detail] pairs. */
const panelErrors = (description: string) => {
  const result = createApiKeyBodySchema.safeParse(normalizeInput({ description, allowed_ips: [] }));
  return result.success
    ? []
    : toValidationErrors(result.error.issues).map((error) => [error.meta?.rule, error.detail]);
};
const formErrors = (description: string) => {
  const result = createApiKeyFormSchema.safeParse({ description, allowedIps: '' });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('API key description: the form and the panel enforce the same rules', () => {
  it.each([
    ['', ['required', 'The description field is required.'], apiKeyMessages.descriptionRequired],
    ['    ', ['required', 'The description field is required.'], apiKeyMessages.descriptionRequired],
    ['abc', ['min', 'The description must be at least 4 characters.'], apiKeyMessages.descriptionMin],
    [' ab ', ['min', 'The description must be at least 4 characters.'], apiKeyMessages.descriptionMin],
    [
      'x'.repeat(501),
      ['max', 'The description may not be greater than 500 characters.'],
      apiKeyMessages.descriptionMax,
    ],
  ])('both refuse %j', (description, panel, form) => {
    expect(panelErrors(description)).toEqual([panel]);
    expect(formErrors(description)).toEqual([form]);
  });

  it.each(['abcd', '  abcd  ', 'Deploy bot', 'x'.repeat(500)])('both accept %j', (description) => {
    expect(panelErrors(description)).toEqual([]);
    expect(formErrors(description)).toEqual([]);
  });
});
