import type { OAuthProviderKind } from '@aerie/shared/oauth/oauth-wire';

/** An identity provider as the services see it. The client secret stays sealed until a flow needs it. */
export interface OAuthProvider {
  id: number;
  slug: string;
  name: string;
  kind: OAuthProviderKind;
  issuer: string | null;
  clientId: string;
  /** Sealed with the app key; open it only to talk to the provider. */
  sealedClientSecret: string;
  scopes: string[];
  enabled: boolean;
  createAccounts: boolean;
  /** Lower-case; empty: any domain. */
  emailDomains: string[];
  /** Whether it may sign in an account that has 2FA without the TOTP step. */
  allowTwoFactorAccounts: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A panel account's link to a provider's account. */
export interface OAuthLink {
  userId: number;
  providerId: number;
  subject: string;
  email: string | null;
  createdAt: Date;
}
