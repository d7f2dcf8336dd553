import {
  isIssuerUrl,
  OAUTH_SLUG,
  type OAuthProviderCreateBody,
  type OAuthProviderUpdateBody,
  oauthProviderAttributeNames,
  oauthProviderLimits,
} from '@aerie/shared/oauth/oauth-bodies';
import { oauthProviderKinds } from '@aerie/shared/oauth/oauth-wire';
import { laravelArrayMessages, laravelMessages } from '@aerie/shared/validation/laravel-messages';
import { z } from 'zod';
import type { OAuthProvider } from '@/features/admin-oauth-providers/api/oauth-providers';

const names = oauthProviderAttributeNames;
const limits = oauthProviderLimits;

/** "openid, email profile" → ['openid', 'email', 'profile']: spaces or commas between scopes, each once. */
export const splitScopes = (text: string): string[] => [
  ...new Set(text.split(/[\s,]+/).filter((scope) => scope !== '')),
];

/** One domain a line (commas and spaces work too), lower-case, without a leading @, each once. */
export const splitDomains = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
      .filter((domain) => domain !== ''),
  ),
];

const arrayMax = (attribute: string, max: number) =>
  laravelArrayMessages.max?.(attribute, { max }) ?? laravelMessages.max(attribute, { max });

const required = (attribute: string, max: number) =>
  z
    .string()
    .trim()
    // No `abort`: an aborted field would keep the issuer's check below from running.
    .min(1, laravelMessages.required(attribute))
    .max(max, laravelMessages.max(attribute, { max }));

/**
 * The provider form, checked with the API's rules and wording (oauthProviderCreateSchema) before anything is sent;
 * the panel checks the rest (each scope and domain, whether the issuer may be reached). A new provider needs its
 * client secret; an edit keeps the saved one when the field is left blank.
 */
export const providerFormSchema = (creating: boolean) =>
  z
    .object({
      kind: z.enum(oauthProviderKinds, { error: laravelMessages.in(names.kind) }),
      name: required(names.name, limits.nameMax),
      slug: required(names.slug, limits.slugMax).refine(
        (value) => value === '' || OAUTH_SLUG.test(value.toLowerCase()),
        laravelMessages.regex(names.slug),
      ),
      issuer: z
        .string()
        .trim()
        .max(limits.issuerMax, laravelMessages.max(names.issuer, { max: limits.issuerMax })),
      clientId: required(names.client_id, limits.clientIdMax),
      clientSecret: creating
        ? required(names.client_secret, limits.clientSecretMax)
        : z
            .string()
            .trim()
            .max(
              limits.clientSecretMax,
              laravelMessages.max(names.client_secret, { max: limits.clientSecretMax }),
            ),
      scopes: z
        .string()
        .refine((value) => splitScopes(value).length <= limits.scopes, arrayMax(names.scopes, limits.scopes)),
      emailDomains: z
        .string()
        .refine(
          (value) => splitDomains(value).length <= limits.emailDomains,
          arrayMax(names.email_domains, limits.emailDomains),
        ),
      enabled: z.boolean(),
      createAccounts: z.boolean(),
      allowTwoFactorAccounts: z.boolean(),
    })
    // Checked even while another field is invalid (`when`), so a missing issuer shows with the other errors.
    .refine((values) => values.kind !== 'oidc' || values.issuer !== '', {
      path: ['issuer'],
      error: laravelMessages.required(names.issuer),
      when: () => true,
    })
    .refine((values) => values.kind !== 'oidc' || values.issuer === '' || isIssuerUrl(values.issuer), {
      path: ['issuer'],
      error: laravelMessages.url(names.issuer),
      when: () => true,
    });

export type ProviderFormValues = z.infer<ReturnType<typeof providerFormSchema>>;

export const providerFormValues = (provider?: OAuthProvider): ProviderFormValues => ({
  kind: provider?.kind ?? 'oidc',
  name: provider?.name ?? '',
  slug: provider?.slug ?? '',
  issuer: provider?.issuer ?? '',
  clientId: provider?.clientId ?? '',
  clientSecret: '',
  scopes: provider?.scopes.join(' ') ?? '',
  emailDomains: provider?.emailDomains.join('\n') ?? '',
  enabled: provider?.enabled ?? true,
  createAccounts: provider?.createAccounts ?? false,
  allowTwoFactorAccounts: provider?.allowTwoFactorAccounts ?? false,
});

/** Every field but the secret: the issuer only for OpenID Connect (null for the presets). */
const commonBody = (values: ProviderFormValues) => ({
  slug: values.slug.trim().toLowerCase(),
  name: values.name.trim(),
  kind: values.kind,
  issuer: values.kind === 'oidc' ? values.issuer.trim() : null,
  client_id: values.clientId.trim(),
  scopes: splitScopes(values.scopes),
  enabled: values.enabled,
  create_accounts: values.createAccounts,
  email_domains: splitDomains(values.emailDomains),
  allow_two_factor_accounts: values.allowTwoFactorAccounts,
});

export const toCreateBody = (values: ProviderFormValues): OAuthProviderCreateBody => ({
  ...commonBody(values),
  client_secret: values.clientSecret.trim(),
});

/** A blank secret is left out, so the panel keeps the saved one. */
export const toUpdateBody = (values: ProviderFormValues): OAuthProviderUpdateBody => {
  const secret = values.clientSecret.trim();
  return secret === '' ? commonBody(values) : { ...commonBody(values), client_secret: secret };
};

/** The API's field names → the form's, for a 422's messages. */
export const providerFormFields = {
  kind: 'kind',
  name: 'name',
  slug: 'slug',
  issuer: 'issuer',
  client_id: 'clientId',
  client_secret: 'clientSecret',
  scopes: 'scopes',
  email_domains: 'emailDomains',
  enabled: 'enabled',
  create_accounts: 'createAccounts',
  allow_two_factor_accounts: 'allowTwoFactorAccounts',
} as const;
