import type { Db } from '@aerie/panel/db/database';
import type { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import type { User } from '@aerie/panel/features/users/user';
import { displayError } from '@aerie/panel/http/errors';
import { oauthMessages } from '@aerie/shared/oauth/oauth-messages';
import { anyEnabledOAuthProvider } from './oauth-providers.repository';

// What the oauth feature offers other features: whether a user must sign in through an identity provider.

/**
 * Whether `user` must sign in through an identity provider rather than with a password (or a passkey): the panel
 * requires single sign-on (setting `sso_required`), the user is not a root admin (root admins keep their password,
 * so a broken provider never locks the panel), and at least one provider is enabled (else nobody could sign in).
 */
export async function ssoRequiredFor(
  deps: { db: Db; settings: PanelSettings },
  user: Pick<User, 'rootAdmin'>,
): Promise<boolean> {
  if (user.rootAdmin || !(await deps.settings.ssoRequired())) return false;
  return anyEnabledOAuthProvider(deps.db);
}

/** @throws HttpError 400 DisplayException "This panel requires signing in with single sign-on." when it does */
export async function assertSignInWithoutSso(
  deps: { db: Db; settings: PanelSettings },
  user: Pick<User, 'rootAdmin'>,
): Promise<void> {
  if (await ssoRequiredFor(deps, user)) throw displayError(oauthMessages.ssoRequired);
}
