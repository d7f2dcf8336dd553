import { readFileSync } from 'node:fs';
import { unknownVariableRule } from '@aerie/shared/eggs/egg-variable-rule-names';
import { checkVariableRules } from '@aerie/shared/eggs/egg-variable-rules';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import { describe, expect, it } from 'vitest';

/**
 * Every distinct rule string of 260 community and Pterodactyl eggs (test/fixtures/eggs/variable-rules-corpus.json,
 * gathered from pelican-eggs/eggs, pelican-eggs/games-*, pterodactyl/panel's seeders and the eggs in this repo):
 * each must be understood in full, and each egg's own default must pass its own rules, except the defaults below,
 * which break their egg's rules upstream too.
 */
interface CorpusEntry {
  rules: string;
  count: number;
  example: { egg: string; env: string; default: string };
}

const corpus = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/eggs/variable-rules-corpus.json', import.meta.url), 'utf8'),
) as { eggs_read: number; rules: CorpusEntry[] };

/**
 * Egg defaults their own rules refuse (as Laravel would), by egg and variable, besides the required variables an
 * egg leaves empty for the user to fill in (a key, a password, a name).
 */
const brokenDefaults = new Set<string>([
  // `latest` against `regex:/^([0-9_\.-]{5,8})$/`: upstream's own Mumble egg.
  'Mumble Server MUMBLE_VERSION',
]);

const keyOf = (entry: CorpusEntry) => `${entry.example.egg} ${entry.example.env}`;

describe('the community eggs’ rule strings', () => {
  it('holds the rule strings of at least 250 eggs', () => {
    expect(corpus.eggs_read).toBeGreaterThanOrEqual(250);
    expect(corpus.rules.length).toBeGreaterThan(250);
  });

  it.each(corpus.rules.map((entry) => [entry.rules, entry] as const))(
    'understands every rule of %s',
    (_, entry) => {
      expect(unknownVariableRule(entry.rules)).toBeNull();
    },
  );

  it.each(corpus.rules.map((entry) => [keyOf(entry), entry] as const))(
    'judges the default of %s by its own rules',
    (key, entry) => {
      const errors = toValidationErrors(checkVariableRules(['value'], entry.rules, entry.example.default));
      const leftForTheUser = entry.example.default === '' && /(^|\|)required(\||$)/.test(entry.rules);
      if (leftForTheUser) expect(errors.map((error) => error.meta?.rule)).toEqual(['required']);
      else if (brokenDefaults.has(key)) expect(errors).not.toEqual([]);
      else expect(errors, `${entry.rules} with ${JSON.stringify(entry.example.default)}`).toEqual([]);
      // Every failure is worded: no bare rule name reaches a user.
      for (const error of errors) expect(error.detail).toMatch(/^The value /);
    },
  );
});
