import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  enableTwoFactorBodySchema,
  updateEmailBodySchema,
  updatePasswordBodySchema,
} from '../account/account-bodies';
import {
  disableTwoFactorFormSchema,
  enableTwoFactorFormSchema,
  updateEmailFormSchema,
  updatePasswordFormSchema,
} from '../account/account-forms';
import { createApiKeyBodySchema } from '../api-keys/api-keys-bodies';
import { createApiKeyFormSchema, splitAllowedIps } from '../api-keys/api-keys-forms';
import {
  checkpointBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  resetPasswordBodySchema,
} from '../auth/auth-bodies';
import { forgotPasswordFormSchema, loginFormSchema, resetPasswordFormSchema } from '../auth/auth-forms';
import { stripAnsi } from '../eggs/done-matcher';
import {
  chmodFilesBodySchema,
  compressFilesBodySchema,
  copyFileBodySchema,
  createFolderBodySchema,
  decompressFileBodySchema,
  deleteFilesBodySchema,
  directoryQuerySchema,
  fileQuerySchema,
  renameFilesBodySchema,
} from '../files/file-bodies';
import { serverSearchFormSchema } from '../search/search-forms';
import { normalizeInput } from './normalize-input';
import {
  lengthBetween,
  nullableNumeric,
  nullableString,
  requiredArray,
  requiredEmail,
  requiredNumeric,
  requiredString,
} from './rules';
import { toValidationErrors } from './validation-errors';

/**
 * Validation runs on the panel's only thread: one slow match makes every user wait. Each rule and schema gets
 * inputs built to make a backtracking regular expression try every split of a long run. A guard, not a benchmark:
 * the budget is far above what a linear match takes and far below what a quadratic one does.
 */
const BUDGET_MS = 250;
const MiB = 1 << 20;

/** Adversarial strings of about `size` characters. */
const adversarial: Record<string, (size: number) => string> = {
  digits: (n) => `${'0'.repeat(n)}x`,
  'digits around a dot': (n) => `${'0'.repeat(n / 2)}.${'0'.repeat(n / 2)}x`,
  'exponent digits': (n) => `1e${'0'.repeat(n)}x`,
  'signed dot digits': (n) => `-.${'9'.repeat(n)}e+`,
  letters: (n) => `${'a'.repeat(n)}!`,
  'dotted labels': (n) => `${'a.'.repeat(n / 2)}!`,
  'email local part': (n) => `${'a'.repeat(n)}@`,
  'email domain with dashes': (n) => `a@${'a-'.repeat(n / 2)}.`,
  'email domain with dots': (n) => `a@${'a.'.repeat(n / 2)}1`,
  'surrounding spaces': (n) => `${' '.repeat(n / 2)}x${' '.repeat(n / 2)}`,
  'escape sequences': (n) => '\u001b['.repeat(n / 2),
  'carriage returns': (n) => `${'\r'.repeat(n)}x`,
};

/** Every field name the shared schemas read, set to `value` (arrays get it as their items). */
function everyField(value: string, files: unknown[]): Record<string, unknown> {
  const fields = [
    'user',
    'password',
    'password_confirmation',
    'current_password',
    'confirmation_token',
    'authentication_code',
    'recovery_token',
    'email',
    'token',
    'code',
    'description',
    'file',
    'directory',
    'root',
    'location',
    'name',
    'username',
    'currentPassword',
    'passwordConfirmation',
    'allowedIps',
    'term',
  ];
  return { ...Object.fromEntries(fields.map((field) => [field, value])), allowed_ips: [value], files };
}

/** A body schema the way the panel runs it: normalised input, then the 422 entries built from its issues. */
const asBody = (schema: z.ZodObject) => (value: string) => {
  for (const files of [[value], [{ to: value, from: value, file: value, mode: value }]]) {
    const result = schema.safeParse(normalizeInput(everyField(value, files)));
    if (!result.success) toValidationErrors(result.error.issues, Object.keys(schema.shape));
  }
};
/** A form schema the way the SPA runs it: the typed values as they are. */
const asForm = (schema: z.ZodType) => (value: string) => schema.safeParse(everyField(value, [value]));
const asRule = (schema: z.ZodType) => (value: string) => {
  schema.safeParse(value);
  schema.safeParse([value]);
};

