import type { ApiKey } from '@aerie/panel/features/api-keys/api-key';
import type { ApiKeyService } from '@aerie/panel/features/api-keys/api-keys.service';
import type { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import type { User } from '@aerie/panel/features/users/user';
import { HttpError, unauthenticated } from '@aerie/panel/http/errors';
import { errorMessages } from '@aerie/shared/errors/error-envelope';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a /api/client request was authenticated with; null for the SPA's session requests. */
    apiKey: ApiKey | null;
  }
  interface FastifyContextConfig {
    /** Reachable while the panel requires 2FA and the user has not enabled it yet (reference §4.5). */
    twoFactorExempt?: boolean;
  }
}

/** The same test the CSRF hook uses to skip bearer requests: such a request must never fall back to the cookie. */
const BEARER = /^Bearer\s/i;

/**
 * Who makes a /api/client request. With `Authorization: Bearer …` it is the API key's user and nothing else:
 * CSRF was not checked for this request, so its session cookie must not count. Otherwise the session's user.
 * @throws HttpError 401 "Unauthenticated."
 */
export async function identifyClient(apiKeys: ApiKeyService, request: FastifyRequest): Promise<User> {
  const header = request.headers.authorization ?? '';
  if (BEARER.test(header)) {
    const { key, user } = await apiKeys.authenticate(header.replace(BEARER, '').trim());
    request.session = null;
    request.user = user;
    request.apiKey = key;
    return user;
  }
  if (!request.user) throw unauthenticated();
  return request.user;
}

/**
 * Refuses users without 2FA when the panel requires it of them (setting `2fa_required`: 1 admins,
 * 2 everyone), except on routes marked `config: { twoFactorExempt: true }` — the account page and the 2FA routes
 * that let them comply.
 * @throws HttpError 400 TwoFactorAuthRequiredException
 */
export async function assertTwoFactorSatisfied(
  settings: PanelSettings,
  request: FastifyRequest,
  user: User,
): Promise<void> {
  if (user.useTotp || request.routeOptions.config?.twoFactorExempt) return;
  const required = await settings.twoFactorRequired();
  // "Admins only" covers everyone who can reach the admin area: root admins and users with an admin role.
  if (required === 2 || (required === 1 && (user.rootAdmin || user.adminRoleId != null))) {
    throw new HttpError(400, 'TwoFactorAuthRequiredException', errorMessages.twoFactorRequired);
  }
}

/** The user of a /api/client route (the client plugin has authenticated the request). */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw unauthenticated();
  return request.user;
}
