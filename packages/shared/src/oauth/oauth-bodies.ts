import { z } from 'zod';
import { laravelBoolean } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { lengthBetween, requiredString, rule } from '../validation/rules';
import { oauthProviderKinds } from './oauth-wire';

export const oauthProviderLimits = {
  slugMax: 32,
  nameMax: 64,
  issuerMax: 2048,
  clientIdMax: 255,
  clientSecretMax: 1024,
  scopes: 20,
  scopeMax: 128,
  emailDomains: 50,
  domainMax: 253,
} as const;

/** The `{provider}` of /auth/oauth/{provider}/…: lower-case letters, digits and inner dashes. */
export const OAUTH_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** RFC 6749 §3.3 scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** A host name of two labels or more (`example.com`), lower-case. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An http:// or https:// URL without credentials or fragment; whether its host may be reached is the panel's call. */
export const isIssuerUrl = (value: string): boolean => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    !url.username &&
    !url.password &&
    !url.hash &&
    !url.search
  );
};

const listOf = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item, { error: 'array' satisfies LaravelRule })
    .max(max, rule('max'))
    .transform((list) => [...new Set(list as string[])]);

/** Every field of a provider as the routes take it. */
const providerFields = {
  slug: requiredString()
    .transform((value) => value.toLowerCase())
    .refine(...lengthBetween(1, oauthProviderLimits.slugMax))
    .refine((value) => OAUTH_SLUG.test(value), rule('regex')),
  name: requiredString().refine(...lengthBetween(1, oauthProviderLimits.nameMax)),
  kind: z.enum(oauthProviderKinds, {
    error: (issue) => (issue.input == null ? 'required' : 'in') satisfies LaravelRule,
  }),
  issuer: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(oauthProviderLimits.issuerMax, rule('max'))
    // Kept as typed: discovery compares it with the issuer's own `issuer`, trailing slash included.
    .refine(isIssuerUrl, rule('url'))
    .nullish(),
  client_id: requiredString().refine(...lengthBetween(1, oauthProviderLimits.clientIdMax)),
  client_secret: z
    .string({ error: 'string' satisfies LaravelRule })
    .max(oauthProviderLimits.clientSecretMax, rule('max'))
    .nullish(),
  scopes: listOf(
    z
      .string({ error: 'string' satisfies LaravelRule })
      .max(oauthProviderLimits.scopeMax, rule('max'))
      .regex(SCOPE_TOKEN, rule('regex')),
    oauthProviderLimits.scopes,
  ).optional(),
  enabled: laravelBoolean().optional(),
  create_accounts: laravelBoolean().optional(),
  email_domains: listOf(
    z
      .string({ error: 'string' satisfies LaravelRule })
      .max(oauthProviderLimits.domainMax, rule('max'))
      .transform((value) => value.trim().toLowerCase().replace(/^@/, ''))
      .refine((value) => DOMAIN.test(value), rule('regex')),
    oauthProviderLimits.emailDomains,
  ).optional(),
  allow_two_factor_accounts: laravelBoolean().optional(),
};

/**
 * POST /api/application/oauth-providers. `issuer` is required for `oidc` and ignored for the presets; `scopes`
 * empty or absent: the kind's defaults. The client secret is required here, and sealed at rest.
 */
export const oauthProviderCreateSchema = z.object({
  ...providerFields,
  client_secret: requiredString().refine(...lengthBetween(1, oauthProviderLimits.clientSecretMax)),
});

/** PATCH /api/application/oauth-providers/{id}: only the fields sent change; no (or an empty) secret keeps it. */
export const oauthProviderUpdateSchema = z.object(providerFields).partial();

export const oauthProviderAttributeNames = {
  slug: 'slug',
  name: 'name',
  kind: 'kind',
  issuer: 'issuer',
  client_id: 'client id',
  client_secret: 'client secret',
  scopes: 'scopes',
  email_domains: 'email domains',
} as const;

export type OAuthProviderCreateBody = z.output<typeof oauthProviderCreateSchema>;
export type OAuthProviderUpdateBody = z.output<typeof oauthProviderUpdateSchema>;