const targets: Record<string, (value: string) => unknown> = {
  'rule requiredString': asRule(requiredString()),
  'rule nullableString': asRule(nullableString()),
  'rule requiredEmail': asRule(requiredEmail()),
  'rule requiredEmail + lengthBetween': asRule(requiredEmail().refine(...lengthBetween(1, 191))),
  'rule requiredNumeric': asRule(requiredNumeric()),
  'rule nullableNumeric': asRule(nullableNumeric()),
  'rule requiredArray': (value) => requiredArray(requiredNumeric()).safeParse([value, value]),
  loginBodySchema: asBody(loginBodySchema),
  checkpointBodySchema: asBody(checkpointBodySchema),
  forgotPasswordBodySchema: asBody(forgotPasswordBodySchema),
  resetPasswordBodySchema: asBody(resetPasswordBodySchema),
  updateEmailBodySchema: asBody(updateEmailBodySchema),
  updatePasswordBodySchema: asBody(updatePasswordBodySchema),
  enableTwoFactorBodySchema: asBody(enableTwoFactorBodySchema),
  createApiKeyBodySchema: asBody(createApiKeyBodySchema),
  fileQuerySchema: asBody(fileQuerySchema),
  directoryQuerySchema: asBody(directoryQuerySchema),
  renameFilesBodySchema: asBody(renameFilesBodySchema),
  copyFileBodySchema: asBody(copyFileBodySchema),
  compressFilesBodySchema: asBody(compressFilesBodySchema),
  decompressFileBodySchema: asBody(decompressFileBodySchema),
  deleteFilesBodySchema: asBody(deleteFilesBodySchema),
  createFolderBodySchema: asBody(createFolderBodySchema),
  chmodFilesBodySchema: asBody(chmodFilesBodySchema),
  loginFormSchema: asForm(loginFormSchema),
  forgotPasswordFormSchema: asForm(forgotPasswordFormSchema),
  resetPasswordFormSchema: asForm(resetPasswordFormSchema),
  updatePasswordFormSchema: asForm(updatePasswordFormSchema),
  updateEmailFormSchema: asForm(updateEmailFormSchema),
  enableTwoFactorFormSchema: asForm(enableTwoFactorFormSchema),
  disableTwoFactorFormSchema: asForm(disableTwoFactorFormSchema),
  createApiKeyFormSchema: asForm(createApiKeyFormSchema),
  serverSearchFormSchema: asForm(serverSearchFormSchema),
  splitAllowedIps: splitAllowedIps,
  stripAnsi: stripAnsi,
};

const elapsedMs = (run: () => void) => {
  const started = performance.now();
  run();
  return performance.now() - started;
};

describe('validation cannot be made slow', () => {
  it.each(Object.entries(targets))('%s stays within budget on 1 MiB adversarial inputs', (_name, target) => {
    const slow: string[] = [];
    for (const [kind, make] of Object.entries(adversarial)) {
      // Growing sizes: a super-linear match fails at 64 KiB in seconds instead of hanging the run at 1 MiB. A size
      // over the budget fails only if it also grew faster than its input (16x from 64 KiB to 1 MiB is linear,
      // 256x quadratic): a loaded machine can make linear work slow, never super-linear.
      let previous: { size: number; ms: number } | undefined;
      for (const size of [64 * 1024, 256 * 1024, MiB]) {
        const input = make(size);
        const ms = elapsedMs(() => target(input));
        const growth = previous
          ? ms / Math.max(previous.ms, 1) / (size / previous.size)
          : Number.POSITIVE_INFINITY;
        if (ms >= BUDGET_MS && growth > 2.5) {
          slow.push(`${kind} (${input.length} characters): ${Math.round(ms)} ms`);
          break;
        }
        previous = { size, ms };
      }
    }
    expect(slow).toEqual([]);
  });

  it('a body of many small items costs in proportion to their number (one 422 entry each)', () => {
    // A ratio in the same run, not a time: on a loaded machine 64 Ki items took 1.2 s once. Linear work grows 4x
    // from a quarter of the items to all of them, quadratic work 16x.
    const validate = (count: number) => {
      const files = Array.from({ length: count }, () => ({ file: 'a', mode: '00000000x' }));
      return elapsedMs(() => {
        const result = chmodFilesBodySchema.safeParse(normalizeInput({ root: '/', files }));
        expect(result.success).toBe(false);
        if (!result.success) toValidationErrors(result.error.issues, ['root', 'files']);
      });
    };
    validate(MiB / 64); // warm-up: the first run compiles the schema's paths
    const quarter = Math.min(validate(MiB / 64), validate(MiB / 64));
    const all = Math.min(validate(MiB / 16), validate(MiB / 16));
    expect(all / quarter).toBeLessThan(8);
  });
});

describe('numeric reads the same as before', () => {
  // The rule as it was (quadratic on long digit runs): only ever given the short strings below.
  const previous = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  const alphabet = ['0', '7', '.', 'e', 'E', '+', '-', 'x', ' '];

  /** Every non-empty string of up to `length` characters over the alphabet. */
  function strings(length: number): string[] {
    const all: string[] = [];
    let level = [''];
    for (let size = 1; size <= length; size++) {
      level = level.flatMap((shorter) => alphabet.map((c) => shorter + c));
      all.push(...level);
    }
    return all;
  }

  it('accepts and refuses exactly the strings the previous expression did (all up to 5 characters)', () => {
    const numeric = requiredNumeric();
    const all = strings(5);
    const differences = all.filter((text) => numeric.safeParse(text).success !== previous.test(text));
    expect(all.length).toBeGreaterThan(60_000);
    expect(all.filter((text) => previous.test(text)).length).toBeGreaterThan(500);
    expect(differences).toEqual([]);
  });

  it('keeps the usual answers', () => {
    const passes = (value: unknown) => requiredNumeric().safeParse(value).success;
    for (const good of ['755', '0755', '-1', '+1.5', '.5', '5.', '1e5', '1E+5', '1.5e-3', 644, 1.5])
      expect(passes(good), String(good)).toBe(true);
    for (const bad of ['abc', '1e', 'e5', '.', '1.2.3', '0x1F', ' 1', '1 ', '', Number.NaN, null])
      expect(passes(bad), String(bad)).toBe(false);
    expect(requiredNumeric().parse(644)).toBe('644');
    expect(nullableNumeric().parse(null)).toBe(null);
  });

  it('still reads emails as before', () => {
    expect(requiredEmail().safeParse('user@example.com').success).toBe(true);
    expect(requiredEmail().safeParse('invalid').success).toBe(false);
    expect(requiredEmail().safeParse('a@b').success).toBe(false);
  });
});
